import Mustache from "mustache";

/** How a template's `{{values}}` are escaped: chosen by where the text goes. */
export type Escaping = "json" | "form" | "url" | "none";

const text = (value: unknown): string => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));

const ESCAPES: Record<Escaping, (value: unknown) => string> = {
  // Safe inside a JSON string literal; an object or list gives its JSON text, escaped likewise.
  json: (value) => JSON.stringify(text(value)).slice(1, -1),
  form: (value) => encodeURIComponent(text(value)),
  url: (value) => encodeURIComponent(text(value)),
  none: text,
};

/** The escaping of a body of this content type: JSON-safe, form-encoded, or none for plain text. */
export function bodyEscaping(contentType: string): Escaping {
  const type = contentType.toLowerCase();
  if (type.includes("json")) return "json";
  if (type.includes("x-www-form-urlencoded")) return "form";
  return "none";
}

/**
 * A copy of the data whose objects have no prototype, so a template can only reach the data
 * itself (`{{constructor}}` or `{{__proto__}}` find nothing), never JavaScript's built-ins.
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== "object") return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) out[k] = plain(v);
  return out;
}

/** Renders a mustache template over the context with the given escaping (mustache is logic-less: no code runs). */
export function renderTemplate(template: string, context: Record<string, unknown>, escaping: Escaping): string {
  return Mustache.render(template, plain(context), undefined, { escape: ESCAPES[escaping] });
}

/** The template's syntax error, or null when it parses. */
export function templateProblem(template: string): string | null {
  try {
    Mustache.parse(template);
    return null;
  } catch (error) {
    return `Invalid template: ${(error as Error).message}`;
  }
}

/**
 * The headers of an `additional_headers` template: one `Name: Value` per line, each rendered
 * without escaping; CR and LF never reach a header value, and lines without a colon are ignored,
 * as NetBox ignores them.
 */
export function renderHeaders(template: string, context: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const line of template.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim();
    const value = renderTemplate(line.slice(i + 1), context, "none").replace(/[\r\n]/g, "").trim();
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out.push([name, value]);
  }
  return out;
}

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

/**
 * Where a render stops, shared by the URL, the headers and the body of one request: at most
 * `maxSize` characters of output (`WEBHOOK_RENDER_MAX_SIZE`), and at most four times as many
 * template tokens visited (a visit costs about what a few characters of output do), so nested
 * loops over data a writer controls stop early whether they print much (27 MB from three loops
 * over 300 items) or nothing at all (27 million empty iterations).
 */
export class RenderBudget {
  private output = 0;
  private steps = 0;
  private readonly maxSize: number;
  constructor(maxSize: number) {
    this.maxSize = maxSize;
  }

  spend(characters: number, steps: number): void {
    this.output += characters;
    this.steps += steps;
    if (this.output > this.maxSize)
      throw new Error(`the rendered request passes WEBHOOK_RENDER_MAX_SIZE (${this.maxSize} bytes); rendering stopped, nothing sent`);
    if (this.steps > 4 * this.maxSize)
      throw new Error(
        `the templates take more than ${4 * this.maxSize} steps (4 x WEBHOOK_RENDER_MAX_SIZE); rendering stopped, nothing sent`,
      );
  }
}

/**
 * A mustache writer that spends the budget as it goes: every piece of output passes through one
 * of three methods (text, escaped and unescaped values; no partials or lambdas reach plain data),
 * and every list of tokens through `renderTokens`, so the render throws as soon as either cap is
 * passed instead of building the whole text first.
 */
function budgetedWriter(budget: RenderBudget): Mustache.Writer {
  const writer = new Mustache.Writer();
  const counted =
    <A extends unknown[]>(f: (...args: A) => unknown) =>
    (...args: A) => {
      const value = f.apply(writer, args);
      if (value != null) budget.spend(String(value).length, 0);
      return value;
    };
  writer.rawValue = counted(writer.rawValue) as typeof writer.rawValue;
  writer.escapedValue = counted(writer.escapedValue) as typeof writer.escapedValue;
  writer.unescapedValue = counted(writer.unescapedValue) as typeof writer.unescapedValue;
  const renderTokens = writer.renderTokens;
  writer.renderTokens = function (tokens, ...rest) {
    // An empty section still costs its iteration.
    budget.spend(0, Math.max(1, tokens.length));
    return renderTokens.call(this, tokens, ...rest);
  };
  return writer;
}

/** Renders a mustache template over the context with the given escaping (mustache is logic-less: no code runs). */
export function renderTemplate(
  template: string,
  context: Record<string, unknown>,
  escaping: Escaping,
  budget = new RenderBudget(Infinity),
): string {
  return budgetedWriter(budget).render(template, plain(context), undefined, { escape: ESCAPES[escaping] });
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
export function renderHeaders(template: string, context: Record<string, unknown>, budget = new RenderBudget(Infinity)): [string, string][] {
  const out: [string, string][] = [];
  for (const line of template.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim();
    const value = renderTemplate(line.slice(i + 1), context, "none", budget)
      .replace(/[\r\n]/g, "")
      .trim();
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out.push([name, value]);
  }
  return out;
}

/** A webhook's templates and an event's context: what rendering one request needs (a plain, cloneable object). */
export interface RenderJob {
  readonly payloadUrl: string;
  readonly bodyTemplate: string;
  readonly additionalHeaders: string;
  readonly contentType: string;
  readonly context: Record<string, unknown>;
  /** WEBHOOK_RENDER_MAX_SIZE. */
  readonly maxSize: number;
}

/** One request as rendered. */
export interface Rendered {
  readonly url: string;
  readonly headers: [string, string][];
  readonly body: string;
}

/**
 * Renders URL, headers and body of one request within one budget; throws when a template fails
 * or the budget runs out. A blank body template sends the event as JSON (SPEC.md 6.2), also
 * within the cap. Pure and synchronous: Node and Deno run it on a worker thread
 * (src/runtime/render-thread.ts), Workers inline.
 */
export function renderRequest(job: RenderJob): Rendered {
  const budget = new RenderBudget(job.maxSize);
  const url = renderTemplate(job.payloadUrl, job.context, "url", budget);
  const headers = renderHeaders(job.additionalHeaders, job.context, budget);
  let body: string;
  if (job.bodyTemplate.trim()) body = renderTemplate(job.bodyTemplate, job.context, bodyEscaping(job.contentType), budget);
  else {
    body = JSON.stringify(job.context);
    budget.spend(body.length, 0);
  }
  // Characters were counted as they came; a character may take up to 3 bytes on the wire.
  const size =
    encoder.encode(url).length +
    encoder.encode(body).length +
    headers.reduce((n, [k, v]) => n + encoder.encode(k).length + encoder.encode(v).length, 0);
  if (size > job.maxSize)
    throw new Error(`the rendered request passes WEBHOOK_RENDER_MAX_SIZE (${job.maxSize} bytes): ${size} bytes; nothing sent`);
  return { url, headers, body };
}

const encoder = new TextEncoder();

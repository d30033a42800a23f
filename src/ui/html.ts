import type { RequestContext } from "../http/context.ts";
import { hasPermission } from "../engine/permissions.ts";
import { assetUrl } from "./assets.ts";

/** Markup that is already safe: the output of `html`, or a constant written here. */
export class SafeHtml {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element's content or a quoted attribute value. */
export const escapeHtml = (value: unknown): string => String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** Trusted markup, not escaped: only for constants and for `html` output. */
export const raw = (text: string): SafeHtml => new SafeHtml(text);

/**
 * The only way pages build markup: every interpolated value is escaped unless it is already
 * `SafeHtml`; arrays are joined, null and false render nothing. A user value can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => (out += render(value) + strings[i + 1]));
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(value);
}

/**
 * Headers every HTML page carries. Scripts and styles come only from this origin (no inline
 * code, so an injected tag cannot run), nothing may frame a page, and forms post only here.
 * `img-src data:` is for the icons Swagger UI's stylesheet embeds.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** True when a browser asked for a page: `?format=api`, or HTML preferred over JSON. */
export function wantsHtml(request: Request, url: URL): boolean {
  const format = url.searchParams.get("format");
  if (format) return format === "api";
  return acceptsHtml(request.headers.get("Accept") ?? "");
}

/** Whether an Accept header asks for a page: HTML named, and JSON not first. */
export const acceptsHtml = (accept: string): boolean => accept.includes("text/html") && !/^application\/json\b/.test(accept);

export interface PageOptions {
  readonly title: string;
  readonly body: SafeHtml;
  /** Extra scripts of this origin, by URL (the shared `app.js` is always loaded). */
  readonly scripts?: readonly string[];
  /** Extra stylesheets of this origin, by URL, after the shared one: a page's own rules win. */
  readonly styles?: readonly string[];
  /** False for a page whose content brings its own look (Swagger UI): the shared element styles stay out of it. */
  readonly plain?: boolean;
  readonly status?: number;
  readonly headers?: HeadersInit;
}

/** Links in the header a requester may follow. */
function navigation(ctx: RequestContext): SafeHtml {
  const links: [string, string][] = [
    ["/api/", "API"],
    ["/api/schema/swagger-ui/", "API documentation"],
    ["/graphql/", "GraphQL"],
  ];
  if (ctx.user && (ctx.user.is_superuser || hasPermission(ctx, "extras.view_webhookdelivery")))
    links.push(["/admin/webhook-deliveries/", "Webhook deliveries"]);
  return html`<nav>${links.map(([href, label]) => html`<a href="${href}">${label}</a>`)}</nav>`;
}

/** Who is signed in, with a way out; or a way in. */
function identity(ctx: RequestContext): SafeHtml {
  const next = encodeURIComponent(ctx.url.pathname + ctx.url.search);
  if (!ctx.user)
    return html`<div class="identity">${ctx.url.pathname === "/login/" ? "" : html`<a href="/login/?next=${next}">Log in</a>`}</div>`;
  return html`<div class="identity">Logged in as <strong class="username">${ctx.user.username}</strong>
    <form method="post" action="/logout/" class="inline"><button type="submit">Log out</button></form></div>`;
}

/** A whole HTML page in the shared shell: header with navigation and identity, then the body. */
export function page(ctx: RequestContext, options: PageOptions): Response {
  const scripts = [assetUrl("app.js"), ...(options.scripts ?? [])];
  const text = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Inventory</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl("app.css")}">
${(options.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
${scripts.map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body>
<header class="top"><a class="brand" href="/api/">Inventory</a>${navigation(ctx)}${identity(ctx)}</header>
<main class="${options.plain === false ? "" : "plain"}">
${options.body}
</main>
</body>
</html>
`;
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  return new Response(text.text, { status: options.status ?? 200, headers });
}

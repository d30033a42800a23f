import type { Model, Registry } from "../schema/shapes.ts";
import type { RequestContext } from "../http/context.ts";
import { isPermitted } from "../engine/permissions.ts";
import { filterCatalog } from "../engine/filters.ts";
import { describeEndpoint } from "../rest/options.ts";
import { html, page, raw, wantsHtml, type SafeHtml } from "./html.ts";
import { jsonMarkup } from "./json-markup.ts";
import { byCodeUnits } from "../lib/code-order.ts";

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The response headers the page shows, in this order, when the response has them. */
const SHOWN_HEADERS = ["API-Version", "Allow", "Content-Type", "X-Request-ID", "Location", "Retry-After"];

/** Parameters every list takes besides its filters. */
const LIST_PARAMETERS = ["limit", "offset", "ordering", "brief", "fields", "omit", "exclude"];

/** What an API path names, from its segments alone (the endpoint already answered). */
interface Endpoint {
  readonly kind: "root" | "app" | "list" | "detail" | "route" | "other";
  readonly model: Model | null;
  /** Links to the path's ancestors and itself: `API / dcim / sites / 7`. */
  readonly crumbs: readonly (readonly [string, string])[];
}

function endpointOf(registry: Registry, pathname: string): Endpoint {
  const segments = pathname.split("/").filter(Boolean);
  const crumbs = segments.map((s, i) => [`/${segments.slice(0, i + 1).join("/")}/`, i === 0 ? "API" : s] as const);
  if (segments[0] !== "api") return { kind: "other", model: null, crumbs };
  const model = segments.length >= 3 ? (registry.byPath(segments[1], segments[2]) ?? null) : null;
  const kind =
    segments.length === 1
      ? "root"
      : segments.length === 2
        ? "app"
        : !model
          ? "other"
          : segments.length === 3
            ? "list"
            : segments.length === 4 && /^\d{1,15}$/.test(segments[3])
              ? "detail"
              : "route";
  return { kind, model, crumbs };
}

/**
 * True when the pipeline should answer with a page instead of the JSON it produced: a browser
 * (or `?format=api`) reading an endpoint whose answer is JSON. Writes stay JSON: the pages' own
 * scripts send them and read the answers.
 */
export function wantsBrowsable(ctx: RequestContext, response: Response): boolean {
  const method = ctx.request.method;
  return (
    (method === "GET" || method === "HEAD") &&
    (response.headers.get("Content-Type") ?? "").startsWith("application/json") &&
    wantsHtml(ctx.request, ctx.url)
  );
}

/**
 * The browsable API: the JSON response an endpoint produced, as an HTML page: the request, the
 * status and headers, the body pretty-printed with its API URLs as links, pagination and the
 * filters of lists, and, for a signed-in browser, forms that send writes through the same
 * endpoints with the session's CSRF token.
 */
export async function browsable(ctx: RequestContext, registry: Registry, response: Response): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const endpoint = endpointOf(registry, ctx.url.pathname);
  const headers = new Headers(response.headers);
  for (const name of ["Content-Type", "Content-Length", "ETag", "Cache-Control"]) headers.delete(name);
  const prefix = `${ctx.origin}/api/`;
  const isLink = (value: string) => value.startsWith(prefix) && URL.canParse(value) && new URL(value).origin === ctx.origin;
  const ok = response.status < 400;
  const title = titleOf(endpoint, body, response.status);
  const list = ok && endpoint.kind === "list" && isPage(body) ? body : null;
  const offset = Number(/^\d{1,15}$/.exec(ctx.url.searchParams.get("offset") ?? "")?.[0] ?? 0);

  const main = html`
<nav class="crumbs" aria-label="Location">${endpoint.crumbs.map(([href, label], i) => html`${i ? " / " : ""}<a href="${href}">${label}</a>`)}</nav>
<div class="title-row">
  <h1>${title}</h1>
  <div class="formats"><a class="format-json" href="${withParam(ctx.url, "format", "json")}">JSON</a></div>
</div>
${endpoint.kind === "root" && ok ? html`<p class="intro">This is the API as a browser sees it: each URL below is a link, and lists show their filters. Scripts get the same data as JSON (<code>Accept: application/json</code> or <a href="?format=json">?format=json</a>) with an API token in <code>Authorization: Token &lt;key&gt;</code>; the <a href="/api/schema/swagger-ui/">API documentation</a> describes every endpoint.</p>` : null}
${!ok && response.status === 403 && !ctx.user ? html`<p class="notice">You are not logged in. <a href="/login/?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}">Log in</a> to see this, or send an API token.</p>` : null}
<div class="layout">
<section class="response" aria-label="Response">
  <div class="request-line"><span class="method">${ctx.request.method}</span> <code>${ctx.url.pathname + ctx.url.search}</code></div>
  <pre class="headers"><b class="${ok ? "status ok" : "status failed"}">HTTP ${response.status} ${STATUS_TEXT[response.status] ?? ""}</b>
${SHOWN_HEADERS.map((name) => (response.headers.has(name) ? html`<span class="h-name">${name}:</span> ${response.headers.get(name)}\n` : null))}</pre>
  ${list ? pager(list, offset, isLink) : null}
  ${list && endpoint.model?.search.length ? searchForm(ctx) : null}
  <pre class="json">${jsonMarkup(body, isLink)}</pre>
  ${list && (list.next || list.previous) ? pager(list, offset, isLink) : null}
</section>
${ok && endpoint.kind === "list" && endpoint.model ? filters(endpoint.model) : null}
</div>
${ok && endpoint.model ? writeForms(ctx, endpoint, body) : null}
`;
  return page(ctx, { title, body: main, status: response.status, headers });
}

function titleOf(endpoint: Endpoint, body: unknown, status: number): string {
  if (status >= 400) return STATUS_TEXT[status] ?? `HTTP ${status}`;
  const model = endpoint.model;
  switch (endpoint.kind) {
    case "root":
      return "API Root";
    case "app":
      return `${endpoint.crumbs[1][1]} API`;
    case "list":
      return `${model!.className} List`;
    case "detail": {
      const display = body && typeof body === "object" && "display" in body ? String(body.display) : endpoint.crumbs.at(-1)![1];
      return `${model!.className}: ${display}`;
    }
    default:
      return endpoint.crumbs.at(-1)?.[1] ?? "API";
  }
}

interface ListPage {
  readonly count: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: unknown[];
}

const isPage = (body: unknown): body is ListPage =>
  Boolean(body && typeof body === "object" && "results" in body && Array.isArray((body as ListPage).results) && "count" in body);

function pager(list: ListPage, offset: number, isLink: (url: string) => boolean): SafeHtml {
  const shown = list.results.length ? `${offset + 1}–${offset + list.results.length} of ${list.count}` : `none of ${list.count}`;
  const link = (url: string | null, label: string, rel: string) =>
    url && isLink(url)
      ? html`<a class="${rel}" rel="${rel}" href="${url}">${label}</a>`
      : html`<span class="${rel} disabled">${label}</span>`;
  return html`<div class="pager">${link(list.previous, "« Previous", "prev")}<span class="count">${shown}</span>${link(list.next, "Next »", "next")}</div>`;
}

/** `url` with one query parameter set, as a path and query (same origin). */
function withParam(url: URL, name: string, value: string): string {
  const params = new URLSearchParams(url.search);
  params.set(name, value);
  return `${url.pathname}?${params}`;
}

/** Search (`q`) over the list, keeping its other parameters except the page offset. */
function searchForm(ctx: RequestContext): SafeHtml {
  const kept = [...ctx.url.searchParams].filter(([name]) => name !== "q" && name !== "offset");
  return html`<form method="get" class="search" role="search">
  ${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <input type="search" name="q" aria-label="Search" placeholder="Search" value="${ctx.url.searchParams.get("q") ?? ""}">
  <button type="submit">Search</button>
</form>`;
}

/** The query parameters the list accepts: its filters with their lookups, then the common ones. */
function filters(model: Model): SafeHtml {
  const catalog = filterCatalog(model).sort((a, b) => byCodeUnits(a.name, b.name));
  const general = [...(model.search.length ? ["q"] : []), ...LIST_PARAMETERS];
  return html`<aside class="filters" aria-label="Filters">
  <h2>Filters</h2>
  <p class="muted">Repeat a parameter to match any of its values; different parameters must all match. A lookup follows two underscores: <code>name__ic=core</code>.</p>
  <p class="general">${general.map((name) => html`<code>${name}</code> `)}</p>
  <dl class="filter-list">
  ${catalog.map(({ name, lookups }) => html`<dt><code>${name}</code></dt><dd>${lookups.length ? lookups.join(" ") : raw("&nbsp;")}</dd>`)}
  </dl>
</aside>`;
}

type FieldInfo = { type?: string; required?: boolean; read_only?: boolean; label?: string; choices?: { value: unknown }[] };

/** The writable fields OPTIONS describes for the requester, or null when it may not write. */
function writableFields(ctx: RequestContext, model: Model, { detail }: { readonly detail: boolean }): [string, FieldInfo][] | null {
  const actions = (describeEndpoint(ctx, model, { detail }) as { actions?: Record<string, Record<string, FieldInfo>> }).actions;
  const fields = actions?.[detail ? "PUT" : "POST"];
  return fields ? Object.entries(fields).filter(([, info]) => !info.read_only) : null;
}

/** A starting value for a required field of a new object. */
function placeholder(info: FieldInfo): unknown {
  if (info.choices?.length) return info.choices[0].value;
  if (info.type === "boolean") return false;
  return ["string", "slug", "email", "url"].includes(info.type ?? "") ? "" : null;
}

/** A value as it was read, in the form a write takes: related objects by id, choices by value. */
function writable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(writable);
  if (value && typeof value === "object") {
    const object = value as Record<string, unknown>;
    if ("value" in object && "label" in object) return object.value;
    if ("id" in object && "url" in object) return object.id;
  }
  return value;
}

/**
 * Forms for a signed-in browser (session cookie, no token): POST a new object on a list; PUT,
 * PATCH or DELETE the object on its detail page. Each appears only when the requester may do it;
 * the endpoint checks again, and the CSRF token travels in `X-CSRFToken`, sent by `app.js`.
 */
function writeForms(ctx: RequestContext, endpoint: Endpoint, body: unknown): SafeHtml | null {
  const model = endpoint.model!;
  if (!ctx.user || ctx.token || model.readOnly || (endpoint.kind !== "list" && endpoint.kind !== "detail")) return null;
  const detail = endpoint.kind === "detail";
  const fields = writableFields(ctx, model, { detail });
  const canDelete = detail && isPermitted(ctx, model, "delete");
  if (!fields && !canDelete) return null;
  const url = ctx.url.pathname;
  const listUrl = endpoint.crumbs[2][0];
  let edit: SafeHtml | null = null;
  if (fields) {
    const current = (body ?? {}) as Record<string, unknown>;
    const start = detail
      ? Object.fromEntries(fields.filter(([name]) => name in current).map(([name]) => [name, writable(current[name])]))
      : Object.fromEntries(fields.filter(([, info]) => info.required).map(([name, info]) => [name, placeholder(info)]));
    edit = html`<form class="api-form" data-url="${url}">
  <h2>${detail ? `Change this ${model.verboseName}` : `Create a ${model.verboseName}`}</h2>
  <label for="api-body">JSON body</label>
  <textarea id="api-body" name="body" rows="${detail ? 16 : 8}" spellcheck="false">${JSON.stringify(start, null, 2)}</textarea>
  <div class="actions">${detail ? html`<button type="submit" value="PATCH">PATCH</button> <button type="submit" value="PUT">PUT</button>` : html`<button type="submit" value="POST">POST</button>`}</div>
  <pre class="api-result" hidden></pre>
  ${fieldTable(fields)}
</form>`;
  }
  const remove = canDelete
    ? html`<form class="api-form delete" data-url="${url}" data-then="${listUrl}">
  <details><summary>Delete this ${model.verboseName}…</summary>
  <p>This cannot be undone.</p>
  <button type="submit" value="DELETE" class="danger">DELETE</button>
  </details>
  <pre class="api-result" hidden></pre>
</form>`
    : null;
  return html`<section class="write" aria-label="Write">${edit}${remove}</section>`;
}

/** The writable fields with their types, whether required, and their choices: OPTIONS, readable. */
function fieldTable(fields: [string, FieldInfo][]): SafeHtml {
  return html`<details class="fields"><summary>Writable fields (${fields.length})</summary>
  <table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Choices</th></tr></thead><tbody>
  ${fields.map(([name, info]) => html`<tr><td><code>${name}</code></td><td>${info.type ?? ""}</td><td>${info.required ? "yes" : ""}</td><td>${(info.choices ?? []).map((c) => String(c.value)).join(", ")}</td></tr>`)}
  </tbody></table></details>`;
}

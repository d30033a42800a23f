import type { Model, Registry } from "../schema/shapes.ts";
import { hasPermission, isPermitted } from "../engine/permissions.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../schema/errors.ts";
import { eventRule, webhook, webhookDelivery } from "../apps/extras/events.ts";
import { BRIEF, FULL, type ListQuery, listObjects, retrieveObject } from "../engine/crud.ts";
import { pageOf } from "../lib/pagination.ts";
import { REQUEST_BODY_EXCERPT } from "../events/sent-request.ts";
import { assetUrl } from "./assets.ts";
import { html, page, type SafeHtml } from "./html.ts";

/*
 * The webhook delivery admin (SPEC.md 6.3.4): queued, succeeded and failed runs, each run's
 * request, response and error log, and Retry. It reads through the API's own list and retrieve
 * code with the requester's identity (the same filters, permissions and constraints a script
 * meets at /api/extras/webhook-deliveries/), and retries through the API's retry endpoints from
 * the browser (`admin.js`).
 */

const BASE = "/admin/webhook-deliveries/";
const API = "/api/extras/webhook-deliveries/";
const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;
const STATES = [
  { value: "queued", label: "Queued" },
  { value: "succeeded", label: "Succeeded (finished)" },
  { value: "failed", label: "Failed" },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: a run as the API answers it, read field by field into the page
type Delivery = Record<string, any>;
type ListReply = { count: number; results: Delivery[] };

/** Serves `/admin/webhook-deliveries/` (id null) and `/admin/webhook-deliveries/<id>/`. */
export async function deliveriesAdmin(ctx: RequestContext, registry: Registry, rawId: string | null): Promise<Response> {
  if (!ctx.user) {
    const next = encodeURIComponent(ctx.url.pathname + ctx.url.search);
    return new Response(null, { status: 302, headers: { Location: `/login/?next=${next}`, "Cache-Control": "no-store" } });
  }
  if (!isPermitted(ctx, webhookDelivery, "view")) {
    // Decided on cached permissions: confirmed against the database before it stands (the router's `fresh`).
    if (ctx.auth?.cached) throw ApiError.forbidden();
    return page(ctx, {
      title: "Permission denied",
      status: 403,
      styles: [assetUrl("admin.css")],
      body: html`<h1>Permission denied</h1><p>You do not have permission to view webhook deliveries (<code>extras.view_webhookdelivery</code>).</p>`,
    });
  }
  if (rawId === null) return listPage(ctx, registry);
  if (!/^\d{1,15}$/.test(rawId)) return notFoundPage(ctx, rawId);
  return detailPage(ctx, registry, Number(rawId));
}

/** What a list read asks, in the API's terms (its filter names, `limit`/`offset` as the API reads them). */
interface Listing {
  readonly filters?: readonly (readonly [string, string])[];
  readonly ordering?: string;
  readonly brief?: boolean;
  readonly limit: number;
  readonly offset?: number;
}

/** A list read by the API's own code, as the requester: what the API would answer for the same query. */
const apiList = (ctx: RequestContext, model: Model, listing: Listing) => {
  const query: ListQuery = {
    filters: listing.filters ?? [],
    ordering: listing.ordering ?? null,
    page: pageOf(ctx.config, { limit: listing.limit, offset: listing.offset ?? 0 }),
    selection: listing.brief ? BRIEF : FULL,
  };
  return listObjects(ctx, model, query) as Promise<ListReply>;
};

/** The webhooks or event rules the requester may see, for a filter's choices (all of them); none without the permission. */
async function choices(ctx: RequestContext, model: Model): Promise<Delivery[]> {
  if (!isPermitted(ctx, model, "view")) return [];
  return (await apiList(ctx, model, { brief: true, limit: 0, ordering: "name" })).results;
}

/** May the requester retry from this page? Retry needs its permission, and the page sends the session's CSRF token. */
const mayRetry = (ctx: RequestContext) => ctx.token === null && hasPermission(ctx, "extras.retry_webhookdelivery");

const digits = (value: string | null) => (value && /^\d{1,15}$/.test(value) ? value : "");

interface Filters {
  readonly status: string;
  readonly webhook_id: string;
  readonly event_rule_id: string;
  readonly limit: number;
  readonly offset: number;
}

function filtersOf(url: URL): Filters {
  const params = url.searchParams;
  const status = params.get("status") ?? "";
  const limit = Number(digits(params.get("limit")) || PAGE_SIZE);
  return {
    status: STATES.some((s) => s.value === status) ? status : "",
    webhook_id: digits(params.get("webhook_id")),
    event_rule_id: digits(params.get("event_rule_id")),
    limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
    offset: Number(digits(params.get("offset")) || 0),
  };
}

/** The API filters of a filter set (the API's own parameter names). */
const apiFilters = (filters: Filters): [string, string][] =>
  (["status", "webhook_id", "event_rule_id"] as const).filter((name) => filters[name]).map((name) => [name, filters[name]]);

/** The query of a filter set, for this page and for the API's JSON alike. */
function query(filters: Filters, offset = filters.offset): string {
  const params = new URLSearchParams(apiFilters(filters));
  params.set("limit", String(filters.limit));
  if (offset) params.set("offset", String(offset));
  return params.toString();
}

async function listPage(ctx: RequestContext, registry: Registry): Promise<Response> {
  const filters = filtersOf(ctx.url);
  const apiQuery = `${API}?${query(filters)}`;
  const asked: Listing = { filters: apiFilters(filters), limit: filters.limit, offset: filters.offset };
  const listing = apiList(ctx, webhookDelivery, asked).catch((error: unknown) => {
    // A filter the API refuses (a webhook that no longer exists) shows as the API's message.
    if (error instanceof ApiError && error.status === 400) return error;
    throw error;
  });
  const [list, queue, failed, webhooks, rules] = await Promise.all([
    listing,
    apiList(ctx, webhookDelivery, { filters: [["status", "queued"]], ordering: "created", limit: 1 }),
    apiList(ctx, webhookDelivery, { filters: [["status", "failed"]], limit: 1 }),
    choices(ctx, webhook),
    choices(ctx, eventRule),
  ]);
  const retry = mayRetry(ctx);
  const rows = list instanceof ApiError ? [] : list.results;
  const failedHere = rows.filter((d) => d.status?.value === "failed");
  const table: RunsTable = { registry, retry };
  const body = html`<h1>Webhook deliveries</h1>
${summary(ctx, queue, failed.count)}
<div id="admin-message" class="admin-message" role="status" aria-live="polite"></div>
${filterForm(filters, webhooks, rules)}
${list instanceof ApiError ? html`<p class="admin-message error">${problemText(list.body)}</p>` : ""}
<div class="admin-toolbar">
  ${retry ? html`<button type="button" id="retry-selected" disabled>Retry selected</button>` : ""}
  <span class="muted">${list instanceof ApiError ? "" : `${list.count} ${list.count === 1 ? "run" : "runs"}`}</span>
  <span class="spacer"></span>
  <a href="${BASE}${ctx.url.search}">Refresh</a>
  <a href="${apiQuery}">As JSON (the API)</a>
</div>
<div class="table-scroll"><table class="deliveries">
<thead><tr>
  ${retry ? html`<th class="nowrap"><input type="checkbox" id="select-all" aria-label="Select all failed runs"${failedHere.length ? "" : html` disabled`}></th>` : ""}
  <th>Run</th><th>Event</th><th>Object</th><th>Webhook</th><th>Event rule</th><th>Status</th><th>Attempts</th>
  <th>Created (UTC)</th><th>Last attempt</th><th>Finished</th><th>Response</th><th>Last error</th>${retry ? html`<th></th>` : ""}
</tr></thead>
<tbody>
${rows.length ? rows.map((d) => row(d, table)) : html`<tr><td colspan="${retry ? 14 : 12}" class="muted">No runs match.</td></tr>`}
</tbody>
</table></div>
${list instanceof ApiError ? "" : pager(filters, list.count)}`;
  return page(ctx, { title: "Webhook deliveries", body, styles: [assetUrl("admin.css")], scripts: [assetUrl("admin.js")] });
}

/** Queue depth, the age of the oldest queued run, and how many runs failed. */
function summary(ctx: RequestContext, queue: ListReply, failed: number): SafeHtml {
  const oldest = queue.results[0];
  const age = oldest ? ageText(ctx.now.getTime() - Date.parse(String(oldest.created))) : "none queued";
  return html`<div class="admin-summary">
  <div class="stat" id="queue-depth"><span class="value">${queue.count}</span><span class="label">Queued (queue depth)</span></div>
  <div class="stat" id="oldest-queued"><span class="value">${age}</span><span class="label">Age of the oldest queued run${oldest ? html` (<a href="${BASE}${oldest.id}/">#${oldest.id}</a>)` : ""}</span></div>
  <div class="stat" id="failed-count"><span class="value"><a href="${BASE}?status=failed">${failed}</a></span><span class="label">Failed</span></div>
</div>`;
}

function filterForm(filters: Filters, webhooks: Delivery[], rules: Delivery[]): SafeHtml {
  const select = (name: string, label: string, current: string, options: { value: string; label: string }[]) => {
    // A chosen value the requester cannot see by name still shows, by id.
    const all = current && !options.some((o) => o.value === current) ? [...options, { value: current, label: `#${current}` }] : options;
    return html`<label>${label}<select name="${name}">
  <option value="">Any</option>
  ${all.map((o) => html`<option value="${o.value}"${o.value === current ? html` selected` : ""}>${o.label}</option>`)}
</select></label>`;
  };
  return html`<form class="admin-filters" method="get" action="${BASE}">
  ${select(
    "status",
    "State",
    filters.status,
    STATES.map((s) => ({ value: s.value, label: s.label })),
  )}
  ${select(
    "webhook_id",
    "Webhook",
    filters.webhook_id,
    webhooks.map((w) => ({ value: String(w.id), label: String(w.display) })),
  )}
  ${select(
    "event_rule_id",
    "Event rule",
    filters.event_rule_id,
    rules.map((r) => ({ value: String(r.id), label: String(r.display) })),
  )}
  ${filters.limit !== PAGE_SIZE ? html`<input type="hidden" name="limit" value="${filters.limit}">` : ""}
  <button type="submit" class="secondary">Filter</button>
  ${filters.status || filters.webhook_id || filters.event_rule_id ? html`<a href="${BASE}">Clear</a>` : ""}
</form>`;
}

/** What every row of the runs table shares: the registry its objects link into, and whether runs can be selected for retry. */
interface RunsTable {
  readonly registry: Registry;
  readonly retry: boolean;
}

function row(d: Delivery, { registry, retry }: RunsTable): SafeHtml {
  const failed = d.status?.value === "failed";
  return html`<tr data-id="${d.id}">
  ${retry ? html`<td>${failed ? html`<input type="checkbox" class="select-run" value="${d.id}" aria-label="Select run ${d.id}">` : ""}</td>` : ""}
  <td class="nowrap"><a href="${BASE}${d.id}/">#${d.id}</a></td>
  <td>${d.event?.label}</td>
  <td>${objectLink(d, registry)}</td>
  <td>${d.webhook ? d.webhook.display : html`<span class="muted">deleted</span>`}</td>
  <td>${d.event_rule ? d.event_rule.display : html`<span class="muted">—</span>`}</td>
  <td>${statusBadge(d)}</td>
  <td>${d.attempts}</td>
  <td class="nowrap">${time(d.created, STACKED)}</td>
  <td class="nowrap">${time(d.started, STACKED)}</td>
  <td class="nowrap">${time(d.finished, STACKED)}</td>
  <td class="nowrap">${d.last_status_code ?? html`<span class="muted">—</span>`}${d.duration_ms !== null && d.duration_ms !== undefined ? html` <span class="muted">${d.duration_ms} ms</span>` : ""}</td>
  <td class="error-cell">${lastError(d)}</td>
  ${retry ? html`<td>${failed ? html`<button type="button" class="small" data-retry="${d.id}">Retry</button>` : ""}</td>` : ""}
</tr>`;
}

const statusBadge = (d: Delivery) =>
  html`<span class="status status-${d.status?.value}" data-status-for="${d.id}">${d.status?.label}</span>`;

/** The last line of the error log, shortened; the whole log is on the run's page. */
function lastError(d: Delivery): string {
  const lines = String(d.error_log ?? "")
    .trim()
    .split("\n")
    .filter(Boolean);
  if (d.status?.value === "succeeded" || !lines.length) return "";
  const line = lines[lines.length - 1].replace(/^\S+ /, "");
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

/** The object of the event, linked to its API page while its type is known. */
function objectLink(d: Delivery, registry: Registry): SafeHtml {
  const model = registry.byObjectType(String(d.object_type));
  const label = html`${d.object_repr || `#${d.object_id}`} <span class="muted object-type">${d.object_type} #${d.object_id}</span>`;
  if (!model || d.event?.value === "deleted") return label;
  return html`<a href="/api/${model.app}/${model.path}/${d.object_id}/">${label}</a>`;
}

/** A timestamp to the second, in UTC as stored (date and time on two lines in the table); the exact value on hover. */
/** How `time` prints: a zone after the time, and date and time on two lines. */
interface TimeForm {
  readonly zone?: string;
  readonly stacked?: boolean;
}
const STACKED: TimeForm = { stacked: true };
const UTC: TimeForm = { zone: " UTC" };

function time(value: unknown, { zone = "", stacked = false }: TimeForm): SafeHtml {
  if (!value) return html`<span class="muted">—</span>`;
  const text = String(value);
  const [date, clock] = text.replace(/(\.\d+)?Z$/, "").split("T");
  return html`<time datetime="${text}" title="${text}">${date}${stacked ? html`<br>` : " "}${clock}${zone}</time>`;
}

/** A duration as people read it: 42 s, 3 min, 2 h 5 min, 3 d 4 h. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

function pager(filters: Filters, count: number): SafeHtml {
  if (count <= filters.limit && filters.offset === 0) return html``;
  const first = count ? filters.offset + 1 : 0;
  const last = Math.min(filters.offset + filters.limit, count);
  const previous = filters.offset > 0 ? Math.max(0, filters.offset - filters.limit) : null;
  const next = filters.offset + filters.limit < count ? filters.offset + filters.limit : null;
  return html`<nav class="pager" aria-label="Pages">
  ${previous !== null ? html`<a href="${BASE}?${query(filters, previous)}" rel="prev">← Previous</a>` : html`<span class="muted">← Previous</span>`}
  <span>${first}–${last} of ${count}</span>
  ${next !== null ? html`<a href="${BASE}?${query(filters, next)}" rel="next">Next →</a>` : html`<span class="muted">Next →</span>`}
</nav>`;
}

/** An API error body as one line of text. */
function problemText(body: unknown): string {
  if (body && typeof body === "object" && "detail" in body) return String((body as { detail: unknown }).detail);
  return Object.entries((body ?? {}) as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${([] as unknown[]).concat(v).join(" ")}`)
    .join("; ");
}

/** A JSON body indented for reading; anything else (a cut-off excerpt, a form body) as it is. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function notFoundPage(ctx: RequestContext, id: string): Response {
  return page(ctx, {
    title: "Not found",
    status: 404,
    styles: [assetUrl("admin.css")],
    body: html`<h1>Not found</h1><p>There is no webhook delivery ${id} you may see. <a href="${BASE}">All deliveries</a></p>`,
  });
}

async function detailPage(ctx: RequestContext, registry: Registry, id: number): Promise<Response> {
  let d: Delivery;
  try {
    d = (await retrieveObject(ctx, webhookDelivery, id, FULL)) as Delivery;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return notFoundPage(ctx, String(id));
    throw error;
  }
  const retry = mayRetry(ctx) && d.status?.value === "failed";
  const headers = Object.entries((d.request_headers ?? {}) as Record<string, unknown>);
  const body = html`<p><a href="${BASE}">← All deliveries</a></p>
<h1>Webhook delivery #${d.id} ${statusBadge(d)}</h1>
<div id="admin-message" class="admin-message" role="status" aria-live="polite"></div>
<div class="admin-toolbar">
  ${retry ? html`<button type="button" data-retry="${d.id}">Retry</button>` : ""}
  <span class="spacer"></span>
  <a href="${API}${d.id}/">As JSON (the API)</a>
</div>
<dl class="fields">
  <dt>Event</dt><dd>${d.event?.label}</dd>
  <dt>Object</dt><dd>${objectLink(d, registry)}</dd>
  <dt>Webhook</dt><dd>${d.webhook ? html`<a href="${BASE}?webhook_id=${d.webhook.id}">${d.webhook.display}</a>` : html`<span class="muted">deleted</span>`}</dd>
  <dt>Event rule</dt><dd>${d.event_rule ? html`<a href="${BASE}?event_rule_id=${d.event_rule.id}">${d.event_rule.display}</a>` : html`<span class="muted">—</span>`}</dd>
  <dt>Triggered by</dt><dd>${d.username || html`<span class="muted">—</span>`} <span class="muted">request ${d.request_id}</span></dd>
  <dt>Attempts</dt><dd>${d.attempts}</dd>
  <dt>Created</dt><dd>${time(d.created, UTC)}</dd>
  <dt>Last attempt</dt><dd>${time(d.started, UTC)}</dd>
  <dt>Finished</dt><dd>${time(d.finished, UTC)}</dd>
  <dt>Next attempt</dt><dd>${time(d.next_attempt, UTC)}</dd>
</dl>
<section class="panel" id="response">
  <h2>Response</h2>
  <p>Status: ${d.last_status_code ?? html`<span class="muted">none</span>`}${d.duration_ms !== null && d.duration_ms !== undefined ? html` · ${d.duration_ms} ms` : ""}</p>
  ${d.response_excerpt ? html`<pre>${d.response_excerpt}</pre>` : html`<p class="muted">No response body.</p>`}
</section>
<section class="panel" id="error-log">
  <h2>Error log</h2>
  ${d.error_log ? html`<pre>${d.error_log}</pre>` : html`<p class="muted">Empty.</p>`}
</section>
<section class="panel" id="request">
  <h2>Request</h2>
  ${
    d.request_method
      ? html`<p><code>${d.request_method} ${d.request_url}</code></p>
  <table class="headers"><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
  ${headers.map(([name, value]) => html`<tr><td>${name}</td><td>${value}</td></tr>`)}
  </tbody></table>
  ${d.request_body ? html`<h3>Body <span class="muted">(the first ${REQUEST_BODY_EXCERPT.toLocaleString("en")} characters)</span></h3><pre class="body">${pretty(String(d.request_body))}</pre>` : html`<p class="muted">No body.</p>`}`
      : html`<p class="muted">No request was rendered${d.attempts ? "" : " yet"}.</p>`
  }
</section>`;
  return page(ctx, { title: `Webhook delivery #${d.id}`, body, styles: [assetUrl("admin.css")], scripts: [assetUrl("admin.js")] });
}

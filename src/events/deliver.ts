import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { Database, Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { RequestContext } from "../http/context.ts";
import { registry } from "../models/registry.ts";
import { selectSql } from "../rest/select.ts";
import { objectUrl, represent } from "../rest/serialize.ts";
import { conditionsMatch } from "./conditions.ts";
import { destinationProblem } from "./destination.ts";
import { bodyEscaping, renderHeaders, renderTemplate } from "./render.ts";
import { signatureHeaders } from "./sign.ts";

/** What the queue does with a delivery's message after an attempt. */
export type Outcome =
  | { readonly kind: "done" }
  /** Failed, and the retry policy allows another attempt after this many seconds. */
  | { readonly kind: "retry"; readonly delaySeconds: number };

export interface DeliveryDependencies {
  readonly db: Database;
  readonly config: Config;
  readonly secrets: Secrets;
  /** The fetch to send with (default: the runtime's). */
  readonly fetch?: typeof fetch;
  /** A fetch that skips TLS verification, where the runtime allows one (Node); else verification stays on. */
  readonly insecureFetch?: typeof fetch;
}

/** The part of a response kept on the delivery. */
const EXCERPT_BYTES = 1024;

/** Seconds before automatic retry `n` (1-based): exponential, capped at an hour, with jitter. */
export function backoffSeconds(config: Config, n: number): number {
  const base = Math.min(3600, config.WEBHOOK_RETRY_BACKOFF * 2 ** (n - 1));
  return Math.max(1, Math.round(base * (0.75 + Math.random() * 0.5)));
}

/** The first bytes of a body, reading no further than the cap, then cancelling the rest. */
async function excerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, EXCERPT_BYTES));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c.subarray(0, bytes.length - at), at);
    at += Math.min(c.length, bytes.length - at);
    if (at >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}

/** A context for rendering an object outside a request: its URLs on the origin the change came through. */
function renderingContext(deps: DeliveryDependencies, origin: string, requestId: string): RequestContext {
  const url = new URL(origin || "http://localhost");
  return {
    request: new Request(url), url, origin: url.origin, requestId, now: new Date(),
    // A token's key never leaves in a webhook, whatever ALLOW_TOKEN_RETRIEVAL says.
    config: { ...deps.config, ALLOW_TOKEN_RETRIEVAL: false },
    db: deps.db, secrets: deps.secrets, clientAddress: null,
    waitUntil: () => {}, enqueue: async () => {},
    user: null, token: null, auth: null, revealedKeys: new Map(),
  };
}

/** `data`: the object's REST representation now, or, once it is gone, what its last snapshot says. */
async function eventData(deps: DeliveryDependencies, d: Row): Promise<Record<string, unknown>> {
  const model = registry.byObjectType(String(d.object_type));
  const ctx = renderingContext(deps, String(d.origin), String(d.request_id));
  if (model && d.event !== "deleted") {
    const [result] = await deps.db.batch(
      [sql`SELECT ${selectSql(model, model.readableFields)} FROM ${sql.table(model.table)} WHERE id = ${d.object_id}`.compile(qb)], "read",
    );
    if (result.rows.length) return (await represent(ctx, model, result.rows, "full"))[0];
  }
  const snapshot = JSON.parse(String(d.postchange_data ?? d.prechange_data ?? "{}"));
  return { id: d.object_id, ...(model ? { url: objectUrl(ctx, model, d.object_id) } : {}), display: d.object_repr, ...snapshot };
}

/**
 * One attempt at one delivery: claim it (only a `queued` run that no other consumer holds and
 * that is due; anything else, such as a redelivered message for a run that already succeeded,
 * sends nothing), check the rule's conditions on the object's data, render, check the
 * destination, sign, send with a timeout and no redirects, and record the result.
 */
export async function deliver(deps: DeliveryDependencies, id: number): Promise<Outcome> {
  const { db, config } = deps;
  const now = new Date();
  const iso = now.toISOString();
  const lease = new Date(now.getTime() + (config.WEBHOOK_TIMEOUT + 30) * 1000).toISOString();
  // A message may arrive a little before the run's due time (queue delays are coarse).
  const due = new Date(now.getTime() + 2000).toISOString();
  const [claimed, joined] = await db.batch([
    sql`UPDATE extras_webhookdelivery SET attempts = attempts + 1, run_attempts = run_attempts + 1, started = ${iso}, lease_until = ${lease},
        last_updated = ${iso}
      WHERE id = ${id} AND status = 'queued' AND (lease_until IS NULL OR lease_until < ${iso}) AND (next_attempt IS NULL OR next_attempt <= ${due})
      RETURNING *`.compile(qb),
    sql`SELECT w.payload_url, w.http_method, w.http_content_type, w.additional_headers, w.body_template, w.secret, w.ssl_verification,
        w.conditions AS webhook_conditions, r.conditions AS rule_conditions, w.id AS webhook_present
      FROM extras_webhookdelivery d LEFT JOIN extras_webhook w ON w.id = d.webhook_id LEFT JOIN extras_eventrule r ON r.id = d.event_rule_id
      WHERE d.id = ${id}`.compile(qb),
  ], "write");
  const d = claimed.rows[0];
  if (!d) return { kind: "done" };
  const w = joined.rows[0];
  if (!w?.webhook_present) return record(deps, d, { error: "the webhook was deleted" }, false);

  let data: Record<string, unknown>;
  try {
    data = await eventData(deps, d);
  } catch (error) {
    return record(deps, d, { error: `could not read the object: ${(error as Error).message}` }, true);
  }
  const conditions = JSON.parse(String((d.event_rule_id ? w.rule_conditions : w.webhook_conditions) ?? "null"));
  if (!conditionsMatch(conditions, data)) {
    // The rule's conditions reject this event: it is no delivery at all.
    await db.batch([sql`DELETE FROM extras_webhookdelivery WHERE id = ${id}`.compile(qb)], "write");
    return { kind: "done" };
  }

  const context = {
    event: d.event,
    timestamp: String(d.created),
    model: String(d.object_type).split(".")[1],
    username: d.username,
    request_id: d.request_id,
    data,
    snapshots: { prechange: JSON.parse(String(d.prechange_data ?? "null")), postchange: JSON.parse(String(d.postchange_data ?? "null")) },
  };
  let url: string, body: string, headers: [string, string][];
  try {
    url = renderTemplate(String(w.payload_url), context, "url");
    const template = String(w.body_template ?? "");
    body = template.trim() ? renderTemplate(template, context, bodyEscaping(String(w.http_content_type))) : JSON.stringify(context);
    headers = renderHeaders(String(w.additional_headers ?? ""), context);
  } catch (error) {
    return record(deps, d, { error: `template error: ${(error as Error).message}` }, false);
  }
  const refused = destinationProblem(config, url);
  if (refused) return record(deps, d, { error: `destination refused: ${refused}` }, false);

  const sent = new Headers({ "Content-Type": String(w.http_content_type), "User-Agent": "inventory-webhooks" });
  for (const [name, value] of headers) sent.set(name, value);
  const signature = await signatureHeaders(String(w.secret ?? ""), `msg_${d.uuid}`, Math.floor(now.getTime() / 1000), body);
  for (const [name, value] of Object.entries(signature)) sent.set(name, value);
  const method = String(w.http_method);
  const send = !w.ssl_verification && deps.insecureFetch ? deps.insecureFetch : (deps.fetch ?? fetch);
  const start = performance.now();
  try {
    const signal = AbortSignal.timeout(config.WEBHOOK_TIMEOUT * 1000);
    const response = await send(url, { method, headers: sent, body: method === "GET" ? undefined : body, redirect: "manual", signal });
    const text = await excerpt(response);
    const ms = Math.round(performance.now() - start);
    const ok = response.status >= 200 && response.status < 300;
    return record(deps, d, { status: response.status, excerpt: text, ms, ...(ok ? {} : { error: `HTTP ${response.status}` }) }, true);
  } catch (error) {
    const ms = Math.round(performance.now() - start);
    const e = error as Error;
    const reason = e.name === "TimeoutError" || e.name === "AbortError" ? `timed out after ${config.WEBHOOK_TIMEOUT} s` : `network error: ${e.message}${e.cause ? ` (${(e.cause as Error).message ?? e.cause})` : ""}`;
    return record(deps, d, { error: reason, ms }, true);
  }
}

interface Attempt {
  readonly status?: number;
  readonly excerpt?: string;
  readonly ms?: number;
  /** Why the attempt failed; absent for a 2XX. */
  readonly error?: string;
}

/** Records an attempt: succeeded; queued again for a retry the policy allows; or failed. */
async function record(deps: DeliveryDependencies, d: Row, a: Attempt, retryable: boolean): Promise<Outcome> {
  const now = new Date();
  const iso = now.toISOString();
  const common = sql`last_status_code = ${a.status ?? null}, response_excerpt = ${a.excerpt ?? ""}, duration_ms = ${a.ms ?? null},
    lease_until = NULL, last_updated = ${iso}`;
  if (!a.error) {
    await deps.db.batch([sql`UPDATE extras_webhookdelivery SET status = 'succeeded', ${common}, finished = ${iso}, next_attempt = NULL WHERE id = ${d.id}`.compile(qb)], "write");
    return { kind: "done" };
  }
  const line = `${iso} attempt ${d.attempts}: ${a.error}${a.excerpt ? `: ${a.excerpt.slice(0, 200).replace(/\s+/g, " ")}` : ""}\n`;
  const runAttempts = Number(d.run_attempts);
  if (retryable && runAttempts <= deps.config.WEBHOOK_MAX_RETRIES) {
    const delay = backoffSeconds(deps.config, runAttempts);
    const next = new Date(now.getTime() + delay * 1000).toISOString();
    await deps.db.batch([sql`UPDATE extras_webhookdelivery SET ${common}, next_attempt = ${next}, error_log = error_log || ${line} WHERE id = ${d.id}`.compile(qb)], "write");
    return { kind: "retry", delaySeconds: delay };
  }
  await deps.db.batch([sql`UPDATE extras_webhookdelivery SET status = 'failed', ${common}, finished = ${iso}, next_attempt = NULL, error_log = error_log || ${line}
    WHERE id = ${d.id}`.compile(qb)], "write");
  return { kind: "done" };
}

/**
 * The sweep, run by the cron trigger on Workers and by a timer in process: finds runs left
 * `queued` past their due time by WEBHOOK_SWEEP_AFTER and not held by a consumer (a lost queue
 * message, a crash mid-delivery), so they are enqueued again; and deletes change records older
 * than CHANGELOG_RETENTION days. One round trip.
 */
export async function sweep(db: Database, config: Config, now = new Date()): Promise<number[]> {
  const cutoff = new Date(now.getTime() - config.WEBHOOK_SWEEP_AFTER * 1000).toISOString();
  const statements = [
    sql`SELECT id FROM extras_webhookdelivery WHERE status = 'queued' AND next_attempt <= ${cutoff}
      AND (lease_until IS NULL OR lease_until < ${now.toISOString()}) ORDER BY id LIMIT 1000`.compile(qb),
  ];
  if (config.CHANGELOG_RETENTION > 0) {
    const oldest = new Date(now.getTime() - config.CHANGELOG_RETENTION * 86_400_000).toISOString();
    statements.push(sql`DELETE FROM core_objectchange WHERE time < ${oldest}`.compile(qb));
  }
  const [due] = await db.batch(statements, "write");
  return due.rows.map((r) => Number(r.id));
}

import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { Database, Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { RequestContext } from "../http/context.ts";
import { registry } from "../models/registry.ts";
import { objectUrl, represent } from "../rest/serialize.ts";
import { conditionsMatch } from "./conditions.ts";
import { destinationProblem } from "./destination.ts";
import { bodyEscaping, renderHeaders, renderTemplate } from "./render.ts";
import { signatureHeaders } from "./sign.ts";
import { batcher } from "./batcher.ts";

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

type Data = Record<string, unknown>;

/**
 * The `data` of claimed runs, as of their commit, never read again: a created or updated object's
 * full representation kept by the outbox, shaped set-wise per model and origin; otherwise (a
 * deleted object) its last snapshot with id, url and display. An id whose data cannot be shaped
 * maps to the error.
 */
async function eventData(deps: DeliveryDependencies, runs: readonly Row[]): Promise<Map<number, Data | Error>> {
  const out = new Map<number, Data | Error>();
  const groups = new Map<string, Row[]>();
  for (const d of runs) {
    const model = registry.byObjectType(String(d.object_type));
    if (model && d.data != null) {
      const key = `${d.object_type} ${d.origin}`;
      groups.set(key, [...(groups.get(key) ?? []), d]);
      continue;
    }
    const ctx = renderingContext(deps, String(d.origin), String(d.request_id));
    const snapshot = JSON.parse(String(d.postchange_data ?? d.prechange_data ?? "{}"));
    out.set(Number(d.id), { id: d.object_id, ...(model ? { url: objectUrl(ctx, model, d.object_id) } : {}), display: d.object_repr, ...snapshot });
  }
  await Promise.all([...groups.values()].map(async (group) => {
    const model = registry.byObjectType(String(group[0].object_type))!;
    try {
      const ctx = renderingContext(deps, String(group[0].origin), String(group[0].request_id));
      const shaped = await represent(ctx, model, group.map((d) => JSON.parse(String(d.data)) as Row), "full");
      group.forEach((d, i) => out.set(Number(d.id), shaped[i]));
    } catch (error) {
      group.forEach((d) => out.set(Number(d.id), error as Error));
    }
  }));
  return out;
}

/** A run this consumer holds: the delivery row, its webhook (null once deleted) and its event's data. */
interface Claimed {
  readonly d: Row;
  readonly w: Row | null;
  readonly data: Data | Error;
}

/**
 * Claims runs, one statement for the whole group: only a `queued` (or `pending`) run that no other
 * consumer holds and that is due; anything else, such as a redelivered message for a run that
 * already succeeded, is not claimed (null) and sends nothing. Reads their webhooks in the same
 * round trip.
 */
async function claimRuns(deps: DeliveryDependencies, ids: readonly number[]): Promise<(Claimed | null)[]> {
  const now = new Date();
  const iso = now.toISOString();
  const lease = new Date(now.getTime() + (deps.config.WEBHOOK_TIMEOUT + 30) * 1000).toISOString();
  // A message may arrive a little before the run's due time (queue delays are coarse).
  const due = new Date(now.getTime() + 2000).toISOString();
  const list = JSON.stringify([...new Set(ids)]);
  const [claimed, hooks] = await deps.db.batch([
    sql`UPDATE extras_webhookdelivery SET attempts = attempts + 1, run_attempts = run_attempts + 1, started = ${iso}, lease_until = ${lease},
        last_updated = ${iso}
      WHERE id IN (SELECT value FROM json_each(${list})) AND status IN ('queued', 'pending')
        AND (lease_until IS NULL OR lease_until < ${iso}) AND (next_attempt IS NULL OR next_attempt <= ${due})
      RETURNING *`.compile(qb),
    sql`SELECT id, payload_url, http_method, http_content_type, additional_headers, body_template, secret, ssl_verification FROM extras_webhook
      WHERE id IN (SELECT webhook_id FROM extras_webhookdelivery WHERE id IN (SELECT value FROM json_each(${list})))`.compile(qb),
  ], "write");
  const webhooks = new Map(hooks.rows.map((w) => [Number(w.id), w]));
  const runs = new Map(claimed.rows.map((d) => [Number(d.id), d]));
  const data = await eventData(deps, claimed.rows);
  return ids.map((id) => {
    const d = runs.get(id);
    // The same id twice in one group (a redelivered message): the second one sends nothing.
    if (!d) return null;
    runs.delete(id);
    return { d, w: webhooks.get(Number(d.webhook_id)) ?? null, data: data.get(id)! };
  });
}

/** Queues the `pending` runs whose conditions held, and drops the others: one round trip for the group. */
async function settleRuns(deps: DeliveryDependencies, verdicts: readonly { id: number; keep: boolean }[]): Promise<void[]> {
  const ids = (keep: boolean) => JSON.stringify(verdicts.filter((v) => v.keep === keep).map((v) => v.id));
  await deps.db.batch([
    sql`DELETE FROM extras_webhookdelivery WHERE id IN (SELECT value FROM json_each(${ids(false)})) AND status = 'pending'`.compile(qb),
    sql`UPDATE extras_webhookdelivery SET status = 'queued' WHERE id IN (SELECT value FROM json_each(${ids(true)})) AND status = 'pending'`.compile(qb),
  ], "write");
  return verdicts.map(() => undefined);
}

interface Attempt {
  readonly status?: number;
  readonly excerpt?: string;
  readonly ms?: number;
  /** Why the attempt failed; absent for a 2XX. */
  readonly error?: string;
}

/** What an attempt leaves on its run, as the recording statement reads it. */
interface Result {
  readonly id: number;
  /** The claim's lease: a run another consumer has claimed since is not overwritten. */
  readonly lease: string;
  readonly status: "succeeded" | "failed" | "queued";
  readonly code: number | null;
  readonly excerpt: string;
  readonly ms: number | null;
  readonly at: string;
  readonly finished: string | null;
  readonly next: string | null;
  readonly line: string;
}

/** The result of an attempt: succeeded; queued again for a retry the policy allows; or failed. */
function resultOf(deps: DeliveryDependencies, d: Row, a: Attempt, retryable: boolean): { result: Result; outcome: Outcome } {
  const now = new Date();
  const at = now.toISOString();
  const base = { id: Number(d.id), lease: String(d.lease_until), code: a.status ?? null, excerpt: a.excerpt ?? "", ms: a.ms ?? null, at };
  if (!a.error) return { result: { ...base, status: "succeeded", finished: at, next: null, line: "" }, outcome: { kind: "done" } };
  const line = `${at} attempt ${d.attempts}: ${a.error}${a.excerpt ? `: ${a.excerpt.slice(0, 200).replace(/\s+/g, " ")}` : ""}\n`;
  const runAttempts = Number(d.run_attempts);
  if (retryable && runAttempts <= deps.config.WEBHOOK_MAX_RETRIES) {
    const delay = backoffSeconds(deps.config, runAttempts);
    const next = new Date(now.getTime() + delay * 1000).toISOString();
    return { result: { ...base, status: "queued", finished: null, next, line }, outcome: { kind: "retry", delaySeconds: delay } };
  }
  return { result: { ...base, status: "failed", finished: at, next: null, line }, outcome: { kind: "done" } };
}

/** Records the results of a group of attempts: one statement. */
async function recordResults(deps: DeliveryDependencies, results: readonly Result[]): Promise<void[]> {
  const field = (name: keyof Result) => sql`json_extract(value, ${`$.${name}`}) AS ${sql.ref(`r_${name}`)}`;
  const names: (keyof Result)[] = ["id", "lease", "status", "code", "excerpt", "ms", "at", "finished", "next", "line"];
  await deps.db.batch([
    sql`UPDATE extras_webhookdelivery SET status = r.r_status, last_status_code = r.r_code, response_excerpt = r.r_excerpt, duration_ms = r.r_ms,
        lease_until = NULL, last_updated = r.r_at, finished = r.r_finished, next_attempt = r.r_next, error_log = error_log || r.r_line
      FROM (SELECT ${sql.join(names.map(field))} FROM json_each(${JSON.stringify(results)})) AS r
      WHERE extras_webhookdelivery.id = r.r_id AND extras_webhookdelivery.lease_until = r.r_lease`.compile(qb),
  ], "write");
  return results.map(() => undefined);
}

/** Sends webhook deliveries: each call is one attempt at one run; calls close in time share their statements. */
export interface Deliverer {
  deliver(id: number): Promise<Outcome>;
}

/**
 * The consumer's work, on every runtime. An attempt claims its run, checks a `pending` run's
 * conditions on the frozen data (then queues or drops it), renders, checks the destination,
 * signs, sends with a timeout and no redirects, and records the result. Claims, verdicts and
 * results of attempts made about the same time are each written by one statement for the whole
 * group (`batcher`), so a burst costs a few statements, not three per delivery; each run keeps
 * its own lease, idempotency (only a queued run is sent) and outcome.
 */
export function createDeliverer(deps: DeliveryDependencies): Deliverer {
  const claim = batcher((ids: number[]) => claimRuns(deps, ids));
  const settle = batcher((verdicts: { id: number; keep: boolean }[]) => settleRuns(deps, verdicts));
  const store = batcher((results: Result[]) => recordResults(deps, results));
  const record = async (d: Row, a: Attempt, retryable: boolean): Promise<Outcome> => {
    const { result, outcome } = resultOf(deps, d, a, retryable);
    await store(result);
    return outcome;
  };

  return {
    async deliver(id) {
      const claimed = await claim(id);
      if (!claimed) return { kind: "done" };
      const { d, w, data } = claimed;
      if (data instanceof Error) return record(d, { error: `could not shape the event's data: ${data.message}` }, false);
      if (d.status === "pending") {
        // The rule's conditions, as of the commit, on the data as of the commit.
        let keep: boolean;
        try {
          keep = conditionsMatch(JSON.parse(String(d.conditions ?? "null")), data);
        } catch (error) {
          return record(d, { error: `could not evaluate the conditions: ${(error as Error).message}` }, false);
        }
        await settle({ id: Number(d.id), keep });
        // Rejected: it is no delivery at all.
        if (!keep) return { kind: "done" };
      }
      if (!w) return record(d, { error: "the webhook was deleted" }, false);
      return send(deps, d, w, data, record);
    },
  };
}

/** One attempt at one delivery, from a fresh deliverer (tests, one-off calls). */
export function deliver(deps: DeliveryDependencies, id: number): Promise<Outcome> {
  return createDeliverer(deps).deliver(id);
}

/** Renders, checks the destination, signs and sends one claimed run, then records the attempt. */
async function send(
  deps: DeliveryDependencies, d: Row, w: Row, data: Data, record: (d: Row, a: Attempt, retryable: boolean) => Promise<Outcome>,
): Promise<Outcome> {
  const { config } = deps;
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
    return record(d, { error: `template error: ${(error as Error).message}` }, false);
  }
  const refused = destinationProblem(config, url);
  if (refused) return record(d, { error: `destination refused: ${refused}` }, false);

  const sent = new Headers({ "Content-Type": String(w.http_content_type), "User-Agent": "inventory-webhooks" });
  for (const [name, value] of headers) sent.set(name, value);
  const signature = await signatureHeaders(String(w.secret ?? ""), `msg_${d.uuid}`, Math.floor(Date.now() / 1000), body);
  for (const [name, value] of Object.entries(signature)) sent.set(name, value);
  const method = String(w.http_method);
  const fetcher = !w.ssl_verification && deps.insecureFetch ? deps.insecureFetch : (deps.fetch ?? fetch);
  const start = performance.now();
  try {
    const signal = AbortSignal.timeout(config.WEBHOOK_TIMEOUT * 1000);
    const response = await fetcher(url, { method, headers: sent, body: method === "GET" ? undefined : body, redirect: "manual", signal });
    const text = await excerpt(response);
    const ms = Math.round(performance.now() - start);
    const ok = response.status >= 200 && response.status < 300;
    return record(d, { status: response.status, excerpt: text, ms, ...(ok ? {} : { error: `HTTP ${response.status}` }) }, true);
  } catch (error) {
    const ms = Math.round(performance.now() - start);
    const e = error as Error;
    const reason = e.name === "TimeoutError" || e.name === "AbortError" ? `timed out after ${config.WEBHOOK_TIMEOUT} s` : `network error: ${e.message}${e.cause ? ` (${(e.cause as Error).message ?? e.cause})` : ""}`;
    return record(d, { error: reason, ms }, true);
  }
}

/**
 * The sweep, run by the cron trigger on Workers and by a timer in process: finds runs left
 * `queued` (or `pending`) past their due time by WEBHOOK_SWEEP_AFTER and not held by a consumer (a lost queue
 * message, a crash mid-delivery), so they are enqueued again; and deletes change records older
 * than CHANGELOG_RETENTION days. One round trip.
 */
export async function sweep(db: Database, config: Config, now = new Date()): Promise<number[]> {
  const cutoff = new Date(now.getTime() - config.WEBHOOK_SWEEP_AFTER * 1000).toISOString();
  const statements = [
    sql`SELECT id FROM extras_webhookdelivery WHERE status IN ('queued', 'pending') AND next_attempt <= ${cutoff}
      AND (lease_until IS NULL OR lease_until < ${now.toISOString()}) ORDER BY id LIMIT 1000`.compile(qb),
  ];
  if (config.CHANGELOG_RETENTION > 0) {
    const oldest = new Date(now.getTime() - config.CHANGELOG_RETENTION * 86_400_000).toISOString();
    statements.push(sql`DELETE FROM core_objectchange WHERE time < ${oldest}`.compile(qb));
  }
  const [due] = await db.batch(statements, "write");
  return due.rows.map((r) => Number(r.id));
}

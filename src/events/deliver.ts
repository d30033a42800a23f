import type { DeliveryDependencies, Outcome } from "./delivery-types.ts";
import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { Database, Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { conditionsMatch } from "../apps/extras/conditions.ts";
import type { Data } from "./event-data.ts";
import {
  claimHolders,
  claimRuns,
  recordResults,
  releaseClaims,
  settleRuns,
  sweepableRunsStatement,
  type Attempt,
  type Result,
} from "./runs.ts";
import { destinationProblem } from "./destination.ts";
import { renderRequest, type Rendered, type RenderJob } from "../apps/extras/render.ts";
import { signatureHeaders } from "./sign.ts";
import { batcher } from "../lib/batcher.ts";
import { sentRequest } from "./sent-request.ts";

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

/** The result of an attempt: succeeded; queued again for a retry the policy allows; or failed. */
function resultOf(deps: DeliveryDependencies, d: Row, a: Attempt): { result: Result; outcome: Outcome } {
  const now = new Date();
  const at = now.toISOString();
  const base = {
    id: Number(d.id),
    lease: String(d.lease_until),
    code: a.status ?? null,
    excerpt: a.excerpt ?? "",
    ms: a.ms ?? null,
    at,
    request: a.request ?? null,
  };
  if (!a.error) return { result: { ...base, status: "succeeded", finished: at, next: null, line: "" }, outcome: { kind: "done" } };
  const line = `${at} attempt ${d.attempts}: ${a.error}${a.excerpt ? `: ${a.excerpt.slice(0, 200).replace(/\s+/g, " ")}` : ""}\n`;
  const runAttempts = Number(d.run_attempts);
  if (a.retryable && runAttempts <= deps.config.WEBHOOK_MAX_RETRIES) {
    const delay = backoffSeconds(deps.config, runAttempts);
    const next = new Date(now.getTime() + delay * 1000).toISOString();
    return { result: { ...base, status: "queued", finished: null, next, line }, outcome: { kind: "retry", delaySeconds: delay } };
  }
  return { result: { ...base, status: "failed", finished: at, next: null, line }, outcome: { kind: "done" } };
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
  const record = async (d: Row, a: Attempt): Promise<Outcome> => {
    const { result, outcome } = resultOf(deps, d, a);
    return withNext(outcome, await store(result));
  };

  return {
    async deliver(id) {
      const claimed = await claim(id);
      if (!claimed) return { kind: "done" };
      const { d, w, data } = claimed;
      if (data instanceof Error) return record(d, { error: `could not shape the event's data: ${data.message}` });
      if (d.status === "pending") {
        // The rule's conditions, as of the commit, on the data as of the commit.
        let keep: boolean;
        try {
          keep = conditionsMatch(JSON.parse(String(d.conditions ?? "null")), data);
        } catch (error) {
          return record(d, { error: `could not evaluate the conditions: ${(error as Error).message}` });
        }
        const next = await settle({ id: Number(d.id), keep });
        // Rejected: it is no delivery at all.
        if (!keep) return withNext({ kind: "done" }, next);
      }
      if (!w) return record(d, { error: "the webhook was deleted" });
      return send(deps, { run: d, webhook: w, data }, record);
    },
  };
}

/** The outcome, naming the run that waited for this one once it settled. */
const withNext = (outcome: Outcome, next: number | null): Outcome =>
  outcome.kind === "done" && next !== null ? { ...outcome, next } : outcome;

const renderInline = async (job: RenderJob): Promise<Rendered> => renderRequest(job);

/** One attempt at one delivery, from a fresh deliverer (tests, one-off calls). */
export function deliver(deps: DeliveryDependencies, id: number): Promise<Outcome> {
  return createDeliverer(deps).deliver(id);
}

/** Renders, checks the destination, signs and sends one claimed run, then records the attempt. */
async function send(
  deps: DeliveryDependencies,
  { run: d, webhook: w, data }: { run: Row; webhook: Row; data: Data },
  record: (d: Row, a: Attempt) => Promise<Outcome>,
): Promise<Outcome> {
  const { config } = deps;
  const context = {
    event: d.event,
    timestamp: pythonIsoTime(String(d.created)),
    model: String(d.object_type).split(".")[1],
    username: d.username,
    request_id: d.request_id,
    data,
    snapshots: { prechange: JSON.parse(String(d.prechange_data ?? "null")), postchange: JSON.parse(String(d.postchange_data ?? "null")) },
  };
  const job: RenderJob = {
    payloadUrl: String(w.payload_url),
    bodyTemplate: String(w.body_template ?? ""),
    additionalHeaders: String(w.additional_headers ?? ""),
    contentType: String(w.http_content_type),
    context,
    maxSize: config.WEBHOOK_RENDER_MAX_SIZE,
  };
  let url: string, body: string, headers: [string, string][];
  try {
    ({ url, body, headers } = await (deps.render ?? renderInline)(job));
  } catch (error) {
    return record(d, { error: `template error: ${(error as Error).message}` });
  }
  const sent = new Headers({ "Content-Type": String(w.http_content_type), "User-Agent": "inventory-webhooks" });
  for (const [name, value] of headers) sent.set(name, value);
  const signature = await signatureHeaders(String(w.secret ?? ""), `msg_${d.uuid}`, Math.floor(Date.now() / 1000), body);
  for (const [name, value] of Object.entries(signature)) sent.set(name, value);
  const method = String(w.http_method);
  // Kept on the run whether or not it is sent, so a refused destination shows what was refused.
  const request = sentRequest(method, url, sent, body);
  const refused = destinationProblem(config, url);
  if (refused) return record(d, { error: `destination refused: ${refused}`, request });
  const fetcher = !w.ssl_verification && deps.insecureFetch ? deps.insecureFetch : (deps.fetch ?? fetch);
  const start = performance.now();
  try {
    const signal = AbortSignal.timeout(config.WEBHOOK_TIMEOUT * 1000);
    const response = await fetcher(url, { method, headers: sent, body: method === "GET" ? undefined : body, redirect: "manual", signal });
    const text = await excerpt(response);
    const ms = Math.round(performance.now() - start);
    const ok = response.status >= 200 && response.status < 300;
    return record(d, {
      status: response.status,
      excerpt: text,
      ms,
      request,
      retryable: true,
      ...(ok ? {} : { error: `HTTP ${response.status}` }),
    });
  } catch (error) {
    const ms = Math.round(performance.now() - start);
    const e = error as Error;
    const reason =
      e.name === "TimeoutError" || e.name === "AbortError"
        ? `timed out after ${config.WEBHOOK_TIMEOUT} s`
        : `network error: ${e.message}${e.cause ? ` (${(e.cause as Error).message ?? e.cause})` : ""}`;
    // The runtime's message may quote the URL, credentials and all: the log keeps the masked one.
    return record(d, { error: reason.split(url).join(request.url), ms, request, retryable: true });
  }
}

/**
 * The sweep, run by the cron trigger on Workers and by a timer in process: finds runs left
 * `queued` (or `pending`) past their due time by `after` seconds (WEBHOOK_SWEEP_AFTER), not
 * held by a consumer (a lost queue message, a crash mid-delivery) and not waiting for an earlier
 * run of their webhook and object, at most `limit` of them, so
 * they are enqueued again; and deletes change records older than CHANGELOG_RETENTION days. One
 * round trip.
 */
export async function sweep(
  db: Database,
  config: Config,
  now = new Date(),
  { after = config.WEBHOOK_SWEEP_AFTER, limit = 1000 } = {},
): Promise<number[]> {
  const cutoff = new Date(now.getTime() - after * 1000).toISOString();
  const statements = [sweepableRunsStatement(cutoff, now.toISOString(), limit)];
  if (config.CHANGELOG_RETENTION > 0) {
    const oldest = new Date(now.getTime() - config.CHANGELOG_RETENTION * 86_400_000).toISOString();
    statements.push(sql`DELETE FROM core_objectchange WHERE time < ${oldest}`.compile(qb));
  }
  const [due] = await db.batch(statements, "write");
  return due.rows.map((r) => Number(r.id));
}

/**
 * What a starting in-process consumer sends first: it ends the claims of claimers `isDead` says
 * are gone (its own previous run, killed mid-delivery), then takes every run that is due and not
 * held, however recently queued: whatever a dead process had waiting is nobody's now, and should
 * a live process on the same database have it waiting too, only one of them claims it.
 */
export async function recover(db: Database, config: Config, isDead: (claimer: string) => boolean, now = new Date()): Promise<number[]> {
  const dead = (await claimHolders(db, now)).filter(isDead);
  await releaseClaims(db, dead, now);
  // All of them: the in-process queue holds ids, not rows, so even a large backlog is small.
  return sweep(db, config, now, { after: 0, limit: 1_000_000 });
}

/**
 * An ISO 8601 time as Python's `datetime.isoformat()` writes it, the form of NetBox's webhook
 * `timestamp`: microseconds and `+00:00` (`2026-11-24T09:34:33.072000+00:00`), which receivers on
 * Python 3.10 parse with `datetime.fromisoformat` (it refuses a `Z`).
 */
export function pythonIsoTime(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(iso);
  return m ? `${m[1]}.${(m[2] ?? "").padEnd(6, "0")}+00:00` : iso;
}

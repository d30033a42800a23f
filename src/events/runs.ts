import type { DeliveryDependencies } from "./delivery-types.ts";
import { sql, type RawBuilder } from "kysely";
import type { Database, Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { eventData, type Data } from "./event-data.ts";
import type { SentRequest } from "./sent-request.ts";

/*
 * The statements of the consumer, each for a whole group of runs (see `createDeliverer`): claim,
 * settle the conditions of pending runs, record results.
 */

/** A run this consumer holds: the delivery row, its webhook (null once deleted) and its event's data. */
export interface Claimed {
  readonly d: Row;
  readonly w: Row | null;
  readonly data: Data | Error;
}

/** Runs not yet settled: waiting, in flight, or between automatic retries. */
const UNSETTLED = sql`('queued', 'pending')`;

/**
 * Per-object order: whether an earlier run of `run`'s webhook and object is unsettled. Such a run
 * waits; the earlier one names it as `next` when it settles (`nextRun`). Runs of a deleted webhook
 * (webhook_id NULL) have nobody to keep order for.
 */
const waitsForEarlier = (
  run: string,
) => sql`EXISTS (SELECT 1 FROM extras_webhookdelivery e WHERE e.webhook_id = ${sql.ref(`${run}.webhook_id`)}
  AND e.object_type = ${sql.ref(`${run}.object_type`)} AND e.object_id = ${sql.ref(`${run}.object_id`)} AND e.status IN ${UNSETTLED}
  AND e.id < ${sql.ref(`${run}.id`)})`;

/** The run of the same webhook and object that waits for `run` to settle: the earliest unsettled one after it. */
const nextRun = (run: string) => sql`(SELECT min(e.id) FROM extras_webhookdelivery e WHERE e.webhook_id = ${sql.ref(`${run}.webhook_id`)}
  AND e.object_type = ${sql.ref(`${run}.object_type`)} AND e.object_id = ${sql.ref(`${run}.object_id`)} AND e.status IN ${UNSETTLED}
  AND e.id > ${sql.ref(`${run}.id`)})`;

/**
 * Claims runs, one statement for the whole group: only a `queued` (or `pending`) run that no other
 * consumer holds, that is due, and that no earlier run of its webhook and object is still waiting
 * for or sending (the events of one object reach a webhook in commit order; the earlier run names
 * this one when it settles); anything else, such as a redelivered message for a run that already
 * succeeded, is not claimed (null) and sends nothing. Reads their webhooks in the same round trip. The claim names its claimer (`deps.claimer`), so a restart can tell its dead
 * predecessor's claims from a live process's (`releaseClaims`).
 */
export async function claimRuns(deps: DeliveryDependencies, ids: readonly number[]): Promise<(Claimed | null)[]> {
  const now = new Date();
  const iso = now.toISOString();
  const lease = new Date(now.getTime() + (deps.config.WEBHOOK_TIMEOUT + 30) * 1000).toISOString();
  // A message may arrive a little before the run's due time (queue delays are coarse).
  const due = new Date(now.getTime() + 2000).toISOString();
  const list = JSON.stringify([...new Set(ids)]);
  const [claimed, hooks] = await deps.db.batch(
    [
      sql`UPDATE extras_webhookdelivery SET attempts = attempts + 1, run_attempts = run_attempts + 1, started = ${iso}, lease_until = ${lease},
        last_updated = ${iso}, claimed_by = ${deps.claimer ?? null}
      WHERE id IN (SELECT value FROM json_each(${list})) AND status IN ('queued', 'pending')
        AND (lease_until IS NULL OR lease_until < ${iso}) AND (next_attempt IS NULL OR next_attempt <= ${due})
        AND NOT ${waitsForEarlier("extras_webhookdelivery")}
      RETURNING *`.compile(qb),
      sql`SELECT id, payload_url, http_method, http_content_type, additional_headers, body_template, secret, ssl_verification FROM extras_webhook
      WHERE id IN (SELECT webhook_id FROM extras_webhookdelivery WHERE id IN (SELECT value FROM json_each(${list})))`.compile(qb),
    ],
    "write",
  );
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

/**
 * Queues the `pending` runs whose conditions held, and drops the others: one round trip for the
 * group. For each dropped run, the run that waited for it (null if none).
 */
export async function settleRuns(
  deps: DeliveryDependencies,
  verdicts: readonly { id: number; keep: boolean }[],
): Promise<(number | null)[]> {
  const idsOf = (list: readonly { id: number }[]) => JSON.stringify(list.map((v) => v.id));
  const [kept, gone] = [idsOf(verdicts.filter((v) => v.keep)), idsOf(verdicts.filter((v) => !v.keep))];
  const [dropped] = await deps.db.batch(
    [
      sql`DELETE FROM extras_webhookdelivery WHERE id IN (SELECT value FROM json_each(${gone})) AND status = 'pending'
      RETURNING id, ${nextRun("extras_webhookdelivery")} AS next`.compile(qb),
      sql`UPDATE extras_webhookdelivery SET status = 'queued' WHERE id IN (SELECT value FROM json_each(${kept})) AND status = 'pending'`.compile(
        qb,
      ),
    ],
    "write",
  );
  return nextOf(dropped.rows, verdicts);
}

/** Per item, the `next` a settling statement returned for its run, in the items' order. */
function nextOf(rows: readonly Row[], items: readonly { id: number }[]): (number | null)[] {
  const next = new Map(rows.map((r) => [Number(r.id), r.next == null ? null : Number(r.next)]));
  return items.map((item) => next.get(item.id) ?? null);
}

export interface Attempt {
  readonly status?: number;
  readonly excerpt?: string;
  readonly ms?: number;
  /** Why the attempt failed; absent for a 2XX. */
  readonly error?: string;
  /** The request as rendered (masked), when the attempt got that far. */
  readonly request?: SentRequest;
  /** Whether a failure may be retried by the policy: one the receiver or the network caused. */
  readonly retryable?: boolean;
}

/** What an attempt leaves on its run, as the recording statement reads it. */
export interface Result {
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
  readonly request: SentRequest | null;
}

/**
 * Records the results of a group of attempts: one statement. For each run it settled (succeeded,
 * or failed for good), the run that waited for it (null if none, or the run stays queued).
 */
export async function recordResults(deps: DeliveryDependencies, results: readonly Result[]): Promise<(number | null)[]> {
  const field = (name: keyof Result) => sql`json_extract(value, ${`$.${name}`}) AS ${sql.ref(`r_${name}`)}`;
  const names: (keyof Result)[] = ["id", "lease", "status", "code", "excerpt", "ms", "at", "finished", "next", "line", "request"];
  // An attempt that rendered no request (a template error, a deleted webhook) leaves none.
  const request = (part: keyof SentRequest, empty: RawBuilder<unknown>) =>
    sql`coalesce(json_extract(r.r_request, ${`$.${part}`}), ${empty})`;
  const [recorded] = await deps.db.batch(
    [
      sql`UPDATE extras_webhookdelivery SET status = r.r_status, last_status_code = r.r_code, response_excerpt = r.r_excerpt, duration_ms = r.r_ms,
        lease_until = NULL, last_updated = r.r_at, finished = r.r_finished, next_attempt = r.r_next, error_log = error_log || r.r_line,
        request_method = ${request("method", sql`''`)}, request_url = ${request("url", sql`''`)},
        request_headers = json_extract(r.r_request, '$.headers'), request_body = ${request("body", sql`''`)}
      FROM (SELECT ${sql.join(names.map(field))} FROM json_each(${JSON.stringify(results)})) AS r
      WHERE extras_webhookdelivery.id = r.r_id AND extras_webhookdelivery.lease_until = r.r_lease
      RETURNING id, CASE WHEN status NOT IN ${UNSETTLED} THEN ${nextRun("extras_webhookdelivery")} END AS next`.compile(qb),
    ],
    "write",
  );
  return nextOf(recorded.rows, results);
}

/**
 * Marks failed the runs the queue gave up on (Workers' dead-letter queue), one statement; returns
 * the runs that waited for them, to be enqueued.
 */
export async function deadLetterRuns(db: Database, ids: readonly number[], now: Date): Promise<number[]> {
  const iso = now.toISOString();
  const [failed] = await db.batch(
    [
      sql`UPDATE extras_webhookdelivery SET status = 'failed', finished = ${iso}, lease_until = NULL,
        error_log = error_log || ${iso} || ' dead-lettered: the queue gave up on this run' || char(10)
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status IN ${UNSETTLED}
      RETURNING ${nextRun("extras_webhookdelivery")} AS next`.compile(qb),
    ],
    "write",
  );
  return failed.rows.filter((r) => r.next != null).map((r) => Number(r.next));
}

/**
 * The runs the sweep enqueues again: queued (or pending) since before `cutoff`, not held by a
 * consumer, and not waiting for an earlier run of their webhook and object (that one names them
 * when it settles; were that lost, the sweep finds them once it has settled).
 */
export function sweepableRunsStatement(cutoff: string, now: string, limit: number) {
  return sql`SELECT id FROM extras_webhookdelivery d WHERE status IN ${UNSETTLED} AND next_attempt <= ${cutoff}
    AND (lease_until IS NULL OR lease_until < ${now}) AND NOT ${waitsForEarlier("d")} ORDER BY id LIMIT ${limit}`.compile(qb);
}

/** The claimers holding runs now (their lease not yet out): a starting consumer tells the dead from the live. */
export async function claimHolders(db: Database, now: Date): Promise<string[]> {
  const [rows] = await db.batch(
    [
      sql`SELECT DISTINCT claimed_by FROM extras_webhookdelivery WHERE status IN ('queued', 'pending') AND claimed_by IS NOT NULL
      AND lease_until >= ${now.toISOString()}`.compile(qb),
    ],
    "read",
  );
  return rows.rows.map((r) => String(r.claimed_by));
}

/**
 * Ends the claims of dead claimers: their runs are free to claim again at once (the lease is what
 * kept them), and each run's log says its attempt was interrupted. A run may have reached its
 * receiver before the crash: it goes again with the same `webhook-id`, for the receiver to
 * de-duplicate (at least once).
 */
export async function releaseClaims(db: Database, claimers: readonly string[], now: Date): Promise<void> {
  if (!claimers.length) return;
  const iso = now.toISOString();
  await db.batch(
    [
      sql`UPDATE extras_webhookdelivery SET lease_until = NULL, last_updated = ${iso},
        error_log = error_log || ${iso} || ' attempt ' || attempts || ': interrupted (the process sending it stopped); sending again' || char(10)
      WHERE claimed_by IN (SELECT value FROM json_each(${JSON.stringify(claimers)})) AND status IN ('queued', 'pending')
        AND lease_until IS NOT NULL`.compile(qb),
    ],
    "write",
  );
}

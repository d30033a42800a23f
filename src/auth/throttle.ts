import { sql } from "kysely";
import type { Statement, StatementResult } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";

/** The window failed attempts are counted in. */
const WINDOW_MS = 60_000;

/**
 * Failed credential checks are counted per username and per client address in the database, not
 * in memory, so every Workers isolate and every process sees the same counts; a guesser cannot
 * spread attempts over isolates, usernames or addresses to dodge the limit.
 */
const keysOf = (ctx: RequestContext, username: string): string[] =>
  [`user:${username.toLowerCase()}`, ...(ctx.clientAddress ? [`addr:${ctx.clientAddress}`] : [])];

/** The read that goes into the credential check's own batch: failures in the current window. */
export function throttleProbe(ctx: RequestContext, username: string): Statement {
  const since = ctx.now.getTime() - WINDOW_MS;
  return sql`SELECT max(failures) AS failures, min(window_start) AS window_start FROM auth_throttle
    WHERE key IN (${sql.join(keysOf(ctx, username))}) AND window_start > ${since}
      AND failures >= ${ctx.config.LOGIN_FAILURE_LIMIT}`.compile(qb);
}

/** Refuses with 429 and Retry-After while the username or the address is over the limit. */
export function refuseIfThrottled(ctx: RequestContext, result: StatementResult): void {
  const row = result.rows[0];
  if (!row || row.failures === null || row.failures === undefined) return;
  const retry = Math.max(1, Math.ceil((Number(row.window_start) + WINDOW_MS - ctx.now.getTime()) / 1000));
  throw ApiError.detail("throttled", `Too many failed attempts. Expected available in ${retry} seconds.`, { "Retry-After": String(retry) });
}

/** Counts one failed attempt against the username and the address (a new window once the last one ended). */
export async function recordFailure(ctx: RequestContext, username: string): Promise<void> {
  const now = ctx.now.getTime();
  await ctx.db.batch([
    // Windows that have ended count for nothing: they go as new failures come, so the table stays small.
    sql`DELETE FROM auth_throttle WHERE window_start <= ${now - WINDOW_MS}`.compile(qb),
    ...keysOf(ctx, username).map((key) =>
    sql`INSERT INTO auth_throttle (key, window_start, failures) VALUES (${key}, ${now}, 1)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN window_start > ${now - WINDOW_MS} THEN failures + 1 ELSE 1 END,
        window_start = CASE WHEN window_start > ${now - WINDOW_MS} THEN window_start ELSE ${now} END`.compile(qb)),
  ], "write");
}

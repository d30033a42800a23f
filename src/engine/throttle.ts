import type { Actor } from "../schema/actor.ts";
import ipaddr from "ipaddr.js";
import { sql } from "kysely";
import type { Statement, StatementResult } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { ApiError } from "../schema/errors.ts";

/** The window failed attempts are counted in. */
const WINDOW_MS = 60_000;

/**
 * How many times LOGIN_FAILURE_LIMIT one address may fail in a window, whatever the usernames:
 * enough for a shared NAT's typos, few enough to stop one address spraying guesses over accounts.
 */
export const ADDRESS_CAP_FACTOR = 5;

/**
 * Where an attempt comes from, as counted: an IPv6 client by its /64 (one subscriber or host
 * holds a whole /64, so counting single addresses would give it 2^64 fresh counters), an IPv4
 * one (mapped or not) by its address. An unknown address is one shared "unknown" source.
 */
function sourceOf(address: string | null): string {
  if (!address || !ipaddr.isValid(address)) return "unknown";
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * Failed credential checks are counted per (username, source) together, and per source alone
 * with a higher cap, in the database, not in memory, so every Workers isolate and every process
 * sees the same counts. Counting per username alone would let anyone lock the administrator out
 * from everywhere with ten wrong passwords; per pair, a guesser locks only itself out of that
 * account, and the source cap stops it spraying guesses over many accounts.
 */
function keysOf(ctx: Actor, username: string): { pair: string; source: string } {
  const source = sourceOf(ctx.clientAddress);
  return { pair: `pair:${source} ${username.toLowerCase()}`, source: `addr:${source}` };
}

/** The read that goes into the credential check's own batch: the counts over their limits in the current window. */
export function throttleProbe(ctx: Actor, username: string): Statement {
  const since = ctx.now.getTime() - WINDOW_MS;
  const limit = ctx.config.LOGIN_FAILURE_LIMIT;
  const { pair, source } = keysOf(ctx, username);
  return sql`SELECT max(window_start) AS window_start FROM auth_throttle
    WHERE window_start > ${since}
      AND ((key = ${pair} AND failures >= ${limit}) OR (key = ${source} AND failures >= ${limit * ADDRESS_CAP_FACTOR}))`.compile(qb);
}

/** Refuses with 429 and Retry-After (until the later of the exceeded windows ends) while over a limit. */
export function refuseIfThrottled(ctx: Actor, result: StatementResult): void {
  const start = result.rows[0]?.window_start;
  if (start === null || start === undefined) return;
  const retry = Math.max(1, Math.ceil((Number(start) + WINDOW_MS - ctx.now.getTime()) / 1000));
  throw ApiError.detail("throttled", `Too many failed attempts. Expected available in ${retry} seconds.`, { "Retry-After": String(retry) });
}

/** Counts one failed attempt against the (username, source) pair and the source (a new window once the last one ended). */
export async function recordFailure(ctx: Actor, username: string): Promise<void> {
  const now = ctx.now.getTime();
  const { pair, source } = keysOf(ctx, username);
  await ctx.db.batch(
    [
      // Windows that have ended count for nothing: they go as new failures come, so the table stays small.
      sql`DELETE FROM auth_throttle WHERE window_start <= ${now - WINDOW_MS}`.compile(qb),
      ...[pair, source].map((key) =>
        sql`INSERT INTO auth_throttle (key, window_start, failures) VALUES (${key}, ${now}, 1)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN window_start > ${now - WINDOW_MS} THEN failures + 1 ELSE 1 END,
        window_start = CASE WHEN window_start > ${now - WINDOW_MS} THEN window_start ELSE ${now} END`.compile(qb),
      ),
    ],
    "write",
  );
}

import type { Model } from "../schema/shapes.ts";
import { sql } from "kysely";
import { ConstraintError, type Statement, type StatementResult } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { Actor, AuthCache } from "../schema/actor.ts";
import {
  deletedDataStatements,
  eventDataStatement,
  freezeDeletedDataStatement,
  freezeEventDataStatement,
  outboxStatement,
  type DeletedObjects,
} from "./outbox.ts";
import { rowsOf } from "./select.ts";

/*
 * The unit of work: every request's reads and writes go through these two, so each is one round
 * trip that also proves the actor's cached identity current, and every write carries its change
 * records' webhook outbox in the same transaction.
 */

export const createAuthCache = (): AuthCache => ({ tokens: new Map() });

/** The batch showed that cached authentication data is out of date: serve the request again. */
export class StaleAuth extends Error {}

const VERSION = sql`SELECT version FROM auth_state`.compile(qb);

/**
 * Runs a read batch: one round trip. When the request was authenticated from the cache, the
 * batch also reads the auth version, and a changed version throws `StaleAuth`.
 */
export async function readBatch(ctx: Actor, statements: readonly Statement[]): Promise<StatementResult[]> {
  if (statements.length === 0) return [];
  if (!ctx.auth) return ctx.db.batch(statements, "read");
  const [version, ...results] = await ctx.db.batch([VERSION, ...statements], "read");
  if (Number(version.rows[0]?.version) !== ctx.auth.version) throw staleAuth(ctx);
  return results;
}

/**
 * Runs a write transaction: one round trip, all or none. With cached authentication, its first
 * statement aborts the transaction when the auth version moved since the data was read. Its last
 * statements are the webhook outbox (`src/engine/outbox.ts`): the deliveries of the change records
 * the transaction wrote, whose ids go to the queue once it has committed; their events keep the
 * full representation of the objects of the `represented` models the transaction created or updated.
 */
export async function writeBatch(
  ctx: Actor,
  statements: readonly Statement[],
  represented: readonly Model[] = [],
  deleted?: DeletedObjects,
): Promise<StatementResult[]> {
  const guard = ctx.auth
    ? [sql`INSERT INTO engine_guard (stale) SELECT 1 WHERE (SELECT version FROM auth_state) IS NOT ${ctx.auth.version}`.compile(qb)]
    : [];
  // Deleted objects' representations (and those of the rows their cascade removes) are read before their rows go.
  const reads = deleted ? deletedDataStatements(ctx, deleted) : [];
  const before = reads.map((r) => r.statement);
  let results: StatementResult[];
  try {
    const events = [outboxStatement(ctx), ...represented.map((model) => eventDataStatement(ctx, model))];
    results = await ctx.db.batch([...guard, ...before, ...statements, ...events], "write");
  } catch (error) {
    if (error instanceof ConstraintError && error.columns.includes("guard_auth_changed")) throw staleAuth(ctx);
    throw error;
  }
  const first = guard.length + before.length;
  const outbox = first + statements.length;
  const deliveries = results[outbox].rows.map((row) => Number(row.id));
  // The response never waits for delivery (SPEC.md 6.3.1); a lost enqueue is healed by the sweep.
  if (deliveries.length) {
    const freeze = [
      freezeEventDataStatement(rowsOf(results.slice(outbox + 1).flatMap((r) => r.rows))),
      ...reads.map((r, i) => freezeDeletedDataStatement(ctx, r.model, rowsOf(results[guard.length + i].rows))),
    ].filter((statement): statement is Statement => statement !== null);
    const keep = freeze.length
      ? ctx.db.batch(freeze, "write").catch((e) => console.error(`[${ctx.requestId}] could not keep event data:`, (e as Error).message))
      : Promise.resolve();
    ctx.waitUntil(keep.then(() => ctx.enqueue(deliveries)));
  }
  return results.slice(first, outbox);
}

function staleAuth(ctx: Actor): StaleAuth {
  ctx.authCache?.tokens.clear();
  return new StaleAuth("authentication data changed");
}

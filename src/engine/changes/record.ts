import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { snapshotSql } from "../select.ts";

export type ChangeAction = "create" | "update" | "delete";

const columns = sql`(time, user_id, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, message, prechange_data, postchange_data)`;

/** A create or update to record. */
export interface Change {
  readonly action: "create" | "update";
  /** The object's id, or SQL for it (the id a create just assigned). */
  readonly objectId: number | RawBuilder<unknown>;
  /** The snapshot read before the change (JSON text), or null for a create. */
  readonly pre: string | null;
  /** The changelog message the request gave. */
  readonly message: string;
}

/**
 * The statement recording a create or update, for the same transaction as the change itself (a
 * change without its record is never committed). The post-change snapshot and the repr are read
 * by SQL from the row as stored at that point of the transaction, so they are what the API shows
 * (a nested group's `_depth`, defaults the database filled).
 */
export function changeRecordStatement(ctx: Actor, model: Model, { action, objectId, pre, message }: Change): Statement {
  const t = model.table;
  return sql`INSERT INTO core_objectchange ${columns}
    SELECT ${ctx.now.toISOString()}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, ${action},
      ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200), ${message}, ${pre}, ${snapshotSql(model, t)}
    FROM ${sql.table(t)} WHERE ${sql.ref(`${t}.id`)} = ${objectId}`.compile(qb);
}

/**
 * The statement recording the creation of every row of `model` that `where` selects (the
 * components a new device brings with it), set-wise: one statement whatever their number.
 */
export function creationRecordsStatement(ctx: Actor, model: Model, where: (table: string) => RawBuilder<unknown>): Statement {
  const t = model.table;
  return sql`INSERT INTO core_objectchange ${columns}
    SELECT ${ctx.now.toISOString()}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, 'create',
      ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200), '', NULL, ${snapshotSql(model, t)}
    FROM ${sql.table(t)} WHERE ${where(t)} ORDER BY ${sql.ref(`${t}.id`)}`.compile(qb);
}

/** A deleted object, as read before the delete: its id, its repr and its snapshot (JSON text). */
export interface Deletion {
  readonly objectId: number;
  readonly repr: string;
  readonly pre: string | null;
}

/** The statement recording a delete, with the snapshot and repr read before it. */
export function deletionRecordStatement(ctx: Actor, model: Model, { objectId, repr, pre }: Deletion): Statement {
  return sql`INSERT INTO core_objectchange ${columns}
    VALUES (${ctx.now.toISOString()}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, 'delete',
      ${model.objectType}, ${objectId}, ${repr.slice(0, 200)}, '', ${pre}, NULL)`.compile(qb);
}

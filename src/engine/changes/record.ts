import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb, Slot, Template } from "../../db/query-builder.ts";
import { insertedId } from "../write-statements.ts";
import { snapshotSql } from "../select.ts";

export type ChangeAction = "create" | "update" | "delete";

const columns = sql`(time, user_id, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, message, prechange_data, postchange_data)`;

/** A create or update to record. */
export interface Change {
  readonly action: "create" | "update";
  /** The object's id, or null for the id the create just assigned (`insertedId`). */
  readonly objectId: number | null;
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
  const key = `${model.objectType} ${objectId === null ? "inserted" : "given"}`;
  let template = recordTemplates.get(key);
  if (!template) {
    // The snapshot of every field is the bulk of it: built once per model, not once per object written.
    const t = model.table;
    const id = objectId === null ? insertedId(model) : sql`${new Slot("id")}`;
    template = new Template(sql`INSERT INTO core_objectchange ${columns}
      SELECT ${new Slot("time")}, ${new Slot("user_id")}, ${new Slot("user_name")}, ${new Slot("request_id")}, ${new Slot("action")},
        ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200), ${new Slot("message")}, ${new Slot("pre")},
        ${snapshotSql(model, t)}
      FROM ${sql.table(t)} WHERE ${sql.ref(`${t}.id`)} = ${id}`);
    recordTemplates.set(key, template);
  }
  return template.bind({
    time: ctx.now.toISOString(),
    user_id: ctx.user?.id ?? null,
    user_name: ctx.user?.username ?? "",
    request_id: ctx.requestId,
    action,
    message,
    pre,
    id: objectId,
  });
}

const recordTemplates = new Map<string, Template>();

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

import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb, Slot, Template } from "../../db/query-builder.ts";
import { remembered } from "../../lib/memo.ts";
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
  // The snapshot of every field is the bulk of it: built once per model, not once per object written.
  const build = () => {
    const t = model.table;
    const id = objectId === null ? insertedId(model) : sql`${new Slot("id")}`;
    return new Template(sql`INSERT INTO core_objectchange ${columns}
      SELECT ${WHO}, ${new Slot("action")}, ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200),
        ${new Slot("message")}, ${new Slot("pre")}, ${snapshotSql(model, t)}
      FROM ${sql.table(t)} WHERE ${sql.ref(`${t}.id`)} = ${id}`);
  };
  const template = remembered(recordTemplates, `${model.objectType} ${objectId === null ? "inserted" : "given"}`, build);
  return template.bind({ ...who(ctx), action, message, pre, id: objectId });
}

const recordTemplates = new Map<string, Template>();

/**
 * The statement recording the creates of a bulk write, set-wise, after its rows are inserted: the
 * rows the last `messages.length` ids of the model's table name (one transaction, one writer, an
 * AUTOINCREMENT table: the ids a write's inserts get are consecutive, the newest in
 * `sqlite_sequence`), one record each, in input order, each with its own changelog message.
 */
export function insertedRecordsStatement(ctx: Actor, model: Model, messages: readonly string[]): Statement {
  const build = () => {
    const t = model.table;
    const first = sql`(SELECT seq FROM sqlite_sequence WHERE name = ${t}) - ${new Slot("count")} + 1`;
    return new Template(sql`INSERT INTO core_objectchange ${columns}
      SELECT ${WHO}, 'create', ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200),
        j.value, NULL, ${snapshotSql(model, t)}
      FROM json_each(${new Slot("messages")}) j CROSS JOIN ${sql.table(t)} ON ${sql.ref(`${t}.id`)} = ${first} + j.key
      ORDER BY j.key`);
  };
  const template = remembered(recordTemplates, `${model.objectType} inserted rows`, build);
  return template.bind({ ...who(ctx), count: messages.length, messages: JSON.stringify(messages) });
}

/** An update to record: the object's id, its snapshot before (JSON text) and its changelog message. */
export interface Update {
  readonly objectId: number;
  readonly pre: string | null;
  readonly message: string;
}

/** The statement recording the updates of a write, set-wise, after its rows are updated: one record per object, in input order. */
export function updatedRecordsStatement(ctx: Actor, model: Model, updates: readonly Update[]): Statement {
  const build = () => {
    const t = model.table;
    return new Template(sql`INSERT INTO core_objectchange ${columns}
      SELECT ${WHO}, 'update', ${model.objectType}, ${sql.ref(`${t}.id`)}, substr(${model.displaySql(t)}, 1, 200),
        j.value ->> 1, j.value ->> 2, ${snapshotSql(model, t)}
      FROM json_each(${new Slot("updates")}) j CROSS JOIN ${sql.table(t)} ON ${sql.ref(`${t}.id`)} = j.value ->> 0
      ORDER BY j.key`);
  };
  const template = remembered(recordTemplates, `${model.objectType} updated rows`, build);
  return template.bind({ ...who(ctx), updates: JSON.stringify(updates.map((u) => [u.objectId, u.message, u.pre])) });
}

/** When, by whom and in which request: the first columns of every change record, as slots of a template. */
const WHO = sql`${new Slot("time")}, ${new Slot("user_id")}, ${new Slot("user_name")}, ${new Slot("request_id")}`;

/** `WHO`'s values for the actor. */
const who = (ctx: Actor) => ({
  time: ctx.now.toISOString(),
  user_id: ctx.user?.id ?? null,
  user_name: ctx.user?.username ?? "",
  request_id: ctx.requestId,
});

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
  deletionTemplate ??= new Template(sql`INSERT INTO core_objectchange ${columns}
    VALUES (${WHO}, 'delete', ${new Slot("type")}, ${new Slot("id")}, ${new Slot("repr")}, '', ${new Slot("pre")}, NULL)`);
  return deletionTemplate.bind({ ...who(ctx), type: model.objectType, id: objectId, repr: repr.slice(0, 200), pre });
}

/** One statement for the delete records of every model: a bulk delete binds it per object. */
let deletionTemplate: Template | null = null;

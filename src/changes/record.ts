import { sql, type RawBuilder } from "kysely";
import type { Row, Statement } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import type { Model } from "../models/model.ts";

export type ChangeAction = "create" | "update" | "delete";

/** m2m values of one object for its snapshot: tag names, or ids for other relations. */
export type M2mSnapshot = Record<string, unknown[]>;

/**
 * The state of an object as a change record keeps it: stored values by field name, fks as ids,
 * m2m as sorted lists, no id, no computed counts and no secrets.
 */
export function snapshot(model: Model, row: Row, m2m: M2mSnapshot = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of model.fields) {
    if (field.writeOnly || field.kind === "count") continue;
    if (field.kind === "m2m") {
      out[field.name] = [...(m2m[field.name] ?? [])].sort();
      continue;
    }
    if (!field.column) continue;
    const raw = row[field.column];
    if (field.kind === "boolean") out[field.name] = raw == null ? null : Boolean(raw);
    else if (["json", "stringList", "ipList"].includes(field.kind)) out[field.name] = typeof raw === "string" ? JSON.parse(raw) : raw;
    else out[field.name] = raw ?? null;
  }
  return out;
}

/**
 * The statement recording one change, for the same transaction as the change itself: a change
 * without its record is never committed. `objectId` may be SQL (the id a create just assigned).
 */
export function changeRecordStatement(
  ctx: RequestContext,
  model: Model,
  action: ChangeAction,
  objectId: number | RawBuilder<unknown>,
  repr: string,
  pre: Record<string, unknown> | null,
  post: Record<string, unknown> | null,
  message: string,
): Statement {
  return sql`INSERT INTO core_objectchange
    (time, user_id, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, message, prechange_data, postchange_data)
    VALUES (${ctx.now.toISOString()}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, ${action},
      ${model.objectType}, ${objectId}, ${repr.slice(0, 200)}, ${message}, ${pre ? JSON.stringify(pre) : null}, ${post ? JSON.stringify(post) : null})`.compile(qb);
}

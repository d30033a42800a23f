import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { KINDS } from "../../schema/kinds/index.ts";
import { snapshotSql } from "../select.ts";

type Sql = RawBuilder<unknown>;

/** Rows a delete removes besides the ones named: their model, ids (as SQL), and the parent they go with. */
interface Cascaded {
  readonly model: Model;
  readonly ids: Sql;
  /** The reference that took them: its column, and the model it points to (`related_object`). */
  readonly via: { readonly column: string; readonly parent: Model };
}

/**
 * Every set of rows deleting `ids` of `model` removes in cascade: children by a cascading fk
 * (a device's interfaces), and rows whose required generic relation points at a removed row,
 * followed to any depth. Each set is SQL over the rows as they stand before the delete.
 */
export function cascadedRows(model: Model, ids: Sql, depth = 0, seen: readonly Model[] = []): Cascaded[] {
  if (depth > 8) return [];
  const out: Cascaded[] = [];
  for (const { model: child, field } of model.registry.referencesTo(model)) {
    // A tree's own descendants are already among the named rows.
    if (child === model && model.tree) continue;
    if (seen.includes(child)) continue;
    const deletion = KINDS[field.kind].deletion!;
    if (!deletion.cascades(field)) continue;
    const set: Cascaded = {
      model: child,
      via: { column: deletion.idColumn(field), parent: model },
      ids: sql`(SELECT id FROM ${sql.table(child.table)} WHERE ${deletion.pointingAt(field, model, ids)})`,
    };
    out.push(set, ...cascadedRows(child, set.ids, depth + 1, [...seen, model]));
  }
  return out;
}

/**
 * The deletion records of every row a delete removes in cascade, one INSERT ... SELECT per set,
 * for the transaction of the delete, before it: a cascade is a change like any other, so it is
 * recorded, and it reaches webhooks through the outbox. The parent is the record's related object.
 */
export function cascadeRecordStatements(ctx: Actor, model: Model, ids: Sql): Statement[] {
  return cascadedRows(model, ids).map(({ model: m, ids: rows, via }) => {
    const t = m.table;
    const parentId = sql.ref(`${t}.${via.column}`);
    return sql`INSERT INTO core_objectchange (time, user_id, user_name, request_id, action, changed_object_type, changed_object_id,
        related_object_type, related_object_id, object_repr, message, prechange_data, postchange_data)
      SELECT ${ctx.now.toISOString()}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, 'delete', ${m.objectType},
        ${sql.ref(`${t}.id`)}, ${via.parent.objectType}, ${parentId}, substr(${m.displaySql(t)}, 1, 200), '', ${snapshotSql(m, t)}, NULL
      FROM ${sql.table(t)} WHERE ${sql.ref(`${t}.id`)} IN ${rows} ORDER BY ${sql.ref(`${t}.id`)}`.compile(qb);
  });
}

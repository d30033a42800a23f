import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { KINDS } from "../../schema/kinds/index.ts";
import { snapshotSql } from "../select.ts";
import { cascadedRows } from "./cascade.ts";

type Sql = RawBuilder<unknown>;

/** References to clear on some rows of a model. */
export interface Clearing {
  /** The rows, as a condition over the model's table. */
  readonly where: Sql;
  /** The snapshot keys the change records show as null afterwards. */
  readonly cleared: readonly string[];
  /** The columns set to NULL. */
  readonly columns: readonly string[];
}

/**
 * Clearing references on the rows of `owner` that `where` selects is an update of each of them,
 * as NetBox saves each such row: their change records (pre-change snapshot as they stand, the
 * post-change one with the `cleared` snapshot keys null and `last_updated` moved), then the
 * clearing itself, set-wise, in the transaction of the delete that caused it.
 */
export function clearingStatements(ctx: Actor, owner: Model, { where, cleared, columns }: Clearing): Statement[] {
  const now = ctx.now.toISOString();
  const t = owner.table;
  const stamped = Boolean(owner.field.last_updated?.column);
  const paths = [...cleared.map((key) => sql`${sql.lit(`$."${key}"`)}, NULL`), ...(stamped ? [sql`'$.last_updated', ${now}`] : [])];
  const sets = [...columns.map((c) => sql`${sql.ref(c)} = NULL`), ...(stamped ? [sql`last_updated = ${now}`] : [])];
  return [
    sql`INSERT INTO core_objectchange (time, user_id, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, message,
        prechange_data, postchange_data)
      SELECT ${now}, ${ctx.user?.id ?? null}, ${ctx.user?.username ?? ""}, ${ctx.requestId}, 'update', ${owner.objectType}, id, repr, '', pre,
        json_set(pre, ${sql.join(paths)})
      FROM (SELECT ${sql.ref(`${t}.id`)} AS id, substr(${owner.displaySql(t)}, 1, 200) AS repr, ${snapshotSql(owner, t)} AS pre
        FROM ${sql.table(t)} WHERE ${where} ORDER BY ${sql.ref(`${t}.id`)})`.compile(qb),
    sql`UPDATE ${sql.table(t)} SET ${sql.join(sets)} WHERE ${where}`.compile(qb),
  ];
}

/**
 * Before a delete of `ids` of `model` (and of everything it removes in cascade), the nullable
 * foreign keys other rows hold to the removed rows are cleared by `clearingStatements`, so each
 * such row gets its update record instead of the database's silent ON DELETE SET NULL. Rows the
 * delete removes anyway, and rows only the engine writes (change records, deliveries), are left
 * to the database. Returns the statements and the models whose rows they update.
 */
export function setNullStatements(ctx: Actor, model: Model, ids: Sql): { statements: Statement[]; models: Model[] } {
  const removed = [{ model, ids }, ...cascadedRows(model, ids)];
  const statements: Statement[] = [];
  const models = new Set<Model>();
  for (const set of removed) {
    for (const { model: owner, field } of set.model.registry.referencesTo(set.model)) {
      if (!KINDS[field.kind].deletion!.setsNull(field) || owner.readOnly) continue;
      const t = owner.table;
      const spared = removed.filter((r) => r.model === owner).map((r) => sql` AND ${sql.ref(`${t}.id`)} NOT IN ${r.ids}`);
      const where = sql`${sql.ref(`${t}.${field.column!}`)} IN ${set.ids}${sql.join(spared, sql``)}`;
      statements.push(...clearingStatements(ctx, owner, { where, cleared: [field.name], columns: [field.column!] }));
      models.add(owner);
    }
  }
  return { statements, models: [...models] };
}

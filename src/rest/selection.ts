import { sql, type RawBuilder } from "kysely";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";

/**
 * What a query selects for a model: every stored column plus the computed count fields asked for.
 * Subqueries reference the table by its own name (never an alias), because SQLite resolves only
 * the table name inside a RETURNING clause, and writes return rows through this same selection.
 */
export function selection(model: Model, fields: readonly Field[], returning = false): RawBuilder<unknown>[] {
  // SQLite refuses `table.*` in RETURNING, and needs it in a join; the two forms mean the same.
  const out: RawBuilder<unknown>[] = [returning ? sql`*` : sql`${sql.table(model.table)}.*`];
  for (const field of fields) if (field.kind === "count") out.push(sql`${countSql(model, field)} AS ${sql.ref(field.name)}`);
  return out;
}

/** The SELECT list of `selection` as one fragment, for raw statements (INSERT ... RETURNING). */
export function selectionSql(model: Model, fields: readonly Field[], returning = false): RawBuilder<unknown> {
  return sql.join(selection(model, fields, returning), sql`, `);
}

/** The ids of `ids` and of every descendant, for a nested-group (tree) model. */
export function subtreeSql(model: Model, ids: RawBuilder<unknown>): RawBuilder<unknown> {
  const table = sql.table(model.table);
  return sql`(WITH RECURSIVE subtree(id) AS (SELECT id FROM ${table} WHERE id IN (${ids}) UNION SELECT c.id FROM ${table} c JOIN subtree ON c.parent_id = subtree.id) SELECT id FROM subtree)`;
}

function countSql(model: Model, field: Field): RawBuilder<unknown> {
  const of = field.countOf!;
  const self = sql.ref(`${model.table}.id`);
  if ("table" in of) return sql`(SELECT count(*) FROM ${sql.table(of.table)} x WHERE x.${sql.ref(of.column)} = ${self})`;
  const counted = of.model();
  const column = sql.ref(`x.${counted.field[of.field].column}`);
  if (!of.cumulative || !model.tree) return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} = ${self})`;
  const table = sql.table(model.table);
  return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} IN (WITH RECURSIVE d(id) AS (SELECT ${self} UNION ALL SELECT c.id FROM ${table} c JOIN d ON c.parent_id = d.id) SELECT id FROM d))`;
}

/** The fields a representation renders: all readable ones (full) or the model's brief list. */
export function renderedFields(model: Model, form: "full" | "brief"): readonly Field[] {
  return form === "brief" ? model.briefFields : model.readableFields;
}

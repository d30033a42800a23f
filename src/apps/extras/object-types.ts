import type { FilterDeclaration, Model } from "../../schema/shapes.ts";
import type { Statement } from "../../db/database.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { qb } from "../../db/query-builder.ts";
import { listHolds, numberSet } from "../../schema/filter-sql.ts";

/**
 * Object types (NetBox's content types): one row per model, with an id of its own that other
 * filters take (`changed_object_type_id`, `object_type_id`...). The rows are written at start for
 * every model served (`objectTypeRows`), so an id, once given, stays the model's.
 */
export const objectType = defineModel({
  app: "extras",
  name: "objecttype",
  verboseName: "object type",
  className: "ObjectType",
  taggable: false,
  timestamps: false,
  readOnly: true,
  fields: {
    app_label: f.string({ maxLength: 100, readOnly: true }),
    model: f.string({ maxLength: 100, readOnly: true }),
  },
  uniqueTogether: [{ fields: ["app_label", "model"], message: "Object type with this App label and Model already exists." }],
  brief: ["app_label", "model"],
  display: (t) => sql`${sql.ref(`${t}.app_label`)} || ' | ' || ${sql.ref(`${t}.model`)}`,
  search: ["app_label", "model"],
  ordering: ["app_label", "model"],
});

/** The object types a database has rows for, as `name` (`app.model`). */
export const knownObjectTypes = (): Statement => sql`SELECT app_label || '.' || model AS name FROM extras_objecttype`.compile(qb);

/** The statement giving each of `models` its object type row (those already there keep their ids). */
export function objectTypeRows(models: readonly Model[]): Statement {
  const pairs = JSON.stringify(models.map((m) => [m.app, m.name]));
  return sql`INSERT OR IGNORE INTO extras_objecttype (app_label, model)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${pairs})`.compile(qb);
}

/** The `app.model` names of the object types whose ids are given. */
export const objectTypeNames = (values: readonly string[]): RawBuilder<unknown> =>
  sql`(SELECT app_label || '.' || model FROM extras_objecttype WHERE id IN ${numberSet(values)})`;

/** Rows whose `column` names (`app.model`) one of the object types given by id. */
export const objectTypeIdFilter = (column: string): FilterDeclaration => ({
  integer: true,
  sql: (values, t) => sql`${sql.ref(`${t}.${column}`)} IN ${objectTypeNames(values)}`,
});

/** Rows whose `column` names none of the object types given by id (the `__n` of `objectTypeIdFilter`). */
export const objectTypeIdExclusion = (column: string): FilterDeclaration => ({
  integer: true,
  sql: (values, t) => sql`${sql.ref(`${t}.${column}`)} NOT IN ${objectTypeNames(values)}`,
});

/** Rows whose JSON list in `column` holds one of the object types given by id. */
export const objectTypeIdsFilter = (column: string): FilterDeclaration => ({
  integer: true,
  sql: (values, t) => listHolds(t, column, objectTypeNames(values)),
});

export const objectTypeModels = [objectType];

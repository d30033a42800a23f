import type { FilterDeclaration, Model, Registry } from "../../schema/shapes.ts";
import type { Statement } from "../../db/database.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { qb } from "../../db/query-builder.ts";
import { listHolds, numberSet, valueSet, whether } from "../../schema/filter-sql.ts";
import { likeEscape } from "../../engine/filters.ts";

/**
 * Object types (NetBox's content types): one row per model, with an id of its own that other
 * filters take (`changed_object_type_id`, `object_type_id`...). The rows are written at start for
 * every model served (`objectTypeRows`), so an id, once given, stays the model's.
 */
export const objectType = defineModel({
  app: "extras",
  name: "objecttype",
  pageless: true,
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

/** Rows whose JSON list in `column` holds one of the object types given by id. */
export const objectTypeIdsFilter = (column: string): FilterDeclaration => ({
  integer: true,
  sql: (values, t) => listHolds(t, column, objectTypeNames(values)),
});

/** The apps NetBox names in capitals; the others it capitalises. */
const APP_LABELS: Record<string, string> = { dcim: "DCIM", ipam: "IPAM", vpn: "VPN" };

/**
 * The SQL naming the object type in `column` (`dcim.site`) as NetBox's content types name
 * themselves, `<app> | <verbose name>` (`DCIM | site`); a type the registry lacks stays as stored.
 */
export function objectTypeLabelSql(registry: Registry, column: RawBuilder<unknown>): RawBuilder<unknown> {
  const label = (m: Model) => `${APP_LABELS[m.app] ?? m.app[0].toUpperCase() + m.app.slice(1)} | ${m.verboseName}`;
  const labels = JSON.stringify(Object.fromEntries(registry.models.map((m) => [m.objectType, label(m)])));
  return sql`coalesce(json_extract(${labels}, '$."' || ${column} || '"'), ${column})`;
}

/** NOT that keeps rows whose condition is NULL, as Django's exclude() does (the filter compiler's `__n`). */
const excluding = (condition: RawBuilder<unknown>) => sql`NOT coalesce(${condition}, 0)`;

/** Each text lookup of an `object_type` filter (`app.model`), as a LIKE pattern of a lower-cased value. */
const TEXT_LOOKUPS: readonly [string, (v: string) => string][] = [
  ["ic", (v) => `%${v}%`],
  ["isw", (v) => `${v}%`],
  ["iew", (v) => `%${v}`],
  ["ie", (v) => v],
];

/**
 * NetBox's `object_type` filter and its lookups (`__n`, `__ic`, `__nic`, `__isw`, `__ie`...) over
 * names `app.model`, and `object_type_id` with `__n`: `holds` says whether the row names one of a
 * set of names (a JSON list holds one, or a column is one); each lookup is declared under its own
 * parameter name, which the filter compiler finds before it splits a suffix off.
 */
function objectTypeLookups(holds: (t: string, names: RawBuilder<unknown>) => RawBuilder<unknown>): Record<string, FilterDeclaration> {
  const out: Record<string, FilterDeclaration> = {
    object_type: { sql: (values, t) => holds(t, valueSet(values)) },
    object_type__n: { sql: (values, t) => excluding(holds(t, valueSet(values))) },
    object_type_id: { integer: true, sql: (values, t) => holds(t, objectTypeNames(values)) },
    object_type_id__n: { integer: true, sql: (values, t) => excluding(holds(t, objectTypeNames(values))) },
  };
  for (const [lookup, pattern] of TEXT_LOOKUPS) {
    const like = (values: readonly string[]) =>
      sql`(SELECT app_label || '.' || model FROM extras_objecttype WHERE ${sql.join(
        values.map((v) => sql`lower(app_label || '.' || model) LIKE ${pattern(likeEscape(v.toLowerCase()))} ESCAPE '\\'`),
        sql` OR `,
      )})`;
    out[`object_type__${lookup}`] = { sql: (values, t) => holds(t, like(values)) };
    out[`object_type__n${lookup}`] = { sql: (values, t) => excluding(holds(t, like(values))) };
  }
  return out;
}

/** `object_type` (with its lookups) and `object_type_id` (with `__n`) over a JSON list of `app.model` names in `column`. */
export const objectTypesListFilters = (column: string): Record<string, FilterDeclaration> =>
  objectTypeLookups((t, names) => listHolds(t, column, names));

/** The object type ids compared by `object_type_id__gt`, `__gte`, `__lt` and `__lte`. */
const ID_COMPARISONS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * `object_type` (with its lookups) and `object_type_id` over one `app.model` name in `column`;
 * the id compares as a number too (`object_type_id__gt`, NetBox's for bookmarks), and
 * `object_type_id__empty` finds rows naming no known type.
 */
export const objectTypeColumnFilters = (column: string): Record<string, FilterDeclaration> => {
  const named = (t: string, names: RawBuilder<unknown>) => sql`${sql.ref(`${t}.${column}`)} IN ${names}`;
  const out = objectTypeLookups(named);
  for (const [lookup, op] of Object.entries(ID_COMPARISONS)) {
    out[`object_type_id__${lookup}`] = {
      integer: true,
      sql: (values, t) =>
        named(t, sql`(SELECT app_label || '.' || model FROM extras_objecttype WHERE id ${sql.raw(op)} ${Number(values[0])})`),
    };
  }
  out.object_type_id__empty = whether((t) => sql`NOT ${named(t, sql`(SELECT app_label || '.' || model FROM extras_objecttype)`)}`);
  return out;
};

/** `<name>` and `<name>__n` over the object types given by id, named in `column` (`assigned_object_type_id`). */
export const objectTypeIdFilters = (name: string, column: string): Record<string, FilterDeclaration> => ({
  [name]: objectTypeIdFilter(column),
  [`${name}__n`]: { integer: true, sql: (values, t) => excluding(sql`${sql.ref(`${t}.${column}`)} IN ${objectTypeNames(values)}`) },
});

export const objectTypeModels = [objectType];

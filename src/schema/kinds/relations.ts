import type { SelectContext, Field, Model } from "../shapes.ts";
import { sql } from "kysely";
import { described, nullableFor, orNull, ref as schemaRef, RELATED_REFERENCE } from "../json-schema.ts";
import { isRef, type FilterParam, type KindDescriptor, type KindOf, type Out, type Sql } from "./descriptor.ts";
import { fkSchema, keyedSchema, m2mSchema } from "./inputs.ts";
import { info, none, orderedArraySql, parsed, plainStore, ref, scalarSnapshot } from "./outputs.ts";

/** The relation kinds: fk, m2m, reverse, and count (a count of related rows); generic relations are in generic.ts. */

/** How an fk's `onDelete` reads in its column's REFERENCES clause. */
const ON_DELETE_SQL = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL", keep: "NO ACTION" } as const;

/** The ids of owners of an m2m field whose targets are among `targets` (all owners with any target, for null). */
function m2mSources(field: Field, targets: Sql | null): Sql {
  const t = field.through!;
  const owner = t.objectTypeColumn ? sql` AND ${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
  return sql`SELECT ${sql.ref(t.source)} FROM ${sql.table(t.table)} WHERE ${targets ? sql`${sql.ref(t.target)} IN ${targets}` : sql`1`}${owner}`;
}
/** A relation's two filters: `name` by its targets' key, `name_id` by their ids. */
export const relationParams = (name: string, relation: Field, { tree }: { readonly tree: boolean }): FilterParam[] => [
  { name, relation, byId: false, tree },
  { name: `${name}_id`, relation, byId: true, tree },
];

const READ_ONLY_ID = { type: "integer", required: false, read_only: true, label: "ID" };

/**
 * The OPTIONS children of a nested object: its brief fields as the target declares them (NetBox's
 * nested serializers keep their fields' writability), and `display_url` where the relation nests it.
 */
function nestedChildren(target: Model, { page = false, kindOf }: { readonly page?: boolean; readonly kindOf: KindOf }): Out {
  const children: Out = {
    id: READ_ONLY_ID,
    url: { type: "field", required: false, read_only: true, label: "Url" },
    ...(page ? { display_url: { type: "field", required: false, read_only: true, label: "Display url" } } : {}),
    display: { type: "field", required: false, read_only: true, label: "Display" },
  };
  for (const f of page ? target.pageNestedFields : target.nestedFields) Object.assign(children, kindOf(f.kind).options(f));
  return children;
}

function countSql(field: Field, table: string): Sql {
  const of = field.countOf!;
  const self = ref(table, "id");
  if ("sql" in of) return of.sql(table);
  if ("table" in of) return sql`(SELECT count(*) FROM ${sql.table(of.table)} x WHERE x.${sql.ref(of.column)} = ${self})`;
  const counted = of.model();
  const column = sql.ref(`x.${counted.field[of.field].column}`);
  if (!of.cumulative) return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} = ${self})`;
  return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} IN (WITH RECURSIVE d(id) AS (SELECT ${self} UNION ALL SELECT c.id FROM ${sql.table(counted.field[of.field].target!().table)} c JOIN d ON c.parent_id = d.id) SELECT id FROM d))`;
}

/** The m2m targets of the row `table` as a JSON array of nested objects, in the target's order. */
function m2mSql(field: Field, table: string, sc: SelectContext): Sql {
  const alias = `m${sc.depth}`;
  return m2mArraySql(field, table, sc.depth, sc.nestedObject(field.target!(), alias, sc.depth));
}

/** The JSONB array of `object` (over the target's row under `m<depth>`) for each target of the row `table`, in the target's order. */
function m2mArraySql(field: Field, table: string, depth: number, object: Sql): Sql {
  const t = field.through!;
  const target = field.target!();
  const alias = `m${depth}`;
  const typed = t.objectTypeColumn ? sql` AND th.${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
  const order = target.field[target.ordering[0].replace(/^-/, "")]?.column ?? "id";
  return orderedArraySql(
    sql`jsonb_group_array(${object} ORDER BY ${ref(alias, order)}, ${ref(alias, "id")})`,
    sql`FROM ${sql.table(t.table)} th JOIN ${sql.table(target.table)} ${sql.raw(alias)} ON ${ref(alias, "id")} = th.${sql.ref(t.target)}
    WHERE th.${sql.ref(t.source)} = ${ref(table, "id")}${typed}`,
    sql`jsonb_array()`,
    // A table shared by several models (tags) may hold rows of other types only: its rows are not looked at.
    t.objectTypeColumn ? undefined : sql`EXISTS (SELECT 1 FROM ${sql.table(t.table)})`,
  );
}

/** A reference to one row of the target, stored as `<name>_id`; `kindOf` gives its target's nested fields' OPTIONS. */
export const fkKind = (kindOf: KindOf): KindDescriptor => ({
  storage: {
    sqlType: "INTEGER",
    column: (name) => `${name}_id`,
    constraint: (field) => `REFERENCES ${field.target!().table}(id) ON DELETE ${ON_DELETE_SQL[field.onDelete ?? "protect"]}`,
    // A UNIQUE column is indexed already.
    index: (field) => (field.column && !field.unique ? { name: field.column, columns: [field.column] } : null),
  },
  input: { inputs: (field) => ({ [field.name]: fkSchema(field) }), store: plainStore },
  references: {
    referencesIn: (field, value) => (isRef(value) ? [{ target: field.target!(), ref: value }] : []),
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name];
      if (isRef(value)) values[field.name] = resolve(field.target!(), value) ?? null;
    },
    singleTarget: (field) => field.target!(),
  },
  walk: {
    walks: (field) => Boolean(field.column),
    targetIds: (field, { owner, alias, table, owners }) =>
      owners === null
        ? sql`SELECT ${ref(table, field.column!)}`
        : sql`SELECT ${ref(alias, field.column!)} FROM ${sql.table(owner.table)} ${sql.raw(alias)} WHERE ${ref(alias, "id")} IN (${owners})`,
    matchIds: (field, alias, ids) => sql`${ref(alias, field.column!)} IN ${ids}`,
    matchNone: (field, alias) => sql`${ref(alias, field.column!)} IS NULL`,
  },
  deletion: {
    // A read-only fk found by SQL (`f.related`) holds no reference: nothing to protect, cascade or clear.
    pointsAt: (field, target) => field.column !== null && field.target!() === target,
    pointingAt: (field, _target, ids) => sql`${sql.ref(field.column!)} IN ${ids}`,
    idColumn: (field) => field.column!,
    cascades: (field) => field.onDelete === "cascade",
    setsNull: (field) => field.onDelete === "setNull",
    // Its foreign key guards it.
    tidiedAfterDelete: () => false,
  },
  filter: {
    lookups: "relation",
    params: (field, model) => {
      if (!field.column) return [];
      // A filter by a tree's node takes its descendants too, unless the tree is the model's own (a parent).
      const tree = Boolean(field.target!().tree) && field.target!() !== model;
      return relationParams(field.name, field, { tree });
    },
  },
  read: {
    select: (field, table, sc) =>
      field.flat ? null : sc.relatedJson(field.target!(), field.sql ? field.sql(table) : ref(table, field.column!), sc.depth + 1),
    related: true,
  },
  render: (field, row, out, rc) => {
    const raw = parsed(row[field.name]);
    out[field.name] =
      raw && typeof raw === "object"
        ? rc.nested(field.target!(), raw as Out, { page: field.nestedDisplayUrl })
        : (row[field.column!] ?? null);
  },
  final: (field, table, fc) => {
    // Without a nested object (flat, past the nesting limit, none found) the value is the stored id, as `render` gives it.
    const stored = field.column ? ref(table, field.column) : sql`NULL`;
    if (field.flat || !fc.nests) return [[field.name, stored]];
    const nested = fc.related(field.target!(), field.sql ? field.sql(table) : stored, { page: field.nestedDisplayUrl });
    return nested ? [[field.name, sql`coalesce(${nested}, ${stored})`]] : null;
  },
  options: (field) => ({
    [field.name]: field.flat
      ? info(field, "field")
      : { ...info(field, "nested object"), children: nestedChildren(field.target!(), { page: field.nestedDisplayUrl, kindOf }) },
  }),
  openapi: {
    output: (field, sc) => {
      // Past the nesting limit (and for a flat fk) the id stands for the object; a relation with
      // no column of its own has nothing to give there.
      const nested = field.flat ? null : sc.related(field.target!(), { page: field.nestedDisplayUrl });
      const s = nested ?? (field.column ? { type: "integer" } : { type: "null" });
      return { [field.name]: described(field, nullableFor(field, s)) };
    },
    input: (field) => ({ [field.name]: described(field, nullableFor(field, schemaRef(RELATED_REFERENCE))) }),
  },
  snapshot: scalarSnapshot,
});

/** A set of rows of the target, stored in a link table. */
export const m2mKind = (kindOf: KindOf): KindDescriptor => ({
  storage: {
    sqlType: null,
    tables: (field, model) => {
      const t = field.through;
      // A shared link table (tags) or another model's own table (`f.reverseList`) is not this model's to create.
      if (!t || t.objectTypeColumn || field.readOnly) return [];
      return [
        `CREATE TABLE ${t.table} (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n` +
          `  ${t.source} INTEGER NOT NULL REFERENCES ${model.table}(id) ON DELETE CASCADE,\n` +
          `  ${t.target} INTEGER NOT NULL REFERENCES ${field.target!().table}(id) ON DELETE CASCADE,\n` +
          `  UNIQUE (${t.source}, ${t.target})\n)`,
        `CREATE INDEX ${t.table}_${t.target} ON ${t.table}(${t.target})`,
      ];
    },
  },
  input: { inputs: (field) => ({ [field.name]: field.listedBy ? keyedSchema(field.listedBy) : m2mSchema }), linked: true },
  references: {
    referencesIn: (field, value) => (Array.isArray(value) ? value.filter(isRef).map((ref) => ({ target: field.target!(), ref })) : []),
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name];
      if (Array.isArray(value)) values[field.name] = [...new Set(value.map((r) => (isRef(r) ? resolve(field.target!(), r) : r)))];
    },
  },
  walk: {
    walks: (field) => Boolean(field.filterName),
    targetIds: (field, { alias, table, owners }) => {
      const t = field.through!;
      const sources = owners === null ? sql`= ${ref(table, "id")}` : sql`IN (${owners})`;
      const typed = t.objectTypeColumn ? sql` AND ${ref(alias, t.objectTypeColumn)} = ${field.ownerType}` : sql``;
      return sql`SELECT ${ref(alias, t.target)} FROM ${sql.table(t.table)} ${sql.raw(alias)} WHERE ${ref(alias, t.source)} ${sources}${typed}`;
    },
    matchIds: (field, alias, ids) => sql`${ref(alias, "id")} IN (${m2mSources(field, ids)})`,
    matchNone: (field, alias) => sql`${ref(alias, "id")} NOT IN (${m2mSources(field, null)})`,
    // NetBox's filters of a set (tags) take the targets' slugs.
    filterKey: (_field, target) => (target.field.slug ? "slug" : target.naturalKey),
  },
  filter: {
    lookups: "relation",
    params: (field) => (field.filterName ? relationParams(field.filterName, field, { tree: false }) : []),
  },
  read: { select: (field, table, sc) => m2mSql(field, table, sc), notNested: true },
  final: (field, table, fc) => {
    if (field.listedBy) return null;
    const object = fc.nestedObject(field.target!(), `m${fc.depth}`, { page: field.nestedDisplayUrl });
    return object ? [[field.name, m2mArraySql(field, table, fc.depth, object)]] : null;
  },
  render: (field, row, out, rc) => {
    const list = (parsed(row[field.name]) ?? []) as Out[];
    out[field.name] = field.listedBy
      ? list.map((x) => x[field.listedBy!])
      : list.map((x) => rc.nested(field.target!(), x, { page: field.nestedDisplayUrl }));
  },
  // A set written by ids is a plain field in NetBox's OPTIONS; a set of nested objects (tags, a
  // read-only reverse list) describes its items as `child`.
  options: (field) => ({
    [field.name]: {
      ...info(field, "field"),
      ...(field.nestedDisplayUrl || field.readOnly
        ? {
            child: {
              ...info(field, "nested object"),
              label: undefined,
              children: nestedChildren(field.target!(), { page: field.nestedDisplayUrl, kindOf }),
            },
          }
        : {}),
    },
  }),
  openapi: {
    output: (field, sc) => ({
      [field.name]: described(field, {
        type: "array",
        items: field.listedBy ? { type: "string" } : sc.member(field.target!(), { page: field.nestedDisplayUrl }),
      }),
    }),
    input: (field) => ({
      [field.name]: described(field, {
        type: "array",
        items: field.listedBy ? { anyOf: [{ type: "string" }, schemaRef(RELATED_REFERENCE)] } : schemaRef(RELATED_REFERENCE),
      }),
    }),
  },
  snapshot: (field, table) => {
    // A read-only set (an interface's MAC addresses) belongs to the other side's record.
    if (field.readOnly) return [];
    const t = field.through!;
    const target = field.target!();
    const typed = t.objectTypeColumn ? sql` AND th.${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
    // Tags are recorded by name, other relations by id, as NetBox's change log does.
    const label = t.objectTypeColumn && target.field.name ? sql`tg.name` : sql`tg.id`;
    return [
      [
        field.name,
        sql`json((SELECT json_group_array(${label} ORDER BY ${label}) FROM ${sql.table(t.table)} th
      JOIN ${sql.table(target.table)} tg ON tg.id = th.${sql.ref(t.target)} WHERE th.${sql.ref(t.source)} = ${ref(table, "id")}${typed}))`,
      ],
    ];
  },
});

/**
 * The fields a reverse relation shows, resolved once per field: the serializer keeps a layout per
 * list of fields (serialize.ts), so a list made afresh for every row would cost one per row.
 */
function shownFields(field: Field): readonly Field[] | undefined {
  if (!field.reverseOf!.fields) return undefined;
  let fields = shownFieldsCache.get(field);
  if (!fields) {
    const target = field.target!();
    shownFieldsCache.set(field, (fields = field.reverseOf!.fields.map((name) => target.field[name])));
  }
  return fields;
}

const shownFieldsCache = new WeakMap<Field, readonly Field[]>();

/** The one row of the target that points back at this one; `kindOf` gives its nested fields' OPTIONS. */
export const reverseKind = (kindOf: KindOf): KindDescriptor => ({
  read: {
    select: (field, table, sc) => {
      const target = field.target!();
      const of = field.reverseOf!;
      const alias = `r${sc.depth}`;
      const fields = shownFields(field) ?? target.nestedFields;
      const where = Object.entries(of.where).map(([column, value]) => sql`${ref(alias, column)} = ${value}`);
      return sql`(SELECT ${sc.nestedObject(target, alias, sc.depth + 1, fields)} FROM ${sql.table(target.table)} ${sql.raw(alias)}
      WHERE ${ref(alias, target.field[of.field].column!)} = ${ref(table, "id")} AND ${sql.join(where, sql` AND `)} LIMIT 1)`;
    },
    related: true,
    notNested: true,
  },
  render: (field, row, out, rc) => {
    const raw = parsed(row[field.name]);
    const target = field.target!();
    out[field.name] =
      raw && typeof raw === "object" ? rc.nested(target, raw as Out, { fields: shownFields(field), page: field.nestedDisplayUrl }) : null;
  },
  options: (field) => ({
    [field.name]: {
      ...info(field, "nested object", false),
      children: nestedChildren(field.target!(), { page: field.nestedDisplayUrl, kindOf }),
    },
  }),
  openapi: {
    output: (field, sc) => {
      const target = field.target!();
      const fields = field.reverseOf!.fields?.map((name) => target.field[name]);
      return { [field.name]: described(field, orNull(sc.related(target, { fields, page: field.nestedDisplayUrl }) ?? { type: "null" })) };
    },
  },
  snapshot: none,
});

/** A count of related rows, read by SQL. */
export const countKind: KindDescriptor = {
  read: { select: (field, table) => countSql(field, table), notNested: true },
  render: (field, row, out) => void (out[field.name] = Number(row[field.name] ?? 0)),
  final: (field, table) => [[field.name, sql`coalesce(${countSql(field, table)}, 0)`]],
  // NetBox's counts are stored counters, filterable like any number (`interface_count__gte=2`).
  filter: { lookups: "number", sql: countSql, numberSchema: { type: "integer" } },
  // Sorted by the count itself: the read's row is one JSON value, with no column to name.
  order: (field, table) => [countSql(field, table)],
  // NetBox's counts are serializer fields of their own ("field"), not model integers.
  options: (field) => ({ [field.name]: info(field, "field", false) }),
  openapi: { output: (field) => ({ [field.name]: described(field, { type: "integer" }) }) },
  snapshot: none,
};

/**
 * A count NetBox keeps in a column of the counting row, as its counter caches (a device's
 * `interface_count`): triggers on the counted table keep it, in the transaction of the write that
 * changes it, so a read takes the column instead of counting (a page of 50 devices' statement:
 * 8.56 against 7.52 M instructions under callgrind) and change records hold it, as NetBox's do.
 */
export const counterKind: KindDescriptor = {
  storage: { sqlType: "INTEGER", tables: (field, model) => counterTriggers(field, model) },
  read: { select: () => null, notNested: true },
  render: (field, row, out) => void (out[field.name] = Number(row[field.column!] ?? 0)),
  final: (field, table) => (field.column ? [[field.name, sql`coalesce(${ref(table, field.column)}, 0)`]] : null),
  filter: { lookups: "number", numberSchema: { type: "integer" } },
  options: countKind.options,
  openapi: countKind.openapi,
  snapshot: (field, table) => ((field.countOf as { readonly annotated?: boolean }).annotated ? [] : scalarSnapshot(field, table)),
};

/**
 * The triggers keeping a counter: a row of the counted model added, deleted, or moved from one
 * row to another (its fk changed), by SQL of any path, the engine's, a cascade or a migration's.
 */
function counterTriggers(field: Field, model: Model): string[] {
  const of = field.countOf as { readonly model: () => Model; readonly field: string };
  const counted = of.model();
  const fk = counted.field[of.field].column!;
  const name = `${model.table}_${field.column}`;
  const bump = (row: "NEW" | "OLD", by: "+ 1" | "- 1") =>
    `UPDATE ${model.table} SET ${field.column} = ${field.column} ${by} WHERE id = ${row}.${fk};`;
  return [
    `CREATE TRIGGER ${name}_added AFTER INSERT ON ${counted.table} WHEN NEW.${fk} IS NOT NULL\nBEGIN ${bump("NEW", "+ 1")} END`,
    `CREATE TRIGGER ${name}_removed AFTER DELETE ON ${counted.table} WHEN OLD.${fk} IS NOT NULL\nBEGIN ${bump("OLD", "- 1")} END`,
    `CREATE TRIGGER ${name}_moved AFTER UPDATE OF ${fk} ON ${counted.table} WHEN OLD.${fk} IS NOT NEW.${fk}\nBEGIN ${bump("OLD", "- 1")} ${bump("NEW", "+ 1")} END`,
  ];
}

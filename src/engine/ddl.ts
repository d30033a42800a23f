import type { Field, Model } from "../schema/shapes.ts";
import { columnsOf, indexOf, KINDS } from "../schema/kinds/index.ts";

/** The SQL declarations of a field's stored columns, derived from its kind. */
export function columnSql(field: Field): string[] {
  const storage = KINDS[field.kind].storage;
  if (storage?.columns) return columnsOf(field).map(([name, type]) => `${name} ${type}${field.nullable ? "" : " NOT NULL"}`);
  if (!field.column || !storage?.sqlType) return [];
  const parts = [field.column, storage.sqlTypeOf?.(field) ?? storage.sqlType];
  if (!field.nullable && !storage.nullableColumn) parts.push("NOT NULL");
  const fallback = defaultSql(field);
  if (fallback !== null) parts.push(`DEFAULT ${fallback}`);
  if (field.unique) parts.push("UNIQUE");
  const constraint = storage.constraint?.(field);
  if (constraint) parts.push(constraint);
  return [parts.join(" ")];
}

/** The index a field's columns get. */
function indexSql(model: Model, field: Field): string[] {
  const index = indexOf(field);
  return index ? [`CREATE INDEX ${model.table}_${index.name} ON ${model.table}(${index.columns.join(", ")})`] : [];
}

/**
 * The index a list's default ordering pages through: the columns of the model's `ordering`, in
 * its directions (the id that ends every ordering is the index's rowid). Without one, a page of a
 * large table sorts every row it has; with it, a page costs the page. None when a term is not a
 * plain column (a network, a count: their kinds order by expressions of their own) or when an
 * index the model has already starts with those columns.
 */
export function orderingIndexSql(model: Model): string[] {
  const terms: { column: string; desc: boolean }[] = [];
  for (const term of model.ordering) {
    const desc = term.startsWith("-");
    const name = desc ? term.slice(1) : term;
    if (name === "id") break;
    const field = model.field[name];
    if (!field?.column || KINDS[field.kind].order) return [];
    // The same expressions as the ordering (planOrdering), so that the index serves it.
    if (field.nullable && !model.nullsFirst?.includes(name)) terms.push({ column: `${field.column} IS NULL`, desc });
    terms.push({ column: field.column, desc });
  }
  if (!terms.length) return [];
  const columns = terms.map((t) => t.column);
  const uniform = terms.every((t) => t.desc === terms[0].desc);
  const existing = [
    ...model.fields.flatMap((f) => [indexOf(f)?.columns ?? [], f.unique && f.column ? [f.column] : []]),
    ...(model.uniqueTogether ?? []).map((u) => u.fields.flatMap((name) => columnsOf(model.field[name]).map(([c]) => c))),
  ];
  if (uniform && existing.some((cols) => columns.every((c, i) => cols[i] === c))) return [];
  const spec = terms.map((t) => `${t.column}${t.desc ? " DESC" : ""}`).join(", ");
  return [`CREATE INDEX ${model.table}_ordering ON ${model.table}(${spec})`];
}

function defaultSql(field: Field): string | null {
  const d = field.default;
  if (d === undefined || d === null) return null;
  if (typeof d === "boolean") return d ? "1" : "0";
  if (typeof d === "number") return String(d);
  if (typeof d === "string") return `'${d.replace(/'/g, "''")}'`;
  return `'${JSON.stringify(d)}'`;
}

/**
 * The DDL a model needs: its table, indexes for fks, generic relations and multi-field
 * uniqueness, and the through tables of its own m2m fields. `scripts/make-migration.ts` prints it
 * for a new model; migrations are then committed as files and never edited, and a test checks
 * they still match the registry.
 */
export function modelDdl(model: Model): string[] {
  const columns = ["id INTEGER PRIMARY KEY AUTOINCREMENT"];
  for (const field of model.fields) columns.push(...columnSql(field));
  for (const [name, decl] of Object.entries(model.storage ?? {})) columns.push(`${name} ${decl}`);
  const out = [`CREATE TABLE ${model.table} (\n  ${columns.join(",\n  ")}\n)`];
  // A field unique on its own (a termination's object) is indexed by its unique index below.
  const uniqueAlone = new Set((model.uniqueTogether ?? []).filter((u) => u.fields.length === 1).map((u) => u.fields[0]));
  for (const field of model.fields) if (!uniqueAlone.has(field.name)) out.push(...indexSql(model, field));
  out.push(...orderingIndexSql(model));
  for (const u of model.uniqueTogether ?? []) {
    const cols = u.fields.flatMap((name) => {
      const f = model.field[name];
      if (u.caseInsensitive?.includes(name)) return [`lower(${f.column})`];
      return columnsOf(f).map(([column]) => (f.nullable && !u.nullsDistinct?.includes(name) ? `coalesce(${column}, 0)` : column));
    });
    const partial = u.unlessBlank ? ` WHERE ${model.field[u.unlessBlank].column} <> ''` : "";
    out.push(`CREATE UNIQUE INDEX ${model.table}_${u.fields.join("_")} ON ${model.table}(${cols.join(", ")})${partial}`);
  }
  for (const field of model.fields) out.push(...(KINDS[field.kind].storage?.tables?.(field, model) ?? []));
  return out;
}

/**
 * The DDL adding one field to an existing table (`ALTER TABLE ... ADD COLUMN` and its index), for
 * a field declared on a model that has already landed, and what its kind keeps beside it (an
 * m2m's through table, a counter's triggers). SQLite cannot add a UNIQUE column: such a field gets
 * a unique index instead.
 */
export function fieldDdl(model: Model, field: Field): string[] {
  const out = columnSql(field).map((c) => `ALTER TABLE ${model.table} ADD COLUMN ${c.replace(/ UNIQUE\b/, "")}`);
  if (field.unique && field.column) out.push(`CREATE UNIQUE INDEX ${model.table}_${field.column} ON ${model.table}(${field.column})`);
  out.push(...indexSql(model, field));
  out.push(...(KINDS[field.kind].storage?.tables?.(field, model) ?? []));
  return out;
}

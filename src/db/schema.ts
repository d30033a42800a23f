import type { Field } from "../models/fields.ts";
import { columnsOf, KINDS } from "../models/kinds.ts";
import type { Model } from "../models/model.ts";

/** The SQL declarations of a field's stored columns, derived from its kind. */
export function columnSql(field: Field): string[] {
  if (KINDS[field.kind].columns) return columnsOf(field).map(([name, type]) => `${name} ${type}${field.nullable ? "" : " NOT NULL"}`);
  const base = KINDS[field.kind].sqlType;
  if (!field.column || !base) return [];
  const type = field.kind === "choice" && typeof field.choices?.[0]?.value === "number" ? "INTEGER" : base;
  const parts = [field.column, type];
  if (!field.nullable && field.kind !== "datetime") parts.push("NOT NULL");
  const fallback = defaultSql(field);
  if (fallback !== null) parts.push(`DEFAULT ${fallback}`);
  if (field.unique) parts.push("UNIQUE");
  if (field.kind === "fk") {
    const action = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL", keep: "NO ACTION" }[field.onDelete ?? "protect"];
    parts.push(`REFERENCES ${field.target!().table}(id) ON DELETE ${action}`);
  }
  return [parts.join(" ")];
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
  for (const field of model.fields) {
    if (field.kind === "fk" && field.column && !field.unique)
      out.push(`CREATE INDEX ${model.table}_${field.column} ON ${model.table}(${field.column})`);
    if (KINDS[field.kind].columns) {
      out.push(
        `CREATE INDEX ${model.table}_${field.name} ON ${model.table}(${columnsOf(field)
          .map(([c]) => c)
          .join(", ")})`,
      );
    }
  }
  for (const u of model.uniqueTogether ?? []) {
    const cols = u.fields.flatMap((name) => {
      const f = model.field[name];
      if (u.caseInsensitive?.includes(name)) return [`lower(${f.column})`];
      return columnsOf(f).map(([column]) => (f.nullable && !u.nullsDistinct?.includes(name) ? `coalesce(${column}, 0)` : column));
    });
    const partial = u.unlessBlank ? ` WHERE ${model.field[u.unlessBlank].column} <> ''` : "";
    out.push(`CREATE UNIQUE INDEX ${model.table}_${u.fields.join("_")} ON ${model.table}(${cols.join(", ")})${partial}`);
  }
  for (const field of model.fields) {
    const t = field.through;
    // A shared link table (tags) or another model's own table (`f.reverseList`) is not this model's to create.
    if (field.kind !== "m2m" || !t || t.objectTypeColumn || field.readOnly) continue;
    out.push(
      `CREATE TABLE ${t.table} (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n` +
        `  ${t.source} INTEGER NOT NULL REFERENCES ${model.table}(id) ON DELETE CASCADE,\n` +
        `  ${t.target} INTEGER NOT NULL REFERENCES ${field.target!().table}(id) ON DELETE CASCADE,\n` +
        `  UNIQUE (${t.source}, ${t.target})\n)`,
      `CREATE INDEX ${t.table}_${t.target} ON ${t.table}(${t.target})`,
    );
  }
  return out;
}

/**
 * The DDL adding one field to an existing table (`ALTER TABLE ... ADD COLUMN` and its index), for
 * a field declared on a model that has already landed. SQLite cannot add a UNIQUE column: such a
 * field gets a unique index instead.
 */
export function fieldDdl(model: Model, field: Field): string[] {
  const out = columnSql(field).map((c) => `ALTER TABLE ${model.table} ADD COLUMN ${c.replace(/ UNIQUE\b/, "")}`);
  if (field.unique && field.column) out.push(`CREATE UNIQUE INDEX ${model.table}_${field.column} ON ${model.table}(${field.column})`);
  else if (field.kind === "fk" && field.column) out.push(`CREATE INDEX ${model.table}_${field.column} ON ${model.table}(${field.column})`);
  if (KINDS[field.kind].columns) {
    out.push(
      `CREATE INDEX ${model.table}_${field.name} ON ${model.table}(${columnsOf(field)
        .map(([c]) => c)
        .join(", ")})`,
    );
  }
  return out;
}

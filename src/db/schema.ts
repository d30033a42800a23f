import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";

/** The SQL declaration of a field's column, derived from its kind. */
export function columnSql(field: Field): string {
  const nullable = field.nullable || field.kind === "datetime";
  const base = (() => {
    switch (field.kind) {
      case "integer": return "INTEGER";
      case "float": return "REAL";
      case "boolean": return "INTEGER";
      case "json": return "TEXT";
      case "stringList":
      case "ipList": return "TEXT";
      case "fk": return "INTEGER";
      case "choice": return typeof field.choices?.[0]?.value === "number" ? "INTEGER" : "TEXT";
      default: return "TEXT";
    }
  })();
  const parts = [field.column!, base];
  if (!nullable) parts.push("NOT NULL");
  const fallback = defaultSql(field);
  if (fallback !== null) parts.push(`DEFAULT ${fallback}`);
  if (field.unique) parts.push("UNIQUE");
  if (field.kind === "fk") {
    const action = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL" }[field.onDelete ?? "protect"];
    parts.push(`REFERENCES ${field.target!().table}(id) ON DELETE ${action}`);
  }
  return parts.join(" ");
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
 * The DDL a model needs: its table, indexes for fks and multi-field uniqueness, and the through
 * tables of its own m2m fields. `scripts/make-migration.ts` prints it for a new model; migrations
 * are then committed as files and never edited, and a test checks they still match the registry.
 */
export function modelDdl(model: Model): string[] {
  const columns = ["id INTEGER PRIMARY KEY AUTOINCREMENT"];
  for (const field of model.fields) if (field.column) columns.push(columnSql(field));
  for (const [name, decl] of Object.entries(model.storage ?? {})) columns.push(`${name} ${decl}`);
  const out = [`CREATE TABLE ${model.table} (\n  ${columns.join(",\n  ")}\n)`];
  for (const field of model.fields) {
    if (field.kind === "fk" && !field.unique) out.push(`CREATE INDEX ${model.table}_${field.column} ON ${model.table}(${field.column})`);
  }
  for (const u of model.uniqueTogether ?? []) {
    const cols = u.fields.map((name) => {
      const f = model.field[name];
      return f.nullable ? `coalesce(${f.column}, 0)` : f.column;
    });
    out.push(`CREATE UNIQUE INDEX ${model.table}_${u.fields.join("_")} ON ${model.table}(${cols.join(", ")})`);
  }
  for (const field of model.fields) {
    const t = field.through;
    if (field.kind !== "m2m" || !t || t.objectTypeColumn) continue;
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

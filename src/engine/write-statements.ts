import type { Field, Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { isOperationNodeSource, sql, type RawBuilder } from "kysely";
import type { Statement } from "../db/database.ts";
import { qb, Slot, Template } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { columnsOf, KINDS } from "../schema/kinds/index.ts";
import type { Values } from "../schema/hooks.ts";
import { idList } from "./select.ts";

type Sql = RawBuilder<unknown>;

/**
 * The id a create just assigned, as SQL usable by later statements of the same write batch.
 * Tables are AUTOINCREMENT, so `sqlite_sequence` holds the newest id until the next insert into
 * the same table; a batch runs in one transaction, so no other writer can come between.
 */
export const insertedId = (model: Model): Sql => sql`(SELECT seq FROM sqlite_sequence WHERE name = ${model.table})`;

/** An object being written, as far as its stored columns go. */
export interface StoredObject {
  /** Its id, or null for a create. */
  readonly id: number | null;
  readonly values: Values;
  /** Stored columns beyond the fields' own (hooks' columns), written as given. */
  readonly columns: Readonly<Record<string, unknown>>;
}

/** Column to value for the stored fields `values` sets, plus engine-set times and hook columns. */
export function storedColumns(ctx: Actor, model: Model, { id, values, columns: extra }: StoredObject): Map<string, unknown> {
  const creating = id === null;
  const columns = new Map<string, unknown>();
  for (const field of model.fields) {
    if (field.autoNow === "always" || (field.autoNow === "create" && creating)) columns.set(field.column!, ctx.now.toISOString());
    else if (values[field.name] !== undefined) KINDS[field.kind].input?.store?.(field, values[field.name], columns);
  }
  for (const [column, value] of Object.entries(extra)) columns.set(column, value);
  return columns;
}

/**
 * Aborts the write transaction unless `condition` holds, by inserting into a table whose CHECK
 * refuses every row: SQLite has no RAISE outside triggers, and the named constraint tells the
 * engine which precondition failed (see `migrations/0002_engine.sql`).
 */
export function guardStatement(constraint: GuardName, failing: Sql): Statement {
  return guardSql(constraint, failing).compile(qb);
}

export type GuardName = "gone" | "stale" | "denied";

/** `guardStatement`'s SQL, for a template. */
export const guardSql = (constraint: GuardName, failing: Sql): Sql =>
  sql`INSERT INTO engine_guard (${sql.ref(constraint)}) SELECT 1 WHERE ${failing}`;

/** A nested-group row's depth: one below its parent's. */
const depthSql = (model: Model, parent: unknown) =>
  sql`coalesce((SELECT x._depth + 1 FROM ${sql.table(model.table)} x WHERE x.id = ${parent ?? null}), 0)`;

/**
 * Statements of one row's write, by model and the columns written: built once, bound per row, so
 * a bulk write of a thousand objects compiles its INSERT or UPDATE once, not a thousand times.
 */
const rowTemplates = new Map<string, Template>();

// Hooks' columns make the written sets; a bound keeps a pathological mix from holding memory.
const rowTemplate = (key: string, build: () => Sql): Template => remembered(rowTemplates, key, () => new Template(build()), 1000);

/**
 * Columns whose values are SQL (an allocation's pick of the first free candidate) are part of the
 * statement's text, not parameters: their row is compiled as it comes.
 */
const hasSql = (columns: Map<string, unknown>): boolean => [...columns.values()].some(isOperationNodeSource);

/** The values of `columns`, keyed for a row template's slots (`c:<column>`). */
const slotsOf = (columns: Map<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...extra };
  for (const [column, value] of columns) out[`c:${column}`] = value;
  return out;
};

export function insertStatement(model: Model, columns: Map<string, unknown>): Statement {
  const build = (value: (column: string) => unknown) => {
    const names = [...columns.keys()].map((c) => sql.ref(c));
    const values = [...columns.keys()].map((c) => sql`${value(c)}`);
    if (model.tree) {
      names.push(sql.ref("_depth"));
      values.push(depthSql(model, value("parent_id")));
    }
    if (!names.length) return sql`INSERT INTO ${sql.table(model.table)} DEFAULT VALUES`;
    return sql`INSERT INTO ${sql.table(model.table)} (${sql.join(names)}) VALUES (${sql.join(values)})`;
  };
  if (hasSql(columns)) return build((c) => columns.get(c)).compile(qb);
  const template = rowTemplate(`insert ${model.objectType} ${[...columns.keys()].join(",")}`, () => build((c) => new Slot(`c:${c}`)));
  return template.bind(slotsOf(columns));
}

/** A row to insert: its columns, and the statements that must follow its own INSERT (its m2m links, naming it by `insertedId`). */
export interface InsertedRow {
  readonly columns: Map<string, unknown>;
  readonly after: readonly Statement[];
}

/** Columns a create leaves NULL when it gives no value: those of nullable multi-column fields (a generic relation), which have no DEFAULT. */
const nullColumns = new Map<Model, ReadonlySet<string>>();

/** A value that travels exactly as JSON into a row of `insertRowsStatement` (SQLite reads booleans as 1 and 0). */
const jsonExact = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "boolean" || Number.isSafeInteger(value);

/**
 * The INSERTs of a create's rows, in input order: consecutive rows with the same columns whose
 * values are plain (strings, integers, booleans, NULL) go in one statement, their values as one
 * JSON parameter (a bulk of a thousand is one statement, not a thousand); a row with values that
 * are SQL (an allocation's pick) or other numbers, or with statements to follow (m2m links), has
 * its own. The ids are given in input order either way.
 */
export function insertRowsStatements(model: Model, rows: readonly InsertedRow[]): Statement[] {
  const fillable = remembered(
    nullColumns,
    model,
    () => new Set(model.fields.filter((f) => f.nullable && KINDS[f.kind].storage?.columns).flatMap((f) => columnsOf(f).map(([c]) => c))),
  );
  // The columns a row's own columns make, with those left NULL added: worked out once per shape,
  // one array for the same columns however the row gave them.
  const shapes = new Map<string, readonly string[]>();
  const namesOf = ({ columns, after }: InsertedRow): readonly string[] | null => {
    if (!columns.size || after.length || ![...columns.values()].every(jsonExact)) return null;
    const own = [...columns.keys()].join(",");
    let names = shapes.get(own);
    if (!names) {
      const all = [...new Set([...columns.keys(), ...fillable])].sort();
      const key = all.join(",");
      names = shapes.get(key) ?? all;
      shapes.set(own, names).set(key, names);
    }
    return names;
  };
  return runsOf(rows, namesOf).flatMap(({ names, rows: run }) => {
    if (!names) return [insertStatement(model, run[0].columns), ...run[0].after];
    if (run.length === 1) return [insertStatement(model, new Map(names.map((c) => [c, run[0].columns.get(c) ?? null])))];
    return [
      insertRowsStatement(
        model,
        names,
        run.map(({ columns }) => names.map((c) => columns.get(c) ?? null)),
      ),
    ];
  });
}

/**
 * Rows in runs, in order: consecutive rows of the same columns (`namesOf`, the same array for the
 * same columns) go in one run, which holds each `idOf` once; a row of no columns to share (null:
 * values that are SQL, statements to follow) is a run of its own.
 */
function runsOf<R>(
  rows: readonly R[],
  namesOf: (row: R) => readonly string[] | null,
  idOf?: (row: R) => unknown,
): { names: readonly string[] | null; rows: R[] }[] {
  const runs: { names: readonly string[] | null; rows: R[] }[] = [];
  // The ids in the last run, the only one rows join.
  let ids = new Set<unknown>();
  for (const row of rows) {
    const names = namesOf(row);
    const id = idOf?.(row);
    const last = runs[runs.length - 1];
    if (names && last?.names === names && !(idOf && ids.has(id))) last.rows.push(row);
    else {
      runs.push({ names, rows: [row] });
      ids = new Set();
    }
    if (idOf) ids.add(id);
  }
  return runs;
}

/** One INSERT of many rows with the same columns, in the order given, from one JSON parameter. */
function insertRowsStatement(model: Model, names: readonly string[], values: readonly unknown[][]): Statement {
  const build = () => {
    const at = new Map(names.map((c, i) => [c, i]));
    const value = (c: string) => (at.has(c) ? sql`j.value ->> ${sql.lit(at.get(c)!)}` : sql`NULL`);
    const columns = names.map((c) => sql.ref(c));
    const selected = names.map((c) => value(c));
    if (model.tree) {
      columns.push(sql.ref("_depth"));
      selected.push(depthSql(model, value("parent_id")));
    }
    return sql`INSERT INTO ${sql.table(model.table)} (${sql.join(columns)})
      SELECT ${sql.join(selected)} FROM json_each(${new Slot("rows")}) j ORDER BY j.key`;
  };
  return rowTemplate(`insert rows ${model.objectType} ${names.join(",")}`, build).bind({ rows: JSON.stringify(values) });
}

/** A row to update: its id, the columns it sets, and the statements that follow its UPDATE (its m2m links). */
export interface UpdatedRow extends InsertedRow {
  readonly id: number;
}

/**
 * The UPDATEs of an update's rows: consecutive rows setting the same columns to plain values go in
 * one `UPDATE ... FROM json_each(...)`, each row's m2m links after it; others (values that are SQL,
 * a nested group's parent, which moves its depth) have their own UPDATE. Each row is written as
 * its own UPDATE would write it, triggers included.
 */
export function updateRowsStatements(model: Model, rows: readonly UpdatedRow[]): Statement[] {
  const shapes = new Map<string, readonly string[]>();
  const namesOf = ({ columns }: UpdatedRow): readonly string[] | null => {
    if (!columns.size || (model.tree && columns.has("parent_id")) || ![...columns.values()].every(jsonExact)) return null;
    const key = [...columns.keys()].join(",");
    let names = shapes.get(key);
    if (!names) shapes.set(key, (names = [...columns.keys()]));
    return names;
  };
  // A row listed twice is updated twice, in order, as its own UPDATEs would (one UPDATE ... FROM would pick one).
  return runsOf(rows, namesOf, (row) => row.id).flatMap(({ names, rows: run }) => {
    const after = run.flatMap((row) => row.after);
    if (!names || run.length === 1) {
      const update = updateStatement(model, run[0].id, run[0].columns);
      return [...(update ? [update] : []), ...after];
    }
    return [
      updateRowsStatement(
        model,
        names,
        run.map(({ id, columns }) => [id, ...names.map((c) => columns.get(c))]),
      ),
      ...after,
    ];
  });
}

/** One UPDATE of many rows setting the same columns, from one JSON parameter of `[id, values...]` rows. */
function updateRowsStatement(model: Model, names: readonly string[], values: readonly unknown[][]): Statement {
  const build = () => {
    const t = model.table;
    const sets = names.map((c, i) => sql`${sql.ref(c)} = j.value ->> ${sql.lit(i + 1)}`);
    return sql`UPDATE ${sql.table(t)} SET ${sql.join(sets)} FROM json_each(${new Slot("rows")}) j WHERE ${sql.ref(`${t}.id`)} = j.value ->> 0`;
  };
  return rowTemplate(`update rows ${model.objectType} ${names.join(",")}`, build).bind({ rows: JSON.stringify(values) });
}

/** UPDATE of one row; null when the change sets no stored column (an m2m-only change). */
export function updateStatement(model: Model, id: number, columns: Map<string, unknown>): Statement | null {
  if (!columns.size) return null;
  const build = (value: (column: string) => unknown, row: unknown) => {
    const sets = [...columns.keys()].map((c) => sql`${sql.ref(c)} = ${value(c)}`);
    if (model.tree && columns.has("parent_id")) sets.push(sql`_depth = ${depthSql(model, value("parent_id"))}`);
    return sql`UPDATE ${sql.table(model.table)} SET ${sql.join(sets)} WHERE id = ${row}`;
  };
  if (hasSql(columns)) return build((c) => columns.get(c), id).compile(qb);
  const template = rowTemplate(`update ${model.objectType} ${[...columns.keys()].join(",")}`, () =>
    build((c) => new Slot(`c:${c}`), new Slot("id")),
  );
  return template.bind(slotsOf(columns, { id }));
}

/** Recomputes every depth of a nested-group table after a parent moved (descendants move too). */
export function depthRefreshStatement(model: Model): Statement {
  const table = sql.table(model.table);
  return sql`WITH RECURSIVE tree(id, depth) AS (
      SELECT id, 0 FROM ${table} WHERE parent_id IS NULL
      UNION ALL SELECT c.id, tree.depth + 1 FROM ${table} c JOIN tree ON c.parent_id = tree.id)
    UPDATE ${table} SET _depth = (SELECT depth FROM tree WHERE tree.id = ${sql.ref(`${model.table}.id`)})
    WHERE _depth IS NOT (SELECT depth FROM tree WHERE tree.id = ${sql.ref(`${model.table}.id`)})`.compile(qb);
}

/** An object's new m2m set: its id (or SQL for a create's), the related ids, and whether a stored set is replaced. */
export interface M2mSet {
  readonly objectId: number | Sql;
  readonly ids: readonly number[];
  readonly replacing: boolean;
}

/** Statements replacing an object's m2m set (all of it: `tags: []` clears). */
export function m2mStatements(model: Model, field: Field, { objectId, ids, replacing }: M2mSet): Statement[] {
  const t = field.through!;
  const typed = t.objectTypeColumn;
  const out: Statement[] = [];
  if (replacing) {
    out.push(
      sql`DELETE FROM ${sql.table(t.table)} WHERE ${sql.ref(t.source)} = ${objectId}${typed ? sql` AND ${sql.ref(typed)} = ${model.objectType}` : sql``}`.compile(
        qb,
      ),
    );
  }
  if (ids.length) {
    const cols = [sql.ref(t.source), sql.ref(t.target), ...(typed ? [sql.ref(typed)] : [])];
    const vals = [sql`${objectId}`, sql`value`, ...(typed ? [sql`${model.objectType}`] : [])];
    out.push(
      sql`INSERT INTO ${sql.table(t.table)} (${sql.join(cols)}) SELECT ${sql.join(vals)} FROM json_each(${JSON.stringify(ids)})`.compile(
        qb,
      ),
    );
  }
  return out;
}

/** Deletes rows of a model and the tag links no foreign key would remove. */
export function deleteStatements(model: Model, ids: readonly number[]): Statement[] {
  const out: Statement[] = [];
  if (model.field.tags) {
    out.push(sql`DELETE FROM extras_taggeditem WHERE object_type = ${model.objectType} AND object_id IN ${idList(ids)}`.compile(qb));
  }
  out.push(sql`DELETE FROM ${sql.table(model.table)} WHERE id IN ${idList(ids)}`.compile(qb));
  return out;
}

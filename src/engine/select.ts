import type { SelectContext, Field, Model, Registry } from "../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { columnsOf, KINDS, selectKey } from "../schema/kinds/index.ts";
import { MAX_NESTING } from "../schema/kinds/limits.ts";
import { frozen, qb } from "../db/query-builder.ts";
import type { Row } from "../db/database.ts";
import { remembered } from "../lib/memo.ts";

type Sql = RawBuilder<unknown>;

/** `id IN` a list of any length: one JSON parameter, so no statement meets SQLite's variable cap. */
export const idList = (ids: Iterable<unknown>): Sql => sql`(SELECT value FROM json_each(${JSON.stringify([...ids])}))`;

/**
 * A JSON object from key/expression pairs, as text or as JSONB (`flavour`). SQLite caps a function
 * at 127 arguments, so an object of more than 63 members is built in chunks; `json_insert` (unlike
 * `json_patch`) keeps null members. Each chunk beyond the first parses the object built so far
 * again: an interface's 61 members in chunks of 60 and 1 made its 1,000-row page statement take
 * 14.2 ms, against 10.7 ms in one call (measured).
 */
export function jsonObjectSql(pairs: readonly [string, Sql][], flavour: "json" | "jsonb" = "json"): Sql {
  // json_object takes keys, json_insert paths.
  const args = (chunk: readonly [string, Sql][], key: (k: string) => string) => sql.join(chunk.flatMap(([k, x]) => [sql.lit(key(k)), x]));
  let out = sql`${sql.raw(flavour)}_object(${args(pairs.slice(0, MEMBERS_PER_CALL), (k) => k)})`;
  for (let i = MEMBERS_PER_CALL; i < pairs.length; i += MEMBERS_PER_CALL)
    out = sql`${sql.raw(flavour)}_insert(${out}, ${args(pairs.slice(i, i + MEMBERS_PER_CALL), (k) => `$."${k}"`)})`;
  return out;
}

/** Key/value pairs one JSON function call takes: 126 of SQLite's 127 arguments. */
const MEMBERS_PER_CALL = 63;

/**
 * What a field's `select` may ask at `depth` of nesting. Nested objects come as JSONB: an
 * enclosing JSON function takes a JSONB value as it is, where text from a subquery (which loses
 * its JSON subtype) had to be parsed again through `json()`, at every level (8-15 % of a page's
 * statement, measured).
 */
export const selectContext = (
  registry: Registry,
  depth: number,
  { customFieldTypes = null, customFields = true }: SelectOptions = {},
  joins: Joins | null = null,
  key: string | null = null,
): SelectContext => ({
  depth,
  nestedJson: nestedSubquery,
  relatedJson: (model, id, depth) =>
    joins && depth === 1 ? (key !== null && joins.share(key, model, id)) || joins.join(model, id) : nestedSubquery(model, id, depth),
  nestedObject: nestedObjectSql,
  anyNestedJson: (type, id, depth, among) => anyNestedJsonSql(registry, type, id, { depth, among }),
  byType: registry.byObjectType,
  customFieldTypes,
  customFields,
  // Only a list page's statement reads its rows through joins; it names its page's ids in a CTE
  // only when a field asks for them: SQLite materializes the CTE (the brief 50-site statement
  // took 0.101 against 0.093 ms with it).
  get page() {
    if (!joins || depth !== 0) return null;
    joins.paged = true;
    return PAGE_IDS;
  },
});

/** The CTE of a list page's statement that holds the page's ids (`listStatements`). */
export const PAGE_IDS = "__page";

/**
 * `value` on one row of the page the CTE `page` names (its lowest id), NULL on the others: what
 * the whole page shares, computed once and carried once (config contexts, related objects).
 */
export const onFirstRowOfPage = (table: string, page: string, value: Sql): Sql =>
  sql`CASE WHEN ${sql.ref(`${table}.id`)} = (SELECT min(id) FROM ${sql.raw(page)}) THEN ${value} END`;

/** Models whose objects may be named at run time (custom fields' related objects): not per-user ones (tokens). */
export const nameableModels = (registry: Registry): readonly Model[] => registry.models.filter((m) => !m.sensitive);

const anyNestedCaches = new WeakMap<Registry, Map<string, Sql>>();

/**
 * The nested JSON of an object whose model is named at run time (`type` is SQL giving `app.model`,
 * as a custom field's related object type): one branch per model. The branches depend only on
 * the frozen registry and the depth, so their SQL is compiled once and reused as text.
 */
export function anyNestedJsonSql(
  registry: Registry,
  type: Sql,
  id: Sql,
  { depth, among }: { depth: number; among?: readonly string[] },
): Sql {
  let anyNestedCache = anyNestedCaches.get(registry);
  if (!anyNestedCache) anyNestedCaches.set(registry, (anyNestedCache = new Map()));
  // Cached by depth, models and the SQL naming the type and id (column references, without parameters).
  const key = `${depth} ${among?.join(",") ?? "*"} ${type.compile(qb).sql} ${id.compile(qb).sql}`;
  let cases = anyNestedCache.get(key);
  if (!cases) {
    const models = nameableModels(registry).filter((m) => !among || among.includes(m.objectType));
    const branches = models.map((m) => sql`WHEN ${sql.lit(m.objectType)} THEN ${nestedSubquery(m, id, depth)}`);
    // No subquery around the CASE: every level of nesting counts against SQLite's parser depth.
    const built = sql`CASE ${type} ${sql.join(branches, sql` `)} END`;
    const compiled = built.compile(qb);
    cases = compiled.parameters.length || !models.length ? built : sql.raw(compiled.sql);
    if (models.length) anyNestedCache.set(key, cases);
  }
  return cases;
}

/** What the nested form of one field needs from a row under `alias`, by key. */
function nestedPairs(registry: Registry, field: Field, alias: string, depth: number): [string, Sql][] {
  const read = KINDS[field.kind].read;
  const out: [string, Sql][] = columnsOf(field).map(([column]) => [column, sql.ref(`${alias}.${column}`)]);
  if (read && (depth < MAX_NESTING || !read.related)) {
    const expr = read.select(field, alias, selectContext(registry, depth));
    if (expr) out.push([selectKey(field), expr]);
  }
  return out;
}

/** The nested form's raw data of the row under `alias` (or the fields named), as one JSONB object. */
export function nestedObjectSql(model: Model, alias: string, depth: number, fields: readonly Field[] = model.nestedFields): Sql {
  const pairs: [string, Sql][] = [
    ["id", sql.ref(`${alias}.id`)],
    ["__display", model.displaySql(alias)],
  ];
  for (const field of fields) pairs.push(...nestedPairs(model.registry, field, alias, depth));
  // Fields sharing one value select it once.
  return jsonObjectSql([...new Map(pairs).entries()], "jsonb");
}

/** The nested form's raw data of the object whose id is `id`, or NULL, as JSON text (a column of its own). */
export const nestedJsonSql = (model: Model, id: Sql, depth: number): Sql => sql`json(${nestedSubquery(model, id, depth)})`;

/** The same as JSONB. */
function nestedSubquery(model: Model, id: Sql, depth: number): Sql {
  const alias = `n${depth}`;
  return sql`(SELECT ${nestedObjectSql(model, alias, depth)} FROM ${sql.table(model.table)} ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${id})`;
}

/**
 * What a read selects for a model's full or brief form, as one column `__row` holding a JSON
 * object (decode the rows with `rowsOf`): every stored column, `__display`, and per field whatever
 * else it needs (counts, related objects and m2m sets as nested JSON built by SQLite), so a page
 * and everything it shows come from one statement. One JSON column rather than a column each,
 * because the native driver pays per column and row to build JS values (most of a 50-row page's
 * cost, measured), while one JSON.parse of the row costs little and nested objects arrive parsed.
 */
export function selectSql(model: Model, fields: readonly Field[], options: SelectOptions = {}): Sql {
  return builtSelect(model, fields, options, false).select;
}

/**
 * `selectSql`, with the objects the row's foreign keys name read through LEFT JOINs (`joins`, to
 * follow the statement's FROM) rather than a subquery each: 11-14 % of a page's statement
 * (measured). Only for a statement whose WHERE names the read table's columns qualified, as
 * the joined tables share their names (`id`, `tenant_id`).
 */
export function joinedSelectSql(model: Model, fields: readonly Field[], options: SelectOptions = {}): JoinedSelect {
  return builtSelect(model, fields, options, true);
}

/** A select with the joins to follow its FROM, whether it reads the page's ids (`PAGE_IDS`) and what else that CTE must hold. */
export interface JoinedSelect {
  readonly select: Sql;
  readonly joins: Sql;
  readonly paged: boolean;
  /** Columns of each page row the CTE names after `id` (`Joins.pageColumns`). */
  readonly pageColumns: readonly Sql[];
}

/** SQL naming one column of a table, `"table"."column"`. */
const PLAIN_COLUMN = /^"[^"]+"\."[^"]+"$/;

function builtSelect(model: Model, fields: readonly Field[], options: SelectOptions, joined: boolean): JoinedSelect {
  const { table = model.table, customFieldTypes = null, customFields = true } = options;
  // Built and compiled once per shape, then reused as text: compiling this select (nested JSON of
  // every related model) was most of the CPU a detail or list read cost on the thread answering
  // HTTP. It depends only on the frozen registry and its arguments (its parameters are constants).
  const key = `${model.objectType} ${table} ${joined} ${customFields} ${customFieldTypes?.join(",") ?? "*"} ${fieldsKey(fields)}`;
  // `?fields=` makes shapes from the query string: a bound on them bounds the memory.
  return remembered(
    selectCache,
    key,
    () => {
      const joins = joined ? new Joins() : null;
      const select = frozen(buildSelectSql(model, fields, { table, customFieldTypes, customFields }, joins));
      return {
        select,
        joins: joins ? frozen(sql.join(joins.clauses, sql` `)) : sql``,
        paged: joins?.paged ?? false,
        pageColumns: joins?.pageColumns.map(frozen) ?? [],
      };
    },
    256,
  );
}

/**
 * The LEFT JOINs a select reads related objects through, each under an alias of its own, and the
 * related objects a list page reads once for all its rows (`share`).
 */
export class Joins {
  readonly clauses: Sql[] = [];
  /** A field read the page's ids (`SelectContext.page`). */
  paged = false;
  /** The relations read once per page, by the row member that holds their id. */
  readonly shared = new Map<string, { readonly model: Model; readonly id: Sql }>();

  /**
   * The id of the object `id` names, as member `key` of the row, its object read once for the
   * whole page into the first row's `__related` (`relatedSql`; `rowsOf` puts it back in place):
   * the rows of a page name few distinct objects (50 devices, one tenant, a few sites and types),
   * and SQLite built, and JavaScript parsed and shaped, each of them once per row. Null when the
   * member already holds a relation (a field naming two).
   */
  share(key: string, model: Model, id: Sql): Sql | null {
    // Only a column of the row: the page's CTE reads it (`pageColumns`) for every row it sorts.
    if (this.shared.has(key) || !PLAIN_COLUMN.test(id.compile(qb).sql)) return null;
    this.shared.set(key, { model, id });
    return id;
  }

  /** What the page's CTE reads beside each row's id: the ids of its shared related objects, as `k0`, `k1`, ... */
  get pageColumns(): Sql[] {
    return [...this.shared.values()].map(({ id }, i) => sql`${id} AS ${sql.raw(`k${i}`)}`);
  }

  /**
   * The related objects of the page's rows (`share`), as a JSONB object of the row members' keys,
   * each an object of the related objects' nested forms by id; only on the row of the page's
   * lowest id, NULL on the others. `owner`'s rows are read under `table` in the statement.
   */
  relatedSql(table: string): Sql {
    this.paged = true;
    const page = sql.raw(PAGE_IDS);
    // The page's CTE holds the ids (`pageColumns`): one pass over each of its few rows per relation
    // (an IN over the page's rows themselves cost 20 us a relation, 14 of them on a device).
    const maps = [...this.shared].map(([key, { model }], i): [string, Sql] => {
      const alias = `s${i}`;
      const ref = sql.ref(`${alias}.id`);
      return [
        key,
        sql`(SELECT jsonb_group_object(${ref}, ${nestedObjectSql(model, alias, 1)}) FROM ${sql.table(model.table)} ${sql.raw(alias)}
          WHERE ${ref} IN (SELECT ${sql.raw(`k${i}`)} FROM ${page}))`,
      ];
    });
    return onFirstRowOfPage(table, PAGE_IDS, jsonObjectSql(maps, "jsonb"));
  }

  /** The nested JSONB of the object `id` names (`object` of its alias; default its raw nested form), or NULL, read through a new join. */
  join(model: Model, id: Sql, object: (alias: string) => Sql = (alias) => nestedObjectSql(model, alias, 1)): Sql {
    const alias = `j${this.clauses.length}`;
    const ref = sql.ref(`${alias}.id`);
    this.clauses.push(sql`LEFT JOIN ${sql.table(model.table)} ${sql.raw(alias)} ON ${ref} = ${id}`);
    return sql`CASE WHEN ${ref} IS NULL THEN NULL ELSE ${object(alias)} END`;
  }
}

export interface SelectOptions {
  /** The name or alias the model's row is read under (default: its table). */
  readonly table?: string;
  /**
   * The related types the model's object custom fields name, as the requester's `ObjectFields`
   * say (none: no branch at all); null (default): any registered type. Each type costs every
   * execution of the statement, executed or not: resolving any type made a site's detail 2.5x
   * slower to run than without custom fields, though it had none.
   */
  readonly customFieldTypes?: readonly string[] | null;
  /**
   * Whether the model may have custom fields defined (default true). Without any, its custom
   * fields read as `{}`, a constant: asking the definitions cost every row of a page a subquery,
   * though it found none (1.4 of a 1,000-interface page statement's 11.4 ms, measured).
   */
  readonly customFields?: boolean;
}

const selectCache = new Map<string, JoinedSelect>();

const fieldKeys = new WeakMap<readonly Field[], string>();

/**
 * The fields read, as part of a shape's cache key: each field's owner and name. The full and
 * brief forms' lists are the model's own arrays, so theirs is joined once, not per request.
 */
export function fieldsKey(fields: readonly Field[]): string {
  let key = fieldKeys.get(fields);
  if (key === undefined) {
    key = fields.map((field) => `${field.ownerType}.${field.name}`).join(",");
    fieldKeys.set(fields, key);
  }
  return key;
}

/**
 * Marks a related object that rows of a page share (`rowsOf`), for its shape to be made once
 * (serialize.ts keeps it there).
 */
export const SHARED = Symbol("shared");

/** The member of a list page's first row that holds the objects its rows share (`Joins.relatedSql`). */
const RELATED = "__related";

/** That member: by row member, the related objects by id (null where the page names none). */
type Related = Record<string, Record<string, Row> | null>;

/**
 * The rows of a statement that selected `selectSql`: its object's members, and any other columns
 * beside it. The related objects a page read once (`Joins.share`) go in place of their ids, the
 * same object in each row that names it.
 */
export function rowsOf(rows: readonly Row[]): Row[] {
  let related: Related | null = null;
  const out: Row[] = [];
  for (const { __row, ...rest } of rows) {
    const row = Object.assign(JSON.parse(String(__row)) as Row, rest);
    if (row[RELATED] !== undefined) {
      related ??= row[RELATED] as Related | null;
      // Not deleted: a deleted member turns the row into a dictionary, which shaping then read 3x slower.
      row[RELATED] = undefined;
    }
    out.push(row);
  }
  if (related) {
    for (const [key, objects] of Object.entries(related)) {
      if (!objects) continue;
      for (const object of Object.values(objects)) (object as Record<symbol, unknown>)[SHARED] = null;
      for (const row of out) {
        const id = row[key];
        if (id !== null && id !== undefined) row[key] = objects[id as string] ?? id;
      }
    }
  }
  return out;
}

/** Every column of a model's table: `id`, its fields' columns, and those it stores besides (`storage`). */
function tableColumns(model: Model): readonly string[] {
  let columns = tableColumnCache.get(model);
  if (!columns) {
    columns = [
      ...new Set([
        "id",
        ...model.fields.flatMap((field) => columnsOf(field).map(([column]) => column)),
        ...Object.keys(model.storage ?? {}),
      ]),
    ];
    tableColumnCache.set(model, columns);
  }
  return columns;
}

const tableColumnCache = new WeakMap<Model, readonly string[]>();

function buildSelectSql(model: Model, fields: readonly Field[], options: Required<SelectOptions>, joins: Joins | null): Sql {
  const columns = tableColumns(model);
  const { table } = options;
  const pairs = new Map<string, Sql>(columns.map((column) => [column, sql.ref(`${table}.${column}`)]));
  pairs.set("__display", model.displaySql(table));
  for (const field of fields) {
    const key = selectKey(field);
    if (pairs.has(key) && !columns.includes(key)) continue;
    const expr = KINDS[field.kind].read?.select(field, table, selectContext(model.registry, 0, options, joins, key));
    if (expr) pairs.set(key, expr);
  }
  if (joins?.shared.size) pairs.set(RELATED, joins.relatedSql(table));
  return sql`${jsonObjectSql([...pairs])} AS __row`;
}

/** The object's change-record snapshot as JSON, from its stored row under `table`. */
export function snapshotSql(model: Model, table = model.table): Sql {
  // Write-only fields (a webhook's secret) stay out of change records, which others may read.
  return jsonObjectSql(model.fields.filter((field) => !field.writeOnly).flatMap((field) => KINDS[field.kind].snapshot(field, table)));
}

/** The ids of `ids` and of every descendant, for a nested-group (tree) model. */
export function subtreeSql(model: Model, ids: Sql): Sql {
  const table = sql.table(model.table);
  return sql`(WITH RECURSIVE subtree(id) AS (SELECT id FROM ${table} WHERE id IN ${ids} UNION SELECT c.id FROM ${table} c JOIN subtree ON c.parent_id = subtree.id) SELECT id FROM subtree)`;
}

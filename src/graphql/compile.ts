import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import {
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  type GraphQLField,
  type GraphQLObjectType,
  isObjectType,
  type OperationDefinitionNode,
} from "graphql";
import { collectFields, collectSubfields } from "graphql/execution/collectFields.js";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { scopeSql } from "../engine/scope.ts";
import { planOrdering } from "../engine/filters.ts";
import { jsonObjectSql } from "../engine/select.ts";
import type { GraphSchema, Reading } from "./schema.ts";
import { filterCondition } from "./filter-sql.ts";
import { typeName } from "./names.ts";

type Sql = RawBuilder<unknown>;
type Variables = Record<string, unknown>;

/*
 * A query compiled into one statement. Every selection of objects is a node with two common
 * table expressions: its rows (`r`: each row's parent id, id and place among its siblings, found
 * from the parent's rows by the relation, within the requester's view scope, filtered, ordered
 * and paged per parent) and their JSON (`j`: one object per row, its related objects joined in
 * from the nodes below, already aggregated per parent). The statement is as deep as one node
 * however deep the query: SQLite's parser, which overflows on subqueries nested some six deep,
 * never sees more than one level, and each level costs one pass over the rows it selects.
 */

/** A finishing step of a value after SQL built it (a config context's merge), applied in place. */
type Post = (value: unknown) => unknown;

/** One root field of a query: where its JSON is in the statement's row, and what a missing object means. */
export interface CompiledRoot {
  readonly key: string;
  /** A detail field's model: its null answer is "matching query does not exist". */
  readonly detail: Model | null;
  readonly node: FieldNode;
  readonly post: Post | null;
}

/** A query compiled into one statement: one column per root field, each its JSON. */
export interface CompiledQuery {
  readonly statement: Statement | null;
  readonly roots: readonly CompiledRoot[];
  /** Root fields answered by graphql-js (introspection: `__schema`, `__type`). */
  readonly introspection: boolean;
  readonly cost: number;
}

/** What a list counts for in a query's cost when it gives no limit: at the root, and below another object. */
const ROOT_LIST = 100;
const NESTED_LIST = 20;

interface Compiler {
  readonly gs: GraphSchema;
  readonly ctx: Actor;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly variables: Variables;
  /** The common table expressions so far, each after those it reads. */
  readonly ctes: Sql[];
  /** A name not used before in the statement. */
  next(prefix: string): string;
}

/**
 * Compiles a validated operation into one SELECT whose columns are the JSON of its root fields.
 * Values are parameters; nothing runs here.
 */
export function compileOperation(
  gs: GraphSchema,
  ctx: Actor,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Variables,
): CompiledQuery {
  let names = 0;
  const c: Compiler = { gs, ctx, fragments, variables, ctes: [], next: (prefix) => `${prefix}${names++}` };
  const queryType = gs.schema.getQueryType()!;
  const fields = collectFields(gs.schema, fragments, variables, queryType, operation.selectionSet);
  const columns: Sql[] = [];
  const roots: CompiledRoot[] = [];
  let introspection = false;
  let cost = 0;
  for (const [key, nodes] of fields) {
    const node = nodes[0];
    const name = node.name.value;
    if (name === "__schema" || name === "__type") {
      introspection = true;
      continue;
    }
    const column = sql.raw(`c${columns.length}`);
    if (name === "__typename") {
      columns.push(sql`json_quote('Query') AS ${column}`);
      roots.push({ key, detail: null, node, post: null });
      continue;
    }
    const root = gs.roots.get(name)!;
    const args = getArgumentValues(queryType.getFields()[name], node, variables);
    const type = gs.schema.getType(typeName(root.model)) as GraphQLObjectType;
    const alias = c.next("g");
    const table = sql`${sql.table(root.model.table)} AS ${sql.raw(alias)}`;
    let rows: Sql;
    if (root.list) {
      const { where, order, page } = listOf(c, root.model, alias, null, args);
      rows = sql`SELECT 0 AS pid, ${ref(alias, "id")} AS id, row_number() OVER (ORDER BY ${order}) AS ord FROM ${table} WHERE ${where}
        ORDER BY ${order} LIMIT ${page.limit ?? -1} OFFSET ${page.offset}`;
      const built = nodeSql(c, type, nodes, rows);
      const list = aggregate(c, built.j, built.r, true);
      columns.push(sql`coalesce((SELECT v FROM ${sql.raw(list)}), '[]') AS ${column}`);
      roots.push({ key, detail: null, node, post: listPost(built.post) });
      cost += (page.limit ?? ROOT_LIST) * (1 + built.cost);
    } else {
      const id = /^\d{1,15}$/.test(String(args.id)) ? Number(args.id) : -1;
      rows = sql`SELECT 0 AS pid, ${ref(alias, "id")} AS id, 1 AS ord FROM ${table} WHERE ${ref(alias, "id")} = ${id} AND ${scopeSql(ctx, root.model, "view", alias)}`;
      const built = nodeSql(c, type, nodes, rows);
      columns.push(sql`(SELECT j FROM ${sql.raw(built.j)}) AS ${column}`);
      roots.push({ key, detail: root.model, node, post: built.post });
      cost += 1 + built.cost;
    }
  }
  const statement = columns.length
    ? (c.ctes.length ? sql`WITH ${sql.join(c.ctes)} SELECT ${sql.join(columns)}` : sql`SELECT ${sql.join(columns)}`).compile(qb)
    : null;
  return { statement, roots, introspection, cost };
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** What a node gave: the names of its rows and JSON, what finishes its objects and what it costs per row. */
interface Node {
  readonly r: string;
  readonly j: string;
  readonly post: Post | null;
  readonly cost: number;
}

/** A join of a node below into this one's JSON: the CTE aggregated per parent, and the SQL reading its value. */
interface Joined {
  readonly cte: string;
  readonly alias: string;
}

/**
 * A node: its rows (`rows`, a SELECT of `pid, id, ord`), the nodes of the relations it selects,
 * then one JSON object per distinct row with the fields the field nodes select.
 */
function nodeSql(c: Compiler, type: GraphQLObjectType, nodes: readonly FieldNode[], rows: Sql): Node {
  const model = c.gs.models.get(type.name)!;
  const r = c.next("r");
  c.ctes.push(sql`${sql.raw(r)} AS (${rows})`);
  const alias = c.next("g");
  const fields = collectSubfields(c.gs.schema, c.fragments, c.variables, type, nodes);
  const readings = c.gs.readings.get(type.name)!;
  const pairs: [string, Sql][] = [];
  const joins: Joined[] = [];
  const posts: [string, Post][] = [];
  let cost = 0;
  const join = (cte: string) => {
    const as = c.next("x");
    joins.push({ cte, alias: as });
    return as;
  };
  for (const [key, sub] of fields) {
    const name = sub[0].name.value;
    cost += 1;
    if (name === "__typename") {
      pairs.push([key, sql.lit(type.name)]);
      continue;
    }
    const built = fieldSql(c, readings.get(name)!, type.getFields()[name], sub, { model, r, alias }, join);
    pairs.push([key, built.sql]);
    if (built.post) posts.push([key, built.post]);
    cost += built.cost;
  }
  const j = c.next("j");
  const from = sql.join(
    [
      sql`${sql.table(model.table)} AS ${sql.raw(alias)}`,
      ...joins.map((x) => sql`LEFT JOIN ${sql.raw(x.cte)} AS ${sql.raw(x.alias)} ON ${ref(x.alias, "pid")} = ${ref(alias, "id")}`),
    ],
    sql` `,
  );
  const object = pairs.length ? jsonObjectSql(pairs) : sql`json_object()`;
  c.ctes.push(
    sql`${sql.raw(j)} AS (SELECT ${ref(alias, "id")} AS id, ${object} AS j FROM ${from} WHERE ${ref(alias, "id")} IN (SELECT id FROM ${sql.raw(r)}))`,
  );
  const post: Post | null = posts.length
    ? (value) => {
        if (value && typeof value === "object") {
          const object = value as Record<string, unknown>;
          for (const [key, p] of posts) object[key] = p(object[key]);
        }
        return value;
      }
    : null;
  return { r, j, post, cost };
}

/** A node's objects aggregated per parent: a JSON array in the rows' order, or the one object. */
function aggregate(c: Compiler, j: string, r: string, list: boolean): string {
  const name = c.next("a");
  c.ctes.push(
    list
      ? sql`${sql.raw(name)} AS (SELECT rr.pid AS pid, json_group_array(json(jj.j) ORDER BY rr.ord) AS v FROM ${sql.raw(r)} rr JOIN ${sql.raw(j)} jj ON jj.id = rr.id GROUP BY rr.pid)`
      : sql`${sql.raw(name)} AS (SELECT rr.pid AS pid, min(jj.j) AS v FROM ${sql.raw(r)} rr JOIN ${sql.raw(j)} jj ON jj.id = rr.id GROUP BY rr.pid)`,
  );
  return name;
}

const listPost = (post: Post | null): Post | null => (post ? (value) => (Array.isArray(value) ? value.map(post) : value) : null);

/** Where a field is read from: the node's model, its rows' CTE, and the alias its row is read under. */
interface Parent {
  readonly model: Model;
  readonly r: string;
  readonly alias: string;
}

interface Built {
  readonly sql: Sql;
  readonly post: Post | null;
  readonly cost: number;
}

/** The rows of the parent node, each once, joined to their table as `o`: where relations start from. */
const parentRows = (parent: Parent, o: string) =>
  sql`(SELECT DISTINCT id FROM ${sql.raw(parent.r)}) AS pr JOIN ${sql.table(parent.model.table)} AS ${sql.raw(o)} ON ${ref(o, "id")} = pr.id`;

/** The SQL of one field of the row under `parent.alias`; nodes below are joined in through `join`. */
function fieldSql(
  c: Compiler,
  reading: Reading,
  def: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  parent: Parent,
  join: (cte: string) => string,
): Built {
  const outer = parent.alias;
  switch (reading.kind) {
    case "value":
      return { sql: reading.sql(outer, 1), post: reading.finish ?? null, cost: 0 };
    case "embedded": {
      const type = getNamedType(def.type) as GraphQLObjectType;
      const pairs: [string, Sql][] = [];
      for (const [key, sub] of collectSubfields(c.gs.schema, c.fragments, c.variables, type, nodes)) {
        const name = sub[0].name.value;
        pairs.push([key, name === "__typename" ? sql.lit(type.name) : reading.fields.get(name)!(outer)]);
      }
      return { sql: sql`CASE WHEN ${reading.present(outer)} IS NOT NULL THEN ${jsonObjectSql(pairs)} END`, post: null, cost: pairs.length };
    }
    case "object": {
      const type = getNamedType(def.type) as GraphQLObjectType;
      const o = c.next("g");
      const i = c.next("g");
      const rows = sql`SELECT ${ref(o, "id")} AS pid, ${ref(i, "id")} AS id, 1 AS ord FROM ${parentRows(parent, o)}
        JOIN ${sql.table(reading.model.table)} AS ${sql.raw(i)} ON ${reading.where(i, o)} WHERE ${scopeSql(c.ctx, reading.model, "view", i)}`;
      const node = nodeSql(c, type, nodes, rows);
      const x = join(aggregate(c, node.j, node.r, false));
      return { sql: sql`json(${ref(x, "v")})`, post: node.post, cost: node.cost };
    }
    case "list": {
      const type = getNamedType(def.type) as GraphQLObjectType;
      const args = getArgumentValues(def, nodes[0], c.variables);
      const o = c.next("g");
      const i = c.next("g");
      const { where, order, page } = listOf(c, reading.model, i, sql`${reading.where(i, o)}`, args);
      const numbered = sql`SELECT ${ref(o, "id")} AS pid, ${ref(i, "id")} AS id, row_number() OVER (PARTITION BY ${ref(o, "id")} ORDER BY ${order}) AS ord
        FROM ${parentRows(parent, o)} JOIN ${sql.table(reading.model.table)} AS ${sql.raw(i)} ON ${where}`;
      const paged = page.limit !== null || page.offset > 0;
      const upper = page.limit === null ? sql`` : sql` AND ord <= ${page.offset + page.limit}`;
      const rows = paged ? sql`SELECT pid, id, ord FROM (${numbered}) WHERE ord > ${page.offset}${upper}` : numbered;
      const node = nodeSql(c, type, nodes, rows);
      const x = join(aggregate(c, node.j, node.r, true));
      return {
        sql: sql`coalesce(json(${ref(x, "v")}), json('[]'))`,
        post: listPost(node.post),
        cost: (page.limit ?? NESTED_LIST) * (1 + node.cost),
      };
    }
    case "union": {
      const o = c.next("g");
      const branches = reading.members.flatMap((model) => {
        const type = c.gs.schema.getType(typeName(model));
        if (!isObjectType(type)) return [];
        const i = c.next("g");
        const rows = sql`SELECT ${ref(o, "id")} AS pid, ${ref(i, "id")} AS id, 1 AS ord FROM ${parentRows(parent, o)}
          JOIN ${sql.table(model.table)} AS ${sql.raw(i)} ON ${reading.type(o)} = ${model.objectType} AND ${ref(i, "id")} = ${reading.id(o)}
          WHERE ${scopeSql(c.ctx, model, "view", i)}`;
        const node = nodeSql(c, type, nodes, rows);
        const x = join(aggregate(c, node.j, node.r, false));
        return [{ model, sql: sql`WHEN ${model.objectType} THEN json(${ref(x, "v")})`, cost: node.cost }];
      });
      if (!branches.length) return { sql: sql`NULL`, post: null, cost: 0 };
      return {
        sql: sql`CASE ${reading.type(outer)} ${sql.join(
          branches.map((b) => b.sql),
          sql` `,
        )} END`,
        post: null,
        cost: Math.max(...branches.map((b) => b.cost)),
      };
    }
    case "unionList": {
      // The objects the field's SQL names, in its order, each read again as its model's node.
      const o = c.next("g");
      const u = c.next("r");
      const member = (key: string, alternative: string) =>
        sql`coalesce(json_extract(e.value, ${`$.${key}`}), json_extract(e.value, ${`$.${alternative}`}))`;
      c.ctes.push(sql`${sql.raw(u)} AS (SELECT ${ref(o, "id")} AS pid, ${member("id", "object_id")} AS id, ${member("__type", "object_type")} AS type, e.key AS ord
        FROM ${parentRows(parent, o)}, json_each(${reading.sql(o, 1)}) AS e)`);
      const branches = reading.members.flatMap((model) => {
        const type = c.gs.schema.getType(typeName(model));
        if (!isObjectType(type)) return [];
        const i = c.next("g");
        const rows = sql`SELECT uu.pid AS pid, uu.id AS id, uu.ord AS ord FROM ${sql.raw(u)} uu JOIN ${sql.table(model.table)} AS ${sql.raw(i)} ON ${ref(i, "id")} = uu.id
          WHERE uu.type = ${model.objectType} AND ${scopeSql(c.ctx, model, "view", i)}`;
        const node = nodeSql(c, type, nodes, rows);
        return [{ model, node }];
      });
      const cost = NESTED_LIST * (1 + Math.max(0, ...branches.map((b) => b.node.cost)));
      if (!branches.length) return { sql: sql`json('[]')`, post: null, cost };
      const name = c.next("a");
      const joins = branches.map(
        (b, n) =>
          sql`LEFT JOIN ${sql.raw(b.node.j)} AS ${sql.raw(`m${n}`)} ON uu.type = ${b.model.objectType} AND ${sql.raw(`m${n}`)}.id = uu.id`,
      );
      const value = sql`coalesce(${sql.join(branches.map((_, n) => sql.raw(`m${n}.j`)))}, NULL)`;
      c.ctes.push(sql`${sql.raw(name)} AS (SELECT uu.pid AS pid, json_group_array(json(${value}) ORDER BY uu.ord) AS v FROM ${sql.raw(u)} uu ${sql.join(joins, sql` `)}
        WHERE ${value} IS NOT NULL GROUP BY uu.pid)`);
      const x = join(name);
      return { sql: sql`coalesce(json(${ref(x, "v")}), json('[]'))`, post: null, cost };
    }
  }
}

/** A list's condition (scope, relation, filters), order and page, for rows read under `alias`. */
function listOf(
  c: Compiler,
  model: Model,
  alias: string,
  link: Sql | null,
  args: Record<string, unknown>,
): { where: Sql; order: Sql; page: { limit: number | null; offset: number } } {
  const conditions = [...(link ? [link] : []), scopeSql(c.ctx, model, "view", alias)];
  if (args.filters) conditions.push(filterCondition(c.gs, c.ctx, model, args.filters as Record<string, unknown>, alias));
  const pagination = args.pagination as { offset?: number; limit?: number } | undefined;
  const limit = pagination?.limit !== undefined && pagination.limit >= 0 ? pagination.limit : null;
  return {
    where: sql.join(conditions, sql` AND `),
    order: sql.join(planOrdering(model, null, alias)),
    page: { limit, offset: Math.max(0, pagination?.offset ?? 0) },
  };
}

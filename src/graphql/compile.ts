import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import {
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  GraphQLError,
  type GraphQLField,
  type GraphQLObjectType,
  isObjectType,
  isUnionType,
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
  /** A table alias not used before in the statement. */
  next(): string;
}

/**
 * Compiles a validated operation into one SELECT whose columns are the JSON of its root fields,
 * each built whole by SQLite (objects, lists below lists, unions), within the requester's view
 * scope at every depth. Values are parameters; nothing runs here.
 */
export function compileOperation(
  gs: GraphSchema,
  ctx: Actor,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Variables,
): CompiledQuery {
  let aliases = 0;
  const c: Compiler = { gs, ctx, fragments, variables, next: () => `g${aliases++}` };
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
    const def = queryType.getFields()[name];
    const args = getArgumentValues(def, node, variables);
    const alias = c.next();
    const type = gs.schema.getType(typeName(root.model)) as GraphQLObjectType;
    if (root.list) {
      const built = listSql(c, root.model, type, nodes, alias, null, args, ROOT_LIST);
      columns.push(sql`${built.sql} AS ${column}`);
      roots.push({ key, detail: null, node, post: built.post });
      cost += built.cost;
    } else {
      const id = /^\d{1,15}$/.test(String(args.id)) ? Number(args.id) : -1;
      const built = objectSql(c, root.model, type, nodes, alias);
      const scope = scopeSql(ctx, root.model, "view", alias);
      columns.push(
        sql`(SELECT ${built.sql} FROM ${sql.table(root.model.table)} AS ${sql.raw(alias)} WHERE ${ref(alias, "id")} = ${id} AND ${scope}) AS ${column}`,
      );
      roots.push({ key, detail: root.model, node, post: built.post });
      cost += built.cost;
    }
  }
  const statement = columns.length ? sql`SELECT ${sql.join(columns)}`.compile(qb) : null;
  return { statement, roots, introspection, cost };
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

interface Built {
  readonly sql: Sql;
  readonly post: Post | null;
  readonly cost: number;
}

/** The JSON object of the row of `model` under `alias`, with the fields the nodes select. */
function objectSql(c: Compiler, model: Model, type: GraphQLObjectType, nodes: readonly FieldNode[], alias: string): Built {
  const fields = collectSubfields(c.gs.schema, c.fragments, c.variables, type, nodes);
  const readings = c.gs.readings.get(type.name)!;
  const pairs: [string, Sql][] = [];
  const posts: [string, Post][] = [];
  let cost = 0;
  for (const [key, sub] of fields) {
    const name = sub[0].name.value;
    cost += 1;
    if (name === "__typename") {
      pairs.push([key, sql.lit(type.name)]);
      continue;
    }
    const reading = readings.get(name)!;
    const def = type.getFields()[name];
    const built = fieldSql(c, reading, def, sub, alias);
    pairs.push([key, built.sql]);
    if (built.post) posts.push([key, built.post]);
    cost += built.cost;
  }
  const post: Post | null = posts.length
    ? (value) => {
        if (value && typeof value === "object") {
          const object = value as Record<string, unknown>;
          for (const [key, p] of posts) object[key] = p(object[key]);
        }
        return value;
      }
    : null;
  return { sql: pairs.length ? jsonObjectSql(pairs) : sql`json_object()`, post, cost };
}

/** The SQL of one field of the row under `outer`. */
function fieldSql(c: Compiler, reading: Reading, def: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[], outer: string): Built {
  switch (reading.kind) {
    case "value":
      return { sql: reading.sql(outer, 1), post: reading.finish ?? null, cost: 0 };
    case "object": {
      const inner = c.next();
      const type = getNamedType(def.type) as GraphQLObjectType;
      const built = objectSql(c, reading.model, type, nodes, inner);
      const where = sql`${reading.where(inner, outer)} AND ${scopeSql(c.ctx, reading.model, "view", inner)}`;
      return {
        ...built,
        sql: sql`json((SELECT ${built.sql} FROM ${sql.table(reading.model.table)} AS ${sql.raw(inner)} WHERE ${where} LIMIT 1))`,
      };
    }
    case "list": {
      const type = getNamedType(def.type) as GraphQLObjectType;
      const args = getArgumentValues(def, nodes[0], c.variables);
      const built = listSql(c, reading.model, type, nodes, c.next(), (inner) => reading.where(inner, outer), args, NESTED_LIST);
      return { ...built, sql: sql`json(${built.sql})` };
    }
    case "union": {
      const branches = unionBranches(c, reading.members, def, nodes, (inner) => sql`${ref(inner, "id")} = ${reading.id(outer)}`);
      if (!branches.length) return { sql: sql`NULL`, post: null, cost: 0 };
      return {
        sql: sql`CASE ${reading.type(outer)} ${sql.join(
          branches.map((b) => sql`WHEN ${b.objectType} THEN ${b.sql}`),
          sql` `,
        )} END`,
        post: null,
        cost: Math.max(...branches.map((b) => b.cost)),
      };
    }
    case "unionList": {
      const item = c.next();
      const branches = unionBranches(
        c,
        reading.members,
        def,
        nodes,
        (inner) => sql`${ref(inner, "id")} = json_extract(${ref(item, "value")}, '$.id')`,
      );
      const cost = NESTED_LIST * (1 + Math.max(0, ...branches.map((b) => b.cost)));
      if (!branches.length) return { sql: sql`json('[]')`, post: null, cost };
      const value = sql`CASE json_extract(${ref(item, "value")}, '$.__type') ${sql.join(
        branches.map((b) => sql`WHEN ${b.objectType} THEN ${b.sql}`),
        sql` `,
      )} END`;
      const v = c.next();
      return {
        sql: sql`json((SELECT coalesce(json_group_array(json(${ref(v, "o")})), json('[]')) FROM (SELECT ${value} AS o FROM json_each(${reading.sql(outer, 1)}) AS ${sql.raw(item)}) AS ${sql.raw(v)} WHERE ${ref(v, "o")} IS NOT NULL))`,
        post: null,
        cost,
      };
    }
  }
}

/** One branch per member the selection asks for: the member's object whose id `match` names. */
function unionBranches(
  c: Compiler,
  members: readonly Model[],
  def: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  match: (inner: string) => Sql,
): { objectType: string; sql: Sql; cost: number }[] {
  const union = getNamedType(def.type);
  if (!isUnionType(union)) return [];
  return members.map((model) => {
    const type = c.gs.schema.getType(typeName(model));
    if (!isObjectType(type)) throw new Error(`no type for ${model.objectType}`);
    const inner = c.next();
    const built = objectSql(c, model, type, nodes, inner);
    const where = sql`${match(inner)} AND ${scopeSql(c.ctx, model, "view", inner)}`;
    return {
      objectType: model.objectType,
      sql: sql`json((SELECT ${built.sql} FROM ${sql.table(model.table)} AS ${sql.raw(inner)} WHERE ${where}))`,
      cost: built.cost,
    };
  });
}

/** A JSON array of the rows of `model` related by `link` (all rows at the root), filtered, ordered and paged as asked. */
function listSql(
  c: Compiler,
  model: Model,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  alias: string,
  link: ((inner: string) => Sql) | null,
  args: Record<string, unknown>,
  estimate: number,
): Built {
  const object = objectSql(c, model, type, nodes, alias);
  const conditions = [scopeSql(c.ctx, model, "view", alias)];
  if (link) conditions.push(link(alias));
  if (args.filters) conditions.push(filterCondition(c.gs, c.ctx, model, args.filters as Record<string, unknown>, alias));
  const where = sql.join(conditions, sql` AND `);
  const order = sql.join(planOrdering(model, null, alias));
  const page = args.pagination as { offset?: number; limit?: number } | undefined;
  const limit = page?.limit !== undefined && page.limit >= 0 ? page.limit : null;
  const offset = Math.max(0, page?.offset ?? 0);
  const cost = (limit ?? estimate) * (1 + object.cost);
  const post: Post | null = object.post ? (value) => (Array.isArray(value) ? value.map(object.post!) : value) : null;
  const table = sql`${sql.table(model.table)} AS ${sql.raw(alias)}`;
  if (limit === null && offset === 0)
    return { sql: sql`(SELECT json_group_array(${object.sql} ORDER BY ${order}) FROM ${table} WHERE ${where})`, post, cost };
  // A page: the rows' order numbered before the window is cut, and kept in the array.
  const rows = c.next();
  return {
    sql: sql`(SELECT json_group_array(json(${ref(rows, "o")}) ORDER BY ${ref(rows, "n")}) FROM (SELECT ${object.sql} AS o, row_number() OVER (ORDER BY ${order}) AS n
      FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT ${limit ?? -1} OFFSET ${offset}) AS ${sql.raw(rows)})`,
    post,
    cost,
  };
}

/** Raised for a request the compiler refuses (a bad filter value): a GraphQL error, not a 500. */
export const refusal = (message: string, node?: FieldNode) => new GraphQLError(message, node ? { nodes: [node] } : undefined);

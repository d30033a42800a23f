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
 * A query compiled into one statement. Every selection of objects is a view (a common table
 * expression SQLite does not materialize): the JSONB object of each row of its model the
 * requester may view, by id, with the fields it selects. A relation reads the rows it relates to
 * by index, in the model's order and paged as asked, and takes their objects from the view of the
 * selection below it, or builds them in place when that selection holds only values of the row.
 * SQLite flattens the views into the statement, so each object costs an index lookup, while its
 * parser, which overflows on subqueries nested some six deep, never sees more than two levels
 * however deep the query.
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
const NESTED_LIST = 10;

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
    const fieldNode = nodes[0];
    const name = fieldNode.name.value;
    if (name === "__schema" || name === "__type") {
      introspection = true;
      continue;
    }
    const column = sql.raw(`c${columns.length}`);
    if (name === "__typename") {
      columns.push(sql`json_quote('Query') AS ${column}`);
      roots.push({ key, detail: null, node: fieldNode, post: null });
      continue;
    }
    const root = gs.roots.get(name)!;
    const args = getArgumentValues(queryType.getFields()[name], fieldNode, variables);
    const type = gs.schema.getType(typeName(root.model)) as GraphQLObjectType;
    const alias = c.next("g");
    const objects = objectsOf(c, type, nodes, alias);
    const table = sql`${sql.table(root.model.table)} AS ${sql.raw(alias)}${objects.join}`;
    if (root.list) {
      const { where, page } = listOf(c, root.model, alias, null, args);
      columns.push(sql`coalesce((SELECT json(${listValue(root.model, alias, objects, where, page)})), '[]') AS ${column}`);
      roots.push({ key, detail: null, node: fieldNode, post: listPost(objects.post) });
      cost += (page.limit ?? ROOT_LIST) * (1 + objects.cost);
    } else {
      const id = /^\d{1,15}$/.test(String(args.id)) ? Number(args.id) : -1;
      columns.push(sql`(SELECT json(${objects.value}) FROM ${table} WHERE ${ref(alias, "id")} = ${id} AND ${objects.scope}) AS ${column}`);
      roots.push({ key, detail: root.model, node: fieldNode, post: objects.post });
      cost += 1 + objects.cost;
    }
  }
  const statement = columns.length
    ? (c.ctes.length ? sql`WITH ${sql.join(c.ctes)} SELECT ${sql.join(columns)}` : sql`SELECT ${sql.join(columns)}`).compile(qb)
    : null;
  return { statement, roots, introspection, cost };
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** A selection's view (`pid`: the row's id, `v`: its JSONB object), what finishes its objects and their cost. */
interface Node {
  readonly view: string;
  readonly post: Post | null;
  readonly cost: number;
}

/** A JSONB object from key/expression pairs: objects stay binary until the answer is written out. */
const jsonbObject = (pairs: readonly [string, Sql][]): Sql => jsonObjectSql(pairs, "jsonb");

/** The view of one selection on a model's type: every row the requester may view, with the fields the nodes select. */
function nodeSql(c: Compiler, type: GraphQLObjectType, nodes: readonly FieldNode[]): Node {
  const model = c.gs.models.get(type.name)!;
  const alias = c.next("g");
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
    const built = fieldSql(c, readings.get(name)!, type.getFields()[name], sub, { model, alias });
    pairs.push([key, built.sql]);
    if (built.post) posts.push([key, built.post]);
    cost += built.cost;
  }
  const view = c.next("v");
  const object = pairs.length ? jsonbObject(pairs) : sql`jsonb_object()`;
  c.ctes.push(
    sql`${sql.raw(view)} AS NOT MATERIALIZED (SELECT ${ref(alias, "id")} AS pid, ${object} AS v FROM ${sql.table(model.table)} AS ${sql.raw(alias)}
      WHERE ${scopeSql(c.ctx, model, "view", alias)})`,
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
  return { view, post, cost };
}

const listPost = (post: Post | null): Post | null => (post ? (value) => (Array.isArray(value) ? value.map(post) : value) : null);

interface Built {
  readonly sql: Sql;
  readonly post: Post | null;
  readonly cost: number;
}

/** The model's order as SQL over a row under `alias`. */
const orderOf = (model: Model, alias: string) => sql.join(planOrdering(model, null, alias));

/**
 * The objects of a selection for rows of its model read under `alias`: from its view, joined by
 * id, or built in place when every field it selects is a plain value of the row (a leaf: an
 * address's `address`), which spares each row a second lookup.
 */
interface Objects {
  /** What the FROM clause adds after the model's table. */
  readonly join: Sql;
  /** The object's SQL. */
  readonly value: Sql;
  /** The view scope, for objects built in place (a view applies its own). */
  readonly scope: Sql;
  readonly post: Post | null;
  readonly cost: number;
}

function objectsOf(c: Compiler, type: GraphQLObjectType, nodes: readonly FieldNode[], alias: string): Objects {
  const model = c.gs.models.get(type.name)!;
  const leaf = leafObject(c, type, nodes, alias);
  if (leaf) return { join: sql``, value: leaf.sql, scope: scopeSql(c.ctx, model, "view", alias), post: null, cost: leaf.cost };
  const node = nodeSql(c, type, nodes);
  const x = c.next("x");
  return {
    join: sql` JOIN ${sql.raw(node.view)} AS ${sql.raw(x)} ON ${ref(x, "pid")} = ${ref(alias, "id")}`,
    value: ref(x, "v"),
    scope: sql`1`,
    post: node.post,
    cost: node.cost,
  };
}

/** The object of a selection built over the row under `alias`, when it selects only plain values; else null. */
function leafObject(c: Compiler, type: GraphQLObjectType, nodes: readonly FieldNode[], alias: string): { sql: Sql; cost: number } | null {
  const readings = c.gs.readings.get(type.name)!;
  const pairs: [string, Sql][] = [];
  for (const [key, sub] of collectSubfields(c.gs.schema, c.fragments, c.variables, type, nodes)) {
    const name = sub[0].name.value;
    if (name === "__typename") {
      pairs.push([key, sql.lit(type.name)]);
      continue;
    }
    const reading = readings.get(name)!;
    if (reading.kind !== "value" || !reading.plain) return null;
    pairs.push([key, reading.sql(alias, 1)]);
  }
  return { sql: pairs.length ? jsonbObject(pairs) : sql`jsonb_object()`, cost: pairs.length };
}

/** The JSONB array of the objects of the rows of `model` that `where` selects (read under `alias`), in the model's order and paged. */
function listValue(model: Model, alias: string, objects: Objects, where: Sql, page: { limit: number | null; offset: number }): Sql {
  const window = page.limit !== null || page.offset > 0 ? sql` LIMIT ${page.limit ?? -1} OFFSET ${page.offset}` : sql``;
  return sql`(SELECT jsonb_group_array(v) FROM (SELECT ${objects.value} AS v FROM ${sql.table(model.table)} AS ${sql.raw(alias)}${objects.join}
    WHERE ${where} AND ${objects.scope} ORDER BY ${orderOf(model, alias)}${window}))`;
}

/**
 * SQL over a row of `parent.model` that nests deeply itself (a computed field's), as a view of
 * its own read by the row's id: wrapped in the subqueries that use it, it would take SQLite's
 * parser past its depth.
 */
function hoisted(c: Compiler, parent: Parent, expr: (alias: string) => Sql): Sql {
  const g = c.next("g");
  const view = c.next("h");
  c.ctes.push(
    sql`${sql.raw(view)} AS NOT MATERIALIZED (SELECT ${ref(g, "id")} AS pid, ${expr(g)} AS value FROM ${sql.table(parent.model.table)} AS ${sql.raw(g)})`,
  );
  return sql`(SELECT value FROM ${sql.raw(view)} WHERE pid = ${ref(parent.alias, "id")})`;
}

/** The row a field is read from: its model, and the alias it is read under. */
interface Parent {
  readonly model: Model;
  readonly alias: string;
}

/** The SQL of one field of the row under `parent.alias`; the views below it are added to the statement. */
function fieldSql(c: Compiler, reading: Reading, def: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[], parent: Parent): Built {
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
      return { sql: sql`CASE WHEN ${reading.present(outer)} IS NOT NULL THEN ${jsonbObject(pairs)} END`, post: null, cost: pairs.length };
    }
    case "object": {
      const type = getNamedType(def.type) as GraphQLObjectType;
      const i = c.next("g");
      const objects = objectsOf(c, type, nodes, i);
      const where = reading.id
        ? sql`${ref(i, "id")} = json_extract(${hoisted(c, parent, reading.id.sql)}, ${reading.id.path})`
        : reading.where(i, outer);
      return {
        sql: sql`(SELECT ${objects.value} FROM ${sql.table(reading.model.table)} AS ${sql.raw(i)}${objects.join} WHERE ${where} AND ${objects.scope} LIMIT 1)`,
        post: objects.post,
        cost: objects.cost,
      };
    }
    case "list": {
      const args = getArgumentValues(def, nodes[0], c.variables);
      const i = c.next("g");
      const objects = objectsOf(c, getNamedType(def.type) as GraphQLObjectType, nodes, i);
      const { where, page } = listOf(c, reading.model, i, reading.where(i, outer), args);
      return {
        sql: sql`coalesce(${listValue(reading.model, i, objects, where, page)}, jsonb_array())`,
        post: listPost(objects.post),
        cost: (page.limit ?? NESTED_LIST) * (1 + objects.cost),
      };
    }
    case "union": {
      const branches = unionViews(c, reading.members, nodes);
      if (!branches.length) return { sql: sql`NULL`, post: null, cost: 0 };
      return {
        sql: sql`CASE ${reading.type(outer)} ${sql.join(
          branches.map(
            (b) => sql`WHEN ${b.model.objectType} THEN (SELECT v FROM ${sql.raw(b.node.view)} WHERE pid = ${reading.id(outer)})`,
          ),
          sql` `,
        )} END`,
        post: null,
        cost: Math.max(...branches.map((b) => b.node.cost)),
      };
    }
    case "unionList": {
      // The objects the field's SQL names (`{__type, id}` or `{object_type, object_id}`), in its order.
      const branches = unionViews(c, reading.members, nodes);
      const cost = NESTED_LIST * (1 + Math.max(0, ...branches.map((b) => b.node.cost)));
      if (!branches.length) return { sql: sql`jsonb_array()`, post: null, cost };
      const e = c.next("e");
      const member = (key: string, alternative: string) =>
        sql`coalesce(json_extract(${ref(e, "value")}, ${`$.${key}`}), json_extract(${ref(e, "value")}, ${`$.${alternative}`}))`;
      const value = sql`CASE ${member("__type", "object_type")} ${sql.join(
        branches.map(
          (b) => sql`WHEN ${b.model.objectType} THEN (SELECT v FROM ${sql.raw(b.node.view)} WHERE pid = ${member("id", "object_id")})`,
        ),
        sql` `,
      )} END`;
      return {
        sql: sql`coalesce((SELECT jsonb_group_array(v) FROM (SELECT ${value} AS v FROM json_each(${hoisted(c, parent, (g) => reading.sql(g, 1))}, ${reading.path}) AS ${sql.raw(e)} ORDER BY ${ref(e, "key")}) WHERE v IS NOT NULL), jsonb_array())`,
        post: null,
        cost,
      };
    }
  }
}

/** A view per member of a union the selection asks for (a member no fragment names still gives `{}` or its `__typename`). */
function unionViews(c: Compiler, members: readonly Model[], nodes: readonly FieldNode[]): { model: Model; node: Node }[] {
  return members.flatMap((model) => {
    const type = c.gs.schema.getType(typeName(model));
    return isObjectType(type) ? [{ model, node: nodeSql(c, type, nodes) }] : [];
  });
}

/** A list's condition (scope, relation, filters), order and page, for rows read under `alias`. */
function listOf(
  c: Compiler,
  model: Model,
  alias: string,
  link: Sql | null,
  args: Record<string, unknown>,
): { where: Sql; page: { limit: number | null; offset: number } } {
  // The view scope is the view's own; here, what relates the rows and what the filters ask.
  const conditions = [...(link ? [link] : [])];
  if (args.filters) conditions.push(filterCondition(c.gs, c.ctx, model, args.filters as Record<string, unknown>, alias));
  const pagination = args.pagination as { offset?: number; limit?: number } | undefined;
  const limit = pagination?.limit !== undefined && pagination.limit >= 0 ? pagination.limit : null;
  return {
    where: conditions.length ? sql.join(conditions, sql` AND `) : sql`1`,
    page: { limit, offset: Math.max(0, pagination?.offset ?? 0) },
  };
}

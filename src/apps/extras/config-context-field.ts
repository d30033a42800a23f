import type { FieldOptions, Model } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { KINDS } from "../../schema/kinds/index.ts";
import { parsed } from "../../schema/kinds/outputs.ts";
import { onFirstRowOfPage } from "../../engine/select.ts";

/**
 * The rendered `config_context` of the objects config contexts apply to (devices, virtual
 * machines), as a field any model declares, and what it shares with the config context model:
 * its dimensions, through tables and data checks. It imports no model, so a model file can use
 * it without an import cycle.
 */

type Sql = RawBuilder<unknown>;
type JsonObject = Record<string, unknown>;

const OBJECT_FORM = 'JSON data must be in object form. Example: {"foo": 123}';
const isObject = (x: unknown): x is JsonObject => typeof x === "object" && x !== null && !Array.isArray(x);

/** Python's truth value of a JSON value: null, false, 0, "", [] and {} are false. */
const truthy = (x: unknown) => (Array.isArray(x) ? x.length > 0 : isObject(x) ? Object.keys(x).length > 0 : Boolean(x));

/** A config context's `data`: always a JSON object, as NetBox refuses anything else. */
export const contextData = (x: unknown) => (isObject(x) ? undefined : OBJECT_FORM);

/** An object's `local_context_data`: NetBox refuses only a non-object that is set (truthy). */
export const localContextData = (x: unknown) => (truthy(x) && !isObject(x) ? OBJECT_FORM : undefined);

const hasOwn = (o: JsonObject, key: string) => Object.hasOwn(o, key);

/** Sets a key as an own data property, so a "__proto__" key stays data and never reaches a prototype. */
function setOwn(o: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/**
 * NetBox's deep merge of one context layer into another, in place: keys of `over` replace those of
 * `base`, except that an object over an object merges recursively. An empty object replaces
 * rather than merges, and null is kept as a value (unlike JSON merge patch, which deletes the
 * key). In place, so merging a page's layers stays linear in their size; `base` must be owned.
 */
function mergeInto(base: JsonObject, over: JsonObject): JsonObject {
  for (const key of Object.keys(over)) {
    const prior = hasOwn(base, key) ? base[key] : undefined;
    const value = over[key];
    setOwn(base, key, isObject(prior) && isObject(value) && Object.keys(value).length ? mergeInto(prior, value) : value);
  }
  return base;
}

/** NetBox's deep merge of two context layers, leaving both untouched. */
export const deepMerge = (base: JsonObject, over: JsonObject): JsonObject => mergeInto(structuredClone(base), structuredClone(over));

/**
 * The rendered context from its layers (matching contexts by weight then name, local data last),
 * as freshly parsed JSON the merge may take over.
 */
export const mergeLayers = (layers: unknown): JsonObject =>
  (Array.isArray(layers) ? layers : [])
    .filter((x) => isObject(x) && truthy(x))
    .reduce<JsonObject>((acc, x) => mergeInto(acc, x as JsonObject), {});

/** The table of config contexts. */
export const CONFIG_CONTEXT_TABLE = "extras_configcontext";

/** The assignment dimensions of a config context, each an m2m set, with its through column and filter name. */
export const CONTEXT_DIMENSIONS = {
  regions: { column: "region_id", filter: "region" },
  site_groups: { column: "sitegroup_id", filter: "site_group" },
  sites: { column: "site_id", filter: "site" },
  locations: { column: "location_id", filter: "location" },
  device_types: { column: "devicetype_id", filter: "device_type" },
  roles: { column: "devicerole_id", filter: "device_role" },
  platforms: { column: "platform_id", filter: "platform" },
  cluster_types: { column: "clustertype_id", filter: "cluster_type" },
  cluster_groups: { column: "clustergroup_id", filter: "cluster_group" },
  clusters: { column: "cluster_id", filter: "cluster" },
  tenant_groups: { column: "tenantgroup_id", filter: "tenant_group" },
  tenants: { column: "tenant_id", filter: "tenant" },
  tags: { column: "tag_id", filter: "tag" },
} as const;

export type ContextDimension = keyof typeof CONTEXT_DIMENSIONS;

/** The through table of one dimension: `extras_configcontext_<dimension>(configcontext_id, <target>_id)`. */
export const contextThrough = (dimension: ContextDimension) => ({
  table: `${CONFIG_CONTEXT_TABLE}_${dimension}`,
  source: "configcontext_id",
  target: CONTEXT_DIMENSIONS[dimension].column,
});

/**
 * Where an object finds each assignment dimension: a lookup path from the object's model
 * (`site__region`, `cluster__group`, `tags`). A dimension left out never matches: a context
 * assigned along it does not apply (a virtual machine and `device_types`).
 */
export type ContextPaths = Partial<Record<ContextDimension, string>>;

/** The dimensions of a device, as NetBox matches them. */
export const DEVICE_CONTEXT_PATHS: ContextPaths = {
  regions: "site__region",
  site_groups: "site__group",
  sites: "site",
  locations: "location",
  device_types: "device_type",
  roles: "role",
  platforms: "platform",
  cluster_types: "cluster__type",
  cluster_groups: "cluster__group",
  clusters: "cluster",
  tenant_groups: "tenant__group",
  tenants: "tenant",
  tags: "tags",
};

/** The dimensions of a virtual machine: no device type or location, as NetBox matches them. */
export const VM_CONTEXT_PATHS: ContextPaths = {
  regions: "site__region",
  site_groups: "site__group",
  sites: "site",
  roles: "role",
  platforms: "platform",
  cluster_types: "cluster__type",
  cluster_groups: "cluster__group",
  clusters: "cluster",
  tenant_groups: "tenant__group",
  tenants: "tenant",
  tags: "tags",
};

/**
 * The ids a lookup path reaches from the row under `table`, as a subquery; a nested-group target
 * (regions, site groups, locations, tenant groups) adds every ancestor, so a context assigned to
 * a region applies in all its descendants.
 */
function pathIdsSql(owner: Model, path: string, table: string, n: number): Sql {
  let ids: Sql | null = null;
  let current = owner;
  path.split("__").forEach((name, i) => {
    const field = current.field[name];
    const alias = `cx${n}_${i}`;
    const walk = field ? KINDS[field.kind].walk?.targetIds : undefined;
    if (!walk) throw new Error(`${owner.objectType}: config context path ${path} names no relation at ${name}`);
    ids = walk(field, { owner: current, alias, table, owners: ids });
    current = field.target!();
  });
  if (!current.tree) return ids!;
  const up = `up${n}`;
  return sql`WITH RECURSIVE ${sql.raw(up)}(id) AS (${ids!} UNION SELECT a.parent_id FROM ${sql.table(current.table)} a
    JOIN ${sql.raw(up)} ON a.id = ${sql.raw(up)}.id WHERE a.parent_id IS NOT NULL) SELECT id FROM ${sql.raw(up)}`;
}

/**
 * How an assignment's target matches the ids `path` reaches from the row under `table`: a foreign
 * key of the row itself (a device's role) is compared as it is, where `IN (SELECT ...)` would
 * build a set of one id for each context tested.
 */
function pathMatchSql(owner: Model, path: string, table: string, n: number): Sql {
  const field = owner.field[path];
  if (field?.column && field.target && !field.target().tree) return sql`= ${sql.ref(`${table}.${field.column}`)}`;
  return sql`IN (${pathIdsSql(owner, path, table, n)})`;
}

/**
 * The condition under which the context `cc` applies to the row under `table`: along each
 * dimension it has assignments along, one of them must be the object's (or its ancestor's).
 */
function contextMatchSql(owner: Model, paths: ContextPaths, table: string): Sql {
  const dimensions = Object.keys(CONTEXT_DIMENSIONS) as ContextDimension[];
  // What a context is assigned along does not depend on the row, so SQLite builds each such set
  // once per statement (a non-correlated subquery): a context without assignments along a
  // dimension costs one lookup per row there, and one without any assignment one lookup in all.
  // A dimension no context is assigned along is a constant SQLite tests once, not a lookup per
  // context: with 100 contexts a device's detail statement took 336 us of SQLite before this and
  // the foreign-key comparison below, 235 after (400 and 261 at the median).
  const conditions = dimensions.map((dimension, n) => {
    const t = contextThrough(dimension);
    const unassigned = sql`(NOT EXISTS (${assignedAlong([dimension])}) OR cc.id NOT IN (${assignedAlong([dimension])}))`;
    const path = paths[dimension];
    if (!path) return unassigned;
    return sql`(${unassigned} OR EXISTS (SELECT 1 FROM ${sql.table(t.table)} th WHERE th.configcontext_id = cc.id
      AND th.${sql.ref(t.target)} ${pathMatchSql(owner, path, table, n)}))`;
  });
  return sql`cc.is_active = 1 AND (cc.id NOT IN (${assignedAlong(dimensions)}) OR (${sql.join(conditions, sql` AND `)}))`;
}

/** The ids of the contexts assigned along any of `ds`, once per context and dimension. */
const assignedAlong = (ds: readonly ContextDimension[]) =>
  sql.join(
    ds.map((d) => sql`SELECT configcontext_id FROM ${sql.table(contextThrough(d).table)}`),
    sql` UNION ALL `,
  );

/**
 * The layers of the rendered context of the row under `table`, as one JSON array: the data of
 * every active context that applies, ordered by weight then name, then the object's local data.
 * The data are stored as JSON text, so the array is their text joined and checked once by `json`,
 * rather than each parsed by `json()` and the array built by `json_group_array` (with 100
 * contexts, 64 against 84 us).
 * One subquery of the page statement: no statement per row, none at all when the field is excluded.
 */
function contextLayersSql(owner: Model, paths: ContextPaths, local: string, table: string): Sql {
  const localColumn = sql.ref(`${table}.${owner.field[local].column}`);
  return sql`json((SELECT '[' || coalesce(group_concat(l.data, ',' ORDER BY l.k, l.weight, l.name, l.id), '') || ']' FROM (
      SELECT 0 AS k, cc.data, cc.weight, cc.name, cc.id FROM ${sql.table(CONFIG_CONTEXT_TABLE)} cc
      WHERE ${contextMatchSql(owner, paths, table)}
      UNION ALL SELECT 1, ${localColumn}, 0, '', 0 WHERE ${localColumn} IS NOT NULL) l))`;
}

/**
 * What decides which contexts apply to the row under `table`, as text: for each relation a
 * dimension starts from (the site for regions, site groups and sites; the cluster for its type
 * and group ...), the ids it holds, when some context is assigned along one of those dimensions
 * (the others match every row alike). Rows with the same key have the same contexts.
 */
function contextKeySql(owner: Model, paths: ContextPaths, table: string): Sql {
  const bySource = new Map<string, ContextDimension[]>();
  for (const dimension of Object.keys(CONTEXT_DIMENSIONS) as ContextDimension[]) {
    const source = paths[dimension]?.split("__")[0];
    if (source) bySource.set(source, [...(bySource.get(source) ?? []), dimension]);
  }
  const parts = [...bySource].map(([source, dimensions], n) => {
    const assigned = sql`EXISTS (${assignedAlong(dimensions)})`;
    const field = owner.field[source];
    // A foreign key is its column; a set (tags) its ids, under aliases of their own (100 + n).
    const ids = field.column
      ? sql.ref(`${table}.${field.column}`)
      : sql`(WITH ${sql.raw(`k${n}`)}(v) AS (${pathIdsSql(owner, source, table, 100 + n)}) SELECT group_concat(v) FROM ${sql.raw(`k${n}`)})`;
    return sql`CASE WHEN ${assigned} THEN ${ids} END`;
  });
  // Concatenated, so that it is text: JSON functions nest an array as JSON, not as the key's text.
  return sql`(json_array(${sql.join(parts)}) || '')`;
}

/**
 * The rendered context's parts in a list page's statement, whose CTE `page` names its rows' ids:
 * each row gets `{key, map, local}`, and one row (the lowest id) also the map from each key of
 * the page to the layers of the contexts that apply there, matched once per key against one row
 * that has it. With 100 contexts applying to every device, a page of 50 matched 5,000 pairs of
 * device and context; now 100 per distinct key. `finishContexts` merges each key's layers once.
 */
function pageContextSql(owner: Model, paths: ContextPaths, local: string, table: string, page: string): Sql {
  const own = sql.table(owner.table);
  const ids = sql`SELECT id FROM ${sql.raw(page)}`;
  const layers = sql`(SELECT '[' || coalesce(group_concat(cc.data, ',' ORDER BY cc.weight, cc.name, cc.id), '') || ']'
    FROM ${sql.table(CONFIG_CONTEXT_TABLE)} cc WHERE ${contextMatchSql(owner, paths, "r")})`;
  const map = sql`(SELECT json_group_object(g.key, json(${layers})) FROM (
      SELECT ${contextKeySql(owner, paths, "d2")} AS key, min(d2.id) AS rid FROM ${own} d2 WHERE d2.id IN (${ids}) GROUP BY 1
    ) g JOIN ${own} r ON r.id = g.rid)`;
  return sql`json_object('key', ${contextKeySql(owner, paths, table)},
    'map', ${onFirstRowOfPage(table, page, map)},
    'local', ${sql.ref(`${table}.${owner.field[local].column}`)})`;
}

/** A row's context parts in a list page (`pageContextSql`), before `finishContexts`. */
interface ContextParts {
  readonly key: string;
  /** Each key of the page to its layers (as SQLite gives it: JSON text), in one row of the page only. */
  readonly map: string | Record<string, unknown> | null;
  readonly local: string | null;
}

const isParts = (x: unknown): x is ContextParts => isObject(x) && typeof x.key === "string";

/** A row's rendered context: its layers merged (a detail or GraphQL), or its parts kept for `finishContexts`. */
const finishContext = (value: unknown): unknown => (isParts(value) ? value : mergeLayers(value));

/**
 * A page's rendered contexts from their parts: each key's layers merged once, then the row's
 * local data on top (on a copy: rows without local data share their key's object, read-only).
 */
function finishContexts(values: readonly unknown[]): unknown[] {
  let layers: Record<string, unknown> = {};
  for (const v of values) if (isParts(v) && v.map !== null) layers = parsed(v.map) as Record<string, unknown>;
  const merged = new Map<string, JsonObject>();
  const mergedOf = (key: string) => {
    let m = merged.get(key);
    if (!m) merged.set(key, (m = mergeLayers(Object.hasOwn(layers, key) ? layers[key] : [])));
    return m;
  };
  return values.map((v) => {
    if (!isParts(v)) return v;
    const local = v.local === null ? null : parsed(v.local);
    return isObject(local) && truthy(local) ? mergeInto(structuredClone(mergedOf(v.key)), local) : mergedOf(v.key);
  });
}

/**
 * The read-only `config_context` field of a model whose objects config contexts apply to, placed
 * after its `local_context_data` field as NetBox orders them: the matching contexts' data, deep
 * merged by weight then name, with the object's local data on top. SQLite gathers the layers
 * inside the page statement and `mergeLayers` merges them, so a page of any size costs the same
 * statements; a list page gathers and merges them once per group of rows they apply to alike
 * (`pageContextSql`). `?exclude=config_context` (and brief and nested forms) leave it out unqueried.
 *
 * A virtual machine wires it the same way, with the dimensions it has:
 *   config_context: configContextField(() => virtualMachine, {
 *     regions: "site__region", site_groups: "site__group", sites: "site", roles: "role",
 *     platforms: "platform", cluster_types: "cluster__type", cluster_groups: "cluster__group",
 *     clusters: "cluster", tenant_groups: "tenant__group", tenants: "tenant", tags: "tags" }),
 */
export const configContextField = (owner: () => Model, paths: ContextPaths, local = "local_context_data"): FieldOptions =>
  f.computed(
    (table, scope) =>
      scope?.sc.page ? pageContextSql(owner(), paths, local, table, scope.sc.page) : contextLayersSql(owner(), paths, local, table),
    { returns: "json", finish: finishContext, finishPage: finishContexts },
  );

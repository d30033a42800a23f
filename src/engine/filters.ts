import type { Field, RowSql, FilterDeclaration, Model, ValuesFilter } from "../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement, StatementResult } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { FieldErrors } from "../schema/errors.ts";
import { KINDS } from "../schema/kinds/index.ts";
import { idList, subtreeSql } from "./select.ts";
import { cfPath, CUSTOM_FIELD_RULES, definedFor, normalDatetime, type CustomFieldType } from "../schema/custom-field-types.ts";

type Cond = RawBuilder<unknown>;

/** Query parameters that are not filters. */
export const RESERVED: ReadonlySet<string> = new Set(["limit", "offset", "ordering", "brief", "exclude", "fields", "omit", "format"]);

/**
 * A filter's values that must be checked against stored data (a relation's values exist, a
 * custom field is defined for the model and accepts the lookup); the statement runs in the same
 * round trip as the page. `verify` gives the errors from its rows; by default, values not found.
 */
export interface RelationCheck {
  readonly param: string;
  readonly values: readonly string[];
  readonly statement: Statement;
  readonly verify?: (rows: readonly Record<string, unknown>[]) => string[];
}

/** What a query string means for a model: conditions ANDed together, checks, and bad values. */
export interface FilterPlan {
  readonly conditions: Cond[];
  readonly checks: RelationCheck[];
  readonly errors: FieldErrors;
  /**
   * The rows of a related model the requester may view (their permission scope, from the
   * caller), so a relation value they may not see fails its check as a value that does not
   * exist: "not one of the available choices" either way, never an empty 200 that tells it exists.
   */
  readonly visible?: (related: Model) => Cond;
  /** The count of the rows the conditions match, from a stored tally: set when the one condition is a filter's that has one. */
  tally?: Cond | null;
}

/**
 * A filter, resolved: a path of relations from the model, then either a field of the last model
 * (`device_type__manufacturer__slug`) or the last relation itself (`site`, matched by natural key
 * or by id), or SQL of its own.
 */
type Resolved =
  | { readonly via: readonly Field[]; readonly field: Field | "id"; readonly tree?: boolean }
  | { readonly via: readonly Field[]; readonly relation: Field; readonly byId: boolean; readonly tree: boolean; readonly related?: RowSql }
  | {
      readonly sql: (values: readonly string[], table: string) => Cond;
      readonly integer?: boolean;
      readonly negatable?: boolean;
      readonly boolean?: boolean;
      readonly tally?: (values: readonly string[]) => Cond | null;
    }
  | ValuesFilter;

const or = (xs: Cond[]): Cond => (xs.length === 1 ? xs[0] : sql`(${sql.join(xs, sql` OR `)})`);
/** NOT that keeps rows where the condition is NULL (a missing relation or value), as Django's exclude(). */
const exclude = (x: Cond): Cond => sql`NOT coalesce(${x}, 0)`;
const invalidChoice = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;
/** A LIKE pattern's text with its wildcards and escape character escaped (`ESCAPE '\\'`). */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const TRUE = ["true", "1", "True"];
const BOOLEAN = [...TRUE, "false", "0", "False"];
const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}/;

/** NetBox's lookup suffixes and Django's, by name, with whether they negate. */
// Without a prototype: a query string names lookups, and `name__constructor` must name none.
const LOOKUPS: Record<string, { op: string; negate?: boolean }> = Object.assign(Object.create(null), {
  "": { op: "exact" },
  exact: { op: "exact" },
  in: { op: "exact" },
  n: { op: "exact", negate: true },
  ic: { op: "icontains" },
  icontains: { op: "icontains" },
  nic: { op: "icontains", negate: true },
  isw: { op: "istartswith" },
  istartswith: { op: "istartswith" },
  nisw: { op: "istartswith", negate: true },
  iew: { op: "iendswith" },
  iendswith: { op: "iendswith" },
  niew: { op: "iendswith", negate: true },
  ie: { op: "iexact" },
  iexact: { op: "iexact" },
  nie: { op: "iexact", negate: true },
  gt: { op: "gt" },
  gte: { op: "gte" },
  lt: { op: "lt" },
  lte: { op: "lte" },
  empty: { op: "empty" },
  isnull: { op: "isnull" },
});

/** The lookups each family accepts. */
const FAMILY_LOOKUPS: Record<string, string[]> = {
  text: ["exact", "icontains", "istartswith", "iendswith", "iexact", "empty", "isnull"],
  number: ["exact", "gt", "gte", "lt", "lte", "empty", "isnull"],
  boolean: ["exact", "isnull"],
  choice: ["exact", "icontains", "istartswith", "iendswith", "iexact", "empty", "isnull"],
  relation: ["exact", "isnull"],
};

/** Wraps a condition on the last model of `via` into one on the first, through fks and m2m sets. */
function through(via: readonly Field[], table: string, inner: (alias: string) => Cond, depth = 0): Cond {
  if (via.length === 0) return inner(table);
  const [field, ...rest] = via;
  const target = field.target!();
  const alias = `p${depth}`;
  const sub = sql`SELECT ${sql.ref(`${alias}.id`)} FROM ${sql.table(target.table)} ${sql.raw(alias)} WHERE ${through(rest, alias, inner, depth + 1)}`;
  return KINDS[field.kind].walk!.matchIds(field, table, sql`(${sub})`);
}

/** A field compared by filters: a stored column, or SQL its kind gives (a count). */
const filterable = (field: Field) => {
  const filter = KINDS[field.kind].filter;
  return Boolean(filter?.lookups && (field.column || filter.sql));
};
const filterColumn = (field: Field, alias: string): Cond =>
  field.column ? sql.ref(`${alias}.${field.column}`) : KINDS[field.kind].filter!.sql!(field, alias);

/** The filters a model's fields give, plus the ones it declares, by parameter name. */
const filterSets = new WeakMap<Model, Map<string, Resolved>>();

export function filtersOf(model: Model): Map<string, Resolved> {
  let set = filterSets.get(model);
  if (set) return set;
  set = new Map<string, Resolved>([["id", { via: [], field: "id" }]]);
  for (const field of model.fields) {
    for (const [name, given] of Object.entries(field.filters ?? {})) {
      const { sql: filter, negatable = false, boolean = false } = typeof given === "function" ? { sql: given } : given;
      set.set(name, { sql: (values, table) => filter(values, table, field, model.registry.byObjectType), negatable, boolean });
    }
    if (field.writeOnly) continue;
    const params = KINDS[field.kind].filter?.params?.(field, model);
    if (params) for (const { name, ...param } of params) set.set(name, { via: [], ...param });
    else if (filterable(field)) set.set(field.name, { via: [], field });
  }
  if (model.tree) {
    set.set("ancestor", { via: [], relation: model.field.parent, byId: false, tree: true });
    set.set("ancestor_id", { via: [], relation: model.field.parent, byId: true, tree: true });
  }
  for (const [name, declared] of Object.entries(model.filters ?? {})) set.set(name, resolveDeclared(model, name, declared));
  filterSets.set(model, set);
  return set;
}

/**
 * Every filter parameter a model's list accepts, with the lookup suffixes it takes
 * (`name` -> `n`, `ic`, `nic`, ...): the OpenAPI document's parameters, grouped by filter.
 */
export function filterCatalog(model: Model): { name: string; lookups: string[] }[] {
  const lookups = new Map<string, string[]>();
  for (const p of filterParameters(model)) {
    if (!lookups.has(p.filter)) lookups.set(p.filter, []);
    if (p.name !== p.filter) lookups.get(p.filter)!.push(p.name.slice(p.filter.length + 2));
  }
  return [...lookups].map(([name, suffixes]) => ({ name, lookups: suffixes }));
}

function resolveDeclared(model: Model, name: string, d: FilterDeclaration<() => Model>): Resolved {
  if (typeof d === "object" && ("sql" in d || "valuesOf" in d)) return d;
  if (typeof d === "object" && "related" in d) {
    // A relation no fk holds: the field stands for it in messages and natural-key lookups.
    const relation: Field = { kind: "fk", name, target: d.target, column: null, ownerType: model.objectType, label: name };
    return { via: [], relation, byId: Boolean(d.byId), tree: Boolean(d.tree), related: d.related };
  }
  const path = typeof d === "string" ? d : d.path;
  const tree = typeof d === "string" ? false : Boolean(d.tree);
  const resolved = resolvePath(model, path.split("__"));
  if (!resolved || resolved.lookup) throw new Error(`${model.objectType}: filter ${name} names an unknown path ${path}`);
  return { ...resolved.target, tree } as Resolved;
}

/**
 * Resolves `a__b__c[__lookup]` on a model: relations to walk, the field or relation it ends at,
 * and the lookup left over. Null when a segment names nothing filterable (or a write-only field).
 */
export function resolvePath(model: Model, segments: readonly string[]): { target: Resolved; lookup: string } | null {
  const via: Field[] = [];
  let current = model;
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i];
    const rest = segments.slice(i + 1);
    if (name === "id") return rest.length <= 1 ? { target: { via, field: "id" }, lookup: rest[0] ?? "" } : null;
    const field = current.field[name];
    if (!field || field.writeOnly) return null;
    if (KINDS[field.kind].walk?.walks(field)) {
      const next = rest[0];
      const target = field.target!();
      // `site__id` names the relation by id: checked like `site_id`, not compared as a number.
      if (next === "id" && rest.length <= 2) return { target: { via, relation: field, byId: true, tree: false }, lookup: rest[1] ?? "" };
      const descend = next !== undefined && Boolean(target.field[next] && !LOOKUPS[next]);
      if (descend) {
        via.push(field);
        current = target;
        continue;
      }
      if (rest.length > 1) return null;
      return { target: { via, relation: field, byId: false, tree: false }, lookup: rest[0] ?? "" };
    }
    if (!filterable(field) || rest.length > 1) return null;
    return { target: { via, field }, lookup: rest[0] ?? "" };
  }
  return null;
}

/** A query parameter being compiled: its name (its problems are reported under it) and its values. */
interface ParamValues {
  readonly param: string;
  readonly values: string[];
}

/** One filter use: the filter a parameter names, its lookup suffix (`""`, `n`, `ic`, ...), and the values. */
interface FilterUse extends ParamValues {
  readonly target: Resolved;
  readonly lookup: string;
}

/** Compiles one filter use on the rows under `table`; problems go to `plan.errors`. */
function compile({ target, lookup, values, param }: FilterUse, table: string, plan: FilterPlan): Cond | null {
  const fail = (message: string): null => (((plan.errors[param] ??= []) as string[]).push(message), null);
  if (!acceptsLookup(target, lookup)) return null;
  if ("sql" in target) {
    if (target.integer && !values.every((v) => /^-?\d+$/.test(v.trim()))) return fail("Enter a whole number.");
    const cond = target.sql(values, table);
    return lookup === "n" ? exclude(cond) : cond;
  }
  const known = LOOKUPS[lookup];
  if ("valuesOf" in target) {
    // Compared as whole numbers where numbers, like ids; a row matches when one of its values does.
    const given = known.op === "exact" && target.normal ? values.map(target.normal) : values;
    const test = scalarCondition(sql.ref("fv.value"), { field: "id", family: target.lookups, op: known.op, values: given }, fail);
    if (Object.keys(plan.errors).includes(param)) return null;
    const cond = sql`EXISTS (SELECT 1 FROM (${target.valuesOf(table)}) fv WHERE ${test})`;
    return known.negate ? exclude(cond) : cond;
  }
  if ("relation" in target) {
    const cond = relationCondition(target, { param, values, isnull: known.op === "isnull" }, table, plan);
    return cond && known.negate ? exclude(cond) : cond;
  }
  const field = target.field;
  const family = familyOf(field);
  const cond = through(target.via, table, (alias) => {
    const column = field === "id" ? sql.ref(`${alias}.id`) : filterColumn(field, alias);
    return scalarCondition(column, { field, family, op: known.op, values }, fail);
  });
  if (Object.keys(plan.errors).includes(param)) return null;
  return known.negate ? exclude(cond) : cond;
}

const familyOf = (field: Field | "id") => (field === "id" ? "number" : KINDS[field.kind].filter!.lookups!);

/** True when a filter takes the lookup suffix (`""`, `n`, `ic`, `gte`, ...): what `compile` compiles. */
function acceptsLookup(target: Resolved, lookup: string): boolean {
  if ("sql" in target) return lookup === "" || (lookup === "n" && Boolean(target.negatable));
  const known = LOOKUPS[lookup];
  if (!known) return false;
  if ("valuesOf" in target)
    return FAMILY_LOOKUPS[target.lookups].includes(known.op) && known.op !== "isnull" && !(target.many && known.op === "empty");
  if ("relation" in target) return known.op === "exact" || known.op === "isnull";
  return FAMILY_LOOKUPS[familyOf(target.field)].includes(known.op);
}

/** The suffixes the OpenAPI document lists: NetBox's short names (Django's long ones are accepted too). */
const LISTED_SUFFIXES = ["", "n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "gt", "gte", "lt", "lte", "empty", "isnull"];

/** What a filter parameter's values are: SQL of its own, a related object's natural key or id, or a field's value. */
export type FilterValue =
  | { readonly sql: true; readonly integer: boolean; readonly boolean: boolean }
  | { readonly relation: Model; readonly byId: boolean }
  | { readonly field: Field | "id"; readonly family: string };

/** One query parameter a list endpoint filters by, with its lookup. */
export interface FilterParameter {
  readonly name: string;
  readonly filter: string;
  readonly op: string;
  readonly negate: boolean;
  readonly value: FilterValue;
}

/**
 * Every filter parameter of a model with every lookup it takes, from the same filter set and
 * lookup rules the compiler uses, so the OpenAPI document lists what the endpoint accepts.
 */
export function filterParameters(model: Model): FilterParameter[] {
  const out: FilterParameter[] = [];
  for (const [filter, target] of filtersOf(model)) {
    const value: FilterValue =
      "sql" in target
        ? { sql: true, integer: Boolean(target.integer), boolean: Boolean(target.boolean) }
        : "valuesOf" in target
          ? { field: "id", family: target.lookups }
          : "relation" in target
            ? { relation: target.relation.target!(), byId: target.byId }
            : { field: target.field, family: familyOf(target.field) };
    for (const suffix of LISTED_SUFFIXES) {
      if (!acceptsLookup(target, suffix)) continue;
      const { op, negate = false } = LOOKUPS[suffix];
      out.push({ name: suffix ? `${filter}__${suffix}` : filter, filter, op, negate, value });
    }
  }
  return out;
}

/** Filters every model has besides its own: `q` and the change-record ones. */
export const BUILTIN_FILTERS = ["q", "created_by_request", "updated_by_request", "modified_by_request"] as const;

/** A comparison of a field's column: the field, its lookup family, the lookup's operator and the values. */
interface ScalarTest {
  readonly field: Field | "id";
  readonly family: string;
  readonly op: string;
  readonly values: string[];
}

function scalarCondition(column: Cond, { field, family, op, values }: ScalarTest, fail: (m: string) => null): Cond {
  const like = (pattern: (v: string) => string) => or(values.map((v) => sql`${column} LIKE ${pattern(likeEscape(v))} ESCAPE '\\'`));
  if (op === "empty" || op === "isnull") {
    if (!BOOLEAN.includes(values[0])) return fail(invalidChoice(values[0])) ?? sql`1`;
    const blank =
      op === "empty" && (family === "text" || family === "choice") ? sql`(${column} IS NULL OR ${column} = '')` : sql`${column} IS NULL`;
    return TRUE.includes(values[0]) ? blank : sql`NOT ${blank}`;
  }
  if (op === "icontains") return like((v) => `%${v}%`);
  if (op === "istartswith") return like((v) => `${v}%`);
  if (op === "iendswith") return like((v) => `%${v}`);
  if (op === "iexact") return or(values.map((v) => sql`lower(${column}) = lower(${v})`));
  let typed: unknown[] = values;
  if (family === "number") {
    const format = field === "id" ? "integer" : KINDS[field.kind].filter!.numberFormat;
    const datetime = format === "date";
    const integer = format === "integer";
    const pattern = datetime ? DATE : integer ? INTEGER : NUMBER;
    if (values.some((v) => !pattern.test(v)))
      return fail(integer ? "Enter a whole number." : datetime ? "Enter a valid date/time." : "Enter a number.") ?? sql`1`;
    typed = datetime ? values : values.map(Number);
  } else if (family === "boolean") {
    const bad = values.find((x) => !BOOLEAN.includes(x));
    if (bad !== undefined) return fail(invalidChoice(bad)) ?? sql`1`;
    typed = values.map((x) => (TRUE.includes(x) ? 1 : 0));
  } else if (family === "choice" && field !== "id") {
    const allowed = new Map(
      field.choices!.flatMap((c) => [[String(c.value), c.value], ...(c.accepts ?? []).map((a) => [String(a), c.value] as const)]),
    );
    const bad = values.find((x) => !allowed.has(x));
    if (bad !== undefined) return fail(invalidChoice(bad)) ?? sql`1`;
    typed = values.map((x) => allowed.get(x));
  }
  const ops: Record<string, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };
  if (ops[op]) return or(typed.map((v) => sql`${column} ${sql.raw(ops[op])} ${v}`));
  return typed.length > 20 ? sql`${column} IN ${idList(typed)}` : sql`${column} IN (${sql.join(typed)})`;
}

/** A relation matched by natural key or id (`null` for none, or `__isnull`), descendants of tree targets included. */
function relationCondition(
  target: Extract<Resolved, { relation: Field }>,
  { param, values, isnull }: ParamValues & { readonly isnull: boolean },
  table: string,
  plan: FilterPlan,
): Cond | null {
  const { relation, byId, tree, via } = target;
  const related = relation.target!();
  const keyField = byId ? null : related.field[KINDS[relation.kind].walk!.filterKey?.(relation, related) ?? related.naturalKey];
  const keyColumn = keyField?.column ?? "id";
  if (isnull) {
    if (!BOOLEAN.includes(values[0])) return (((plan.errors[param] ??= []) as string[]).push(invalidChoice(values[0])), null);
    const none = target.related
      ? sql`NOT EXISTS (SELECT 1 FROM (${target.related(table)}) r WHERE r.id IS NOT NULL)`
      : noneCondition(relation, table, via);
    return TRUE.includes(values[0]) ? none : sql`NOT ${none}`;
  }
  const wantsNull = values.includes("null");
  const given = values.filter((v) => v !== "null");
  if (byId) {
    const bad = given.find((v) => !/^\d{1,15}$/.test(v));
    if (bad !== undefined) return (((plan.errors[param] ??= []) as string[]).push(`“${bad}” is not a valid value.`), null);
  }
  const typed = given.map((v) => (byId ? Number(v) : v));
  const parts: Cond[] = [];
  if (typed.length) {
    const keys = idList(typed);
    let ids: Cond = sql`(SELECT id FROM ${sql.table(related.table)} WHERE ${sql.ref(keyColumn)} IN ${keys})`;
    if (tree) ids = subtreeSql(related, ids);
    if (relation.matchAll) {
      // Every listed value must be present (tags), as NetBox does.
      parts.push(
        sql`(${sql.join(
          typed.map((v) =>
            through(via, table, (alias) =>
              matchSet(relation, alias, sql`(SELECT id FROM ${sql.table(related.table)} WHERE ${sql.ref(keyColumn)} = ${v})`),
            ),
          ),
          sql` AND `,
        )})`,
      );
    } else if (target.related) {
      parts.push(sql`EXISTS (SELECT 1 FROM (${target.related(table)}) r WHERE r.id IN ${ids})`);
    } else {
      parts.push(through(via, table, (alias) => matchSet(relation, alias, ids)));
    }
    plan.checks.push({
      param,
      values: given,
      statement: sql`SELECT ${sql.ref(keyColumn)} AS k FROM ${sql.table(related.table)}
        WHERE ${sql.ref(keyColumn)} IN ${keys} AND ${plan.visible?.(related) ?? sql`1`}`.compile(qb),
    });
  }
  if (wantsNull)
    parts.push(
      target.related
        ? sql`NOT EXISTS (SELECT 1 FROM (${target.related(table)}) r WHERE r.id IS NOT NULL)`
        : noneCondition(relation, table, via),
    );
  return parts.length ? or(parts) : null;
}

/** Rows of the owner (under `alias`) whose relation points into `ids`. */
const matchSet = (relation: Field, alias: string, ids: Cond): Cond => KINDS[relation.kind].walk!.matchIds(relation, alias, ids);

/** Rows (through `via`) whose relation points nowhere. */
function noneCondition(relation: Field, table: string, via: readonly Field[]): Cond {
  return through(via, table, (alias) => KINDS[relation.kind].walk!.matchNone(relation, alias));
}

/** Splits `name__ic` into a filter the model has and its lookup (`site__n` -> `site`, `n`). */
function splitParam(filters: Map<string, Resolved>, key: string): [string, string] | null {
  if (filters.has(key)) return [key, ""];
  const i = key.lastIndexOf("__");
  if (i > 0 && filters.has(key.slice(0, i))) return [key.slice(0, i), key.slice(i + 2)];
  return null;
}

/**
 * Translates a query string into SQL conditions for `model`, NetBox's way: repeated keys OR,
 * different keys AND, lookup suffixes (`name__ic`), relation filters by id (`site_id`) and by
 * natural key (`site`), declared lookup paths, `q`, tags, `created_by_request`. Unknown
 * parameter names and lookups are errors when `strict`, else ignored, as NetBox ignores them. Pure: nothing here touches the database; `visible` gives the
 * requester's view scope of related models for the relation checks (see FilterPlan).
 */
export function planFilters(
  model: Model,
  params: URLSearchParams,
  { table = model.table, visible, strict = false }: { table?: string; visible?: (related: Model) => Cond; strict?: boolean } = {},
): FilterPlan {
  const plan: FilterPlan = { conditions: [], checks: [], errors: {}, visible };
  const filters = filtersOf(model);
  let tally: Cond | null = null;
  for (const key of new Set(params.keys())) {
    if (RESERVED.has(key)) continue;
    const split = splitParam(filters, key);
    if (strict) {
      const refusal = strictRefusal(model, filters, key, split);
      if (refusal) {
        plan.errors[key] = [refusal];
        continue;
      }
    }
    const values = params.getAll(key).filter((x) => x !== "");
    if (values.length === 0) continue;
    const builtin = builtinFilter(model, table, key, values);
    if (builtin) {
      plan.conditions.push(builtin);
      continue;
    }
    if (!split) {
      if (key.startsWith("cf_") && model.field.custom_fields?.column) {
        const cond = customFieldFilter(model, { param: key, values }, table, plan);
        if (cond) plan.conditions.push(cond);
      }
      continue;
    }
    const target = filters.get(split[0])!;
    const cond = compile({ target, lookup: split[1], values, param: key }, table, plan);
    if (!cond) continue;
    plan.conditions.push(cond);
    if ("sql" in target && split[1] === "" && target.tally) tally = target.tally(values);
  }
  plan.tally = plan.conditions.length === 1 ? tally : null;
  return plan;
}

/**
 * Why a strict list refuses parameter `key` (null: it filters): a name that is neither a filter
 * of the model (with a lookup it takes), nor `q`, a request filter or a custom field filter.
 */
function strictRefusal(model: Model, filters: Map<string, Resolved>, key: string, split: [string, string] | null): string | null {
  if (split) {
    const [name, lookup] = split;
    return acceptsLookup(filters.get(name)!, lookup) ? null : `Unknown lookup '${lookup}' for the filter '${name}'.`;
  }
  if (key === "q" || REQUEST_FILTERS.has(key)) return null;
  if (key.startsWith("cf_") && model.field.custom_fields?.column) return null;
  return `Unknown filter: a list of ${model.objectType} cannot be filtered by '${key}'.`;
}

/** Lookup suffixes by their short names, as custom field types list them. */
const SHORT_LOOKUP: Record<string, string> = { exact: "", in: "", icontains: "ic", istartswith: "isw", iendswith: "iew", iexact: "ie" };

/**
 * `cf_<name>[__lookup]`: a custom field's values, NetBox's way for its type. The definition is
 * read in SQL (its type, for loose text matching and date/time forms) and checked by a statement
 * of the same batch: a name not defined for the model, a lookup the type lacks or a value of the
 * wrong type is a 400, never a silently unfiltered list.
 */
function customFieldFilter(model: Model, { param: key, values }: ParamValues, table: string, plan: FilterPlan): Cond | null {
  const fail = (message: string): null => (((plan.errors[key] ??= []) as string[]).push(message), null);
  const split = key.slice(3).lastIndexOf("__");
  const name = split > 0 ? key.slice(3, 3 + split) : key.slice(3);
  const given = split > 0 ? key.slice(3 + split + 2) : "";
  const lookup = SHORT_LOOKUP[given] ?? given;
  const unknown = `Custom field '${name}' does not exist for this object type.`;
  if (!/^[a-z0-9_]+$/.test(name)) return fail(unknown);
  const definition = (column: string) => sql`(SELECT ${sql.ref(column)} FROM extras_customfield WHERE name = ${name})`;
  plan.checks.push({
    param: key,
    values,
    statement: sql`SELECT type, filter_logic FROM extras_customfield
      WHERE name = ${name} AND ${definedFor(model.objectType)}`.compile(qb),
    verify: (rows) => {
      if (!rows.length) return [unknown];
      const type = String(rows[0].type) as CustomFieldType;
      const rule = CUSTOM_FIELD_RULES[type];
      if (rows[0].filter_logic === "disabled") return [`Filtering is disabled for custom field '${name}'.`];
      if (!rule.lookups.length) return [`Custom fields of type ${type} cannot be filtered.`];
      if (!rule.lookups.includes(lookup)) return [`Lookup '${given}' is not supported for ${type} custom fields.`];
      if (lookup === "empty") return BOOLEAN.includes(values[0]) ? [] : [invalidChoice(values[0])];
      return [...new Set(values.map((v) => rule.filterValue?.(v)).filter((m): m is string => m !== undefined))];
    },
  });
  const data = sql.ref(`${table}.${model.field.custom_fields.column}`);
  const path = cfPath(name);
  const value = sql`json_extract(${data}, ${path})`;
  const known = LOOKUPS[given];
  if (!known) return sql`0`;
  const like = (pattern: (v: string) => string) => or(values.map((v) => sql`${value} LIKE ${pattern(likeEscape(v))} ESCAPE '\\'`));
  // A date and time compares in the form it is stored in; other types as given.
  const asStored = (v: string) => normalDatetime(v) ?? v;
  const byType = (cond: (v: (s: string) => string) => Cond) =>
    sql`CASE WHEN ${definition("type")} = 'datetime' THEN ${cond(asStored)} ELSE ${cond((v) => v)} END`;
  let cond: Cond;
  switch (known.op) {
    case "exact": {
      const numbers = values.flatMap((v) => (NUMBER.test(v) ? [Number(v)] : BOOLEAN.includes(v) ? [TRUE.includes(v) ? 1 : 0] : []));
      const texts = [...new Set([...values, ...values.map(asStored)])];
      // Scalars and lists alike: json_each yields a scalar once, a list's items one by one.
      const equal = sql`EXISTS (SELECT 1 FROM json_each(${data}, ${path}) j WHERE j.value IN ${idList(texts)} OR j.value IN ${idList(numbers)})`;
      const loose = sql`(SELECT filter_logic = 'loose' AND type IN ('text', 'longtext', 'url') FROM extras_customfield WHERE name = ${name})`;
      cond = sql`CASE WHEN ${loose} THEN ${like((v) => `%${v}%`)} ELSE ${equal} END`;
      break;
    }
    case "icontains":
      cond = like((v) => `%${v}%`);
      break;
    case "istartswith":
      cond = like((v) => `${v}%`);
      break;
    case "iendswith":
      cond = like((v) => `%${v}`);
      break;
    case "iexact":
      cond = or(values.map((v) => sql`lower(${value}) = lower(${v})`));
      break;
    case "empty": {
      const blank = sql`(${value} IS NULL OR ${value} = '' OR (json_type(${data}, ${path}) = 'array' AND json_array_length(${data}, ${path}) = 0))`;
      cond = TRUE.includes(values[0]) ? blank : sql`NOT ${blank}`;
      break;
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const op = sql.raw({ gt: ">", gte: ">=", lt: "<", lte: "<=" }[known.op]);
      cond = byType((form) => or(values.map((v) => sql`${value} ${op} ${NUMBER.test(v) ? Number(v) : form(v)}`)));
      break;
    }
    default:
      return sql`0`;
  }
  return known.negate ? exclude(cond) : cond;
}

/** The change-record filters and the actions each finds. A Map: `__proto__` in a query string must find nothing. */
const REQUEST_FILTERS = new Map([
  ["created_by_request", ["create", "update"]],
  ["updated_by_request", ["update"]],
  ["modified_by_request", ["create", "update"]],
]);

/** `q` and the change-record filters every model has. */
function builtinFilter(model: Model, table: string, key: string, values: string[]): Cond | null {
  const col = (c: string) => sql.ref(`${table}.${c}`);
  if (key === "q") {
    const q = values[0].trim();
    const also = q ? (model.searchAlso?.(q, table) ?? null) : null;
    if (!q || (!model.search.length && !also)) return q ? sql`0` : null;
    return or([
      ...model.search.map((s) => sql`${col(model.field[s].column!)} LIKE ${`%${likeEscape(q)}%`} ESCAPE '\\'`),
      ...(also ? [also] : []),
    ]);
  }
  const actions = REQUEST_FILTERS.get(key);
  if (!actions) return null;
  // SPEC.md 4.3: created_by_request finds objects created *or updated* by the request.
  return sql`${col("id")} IN (SELECT changed_object_id FROM core_objectchange WHERE changed_object_type = ${model.objectType}
    AND request_id IN ${idList(values)} AND action IN (${sql.join(actions)}))`;
}

/**
 * The condition matching attributes that name a related object (`{"name": "x", "site": {"slug":
 * "y"}}`): only fields the model can be filtered on, compared exactly (null: unset). Null when
 * an attribute names nothing filterable, so nothing can match.
 */
export function attributeCondition(model: Model, attrs: Record<string, unknown>, table = model.table): Cond | null {
  const plan: FilterPlan = { conditions: [], checks: [], errors: {} };
  for (const [key, value] of Object.entries(flattenAttributes(attrs))) {
    const resolved = resolvePath(model, key.split("__"));
    if (!resolved || resolved.lookup) return null;
    const target = "relation" in resolved.target ? { ...resolved.target, byId: true } : resolved.target;
    const lookup = value === null ? "isnull" : "";
    const text = value === null ? "true" : typeof value === "boolean" ? String(value) : typeof value === "object" ? null : String(value);
    if (text === null) return null;
    const cond = compile({ target: target as Resolved, lookup, values: [text], param: key }, table, plan);
    if (!cond || Object.keys(plan.errors).length) return null;
    plan.conditions.push(cond);
  }
  return plan.conditions.length ? sql.join(plan.conditions, sql` AND `) : null;
}

/**
 * One object of a permission's constraints (`{"site__region__slug": "eu", "status__in": ["active"]}`)
 * as a condition on `model`'s rows: Django lookups along field paths, a relation compared by id
 * (`{"site": 5}`), `"$user"` for the requesting user's id, null for an unset value. Throws a
 * message naming the first key it cannot compile (checked when a permission is saved).
 */
export function constraintCondition(model: Model, constraint: Record<string, unknown>, userId: number | null, table = model.table): Cond {
  const plan: FilterPlan = { conditions: [], checks: [], errors: {} };
  for (const [key, raw] of Object.entries(constraint)) {
    const resolved = resolvePath(model, key.split("__"));
    if (!resolved) throw new Error(`${key}: ${model.verboseName} has no field by that path.`);
    const target = "relation" in resolved.target ? { ...resolved.target, byId: true } : resolved.target;
    const user = (v: unknown) => (v === "$user" ? userId : v);
    let lookup = resolved.lookup;
    let values: string[];
    if (raw === null && (lookup === "" || lookup === "exact")) [lookup, values] = ["isnull", ["true"]];
    else values = (Array.isArray(raw) ? raw : [raw]).map((v) => String(user(v)));
    if (Array.isArray(raw) && lookup !== "in") throw new Error(`${key}: a list needs the "__in" lookup.`);
    const cond = compile({ target: target as Resolved, lookup, values, param: key }, table, plan);
    const problem = (plan.errors[key] as string[] | undefined)?.[0];
    if (!cond || problem) throw new Error(`${key}: ${problem ?? `unsupported lookup "${lookup}".`}`);
    plan.conditions.push(cond);
  }
  return plan.conditions.length ? sql`(${sql.join(plan.conditions, sql` AND `)})` : sql`1`;
}

/** `{'site': {'name': 'x'}}` as lookups: `{'site__name': 'x'}`, as NetBox prints it in messages. */
export function flattenAttributes(attrs: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attrs).flatMap(([k, v]) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.entries(flattenAttributes(v as Record<string, unknown>, `${prefix}${k}__`))
        : [[`${prefix}${k}`, v]],
    ),
  );
}

/** The error of each relation check whose values were not all found. */
export function relationErrors(checks: readonly RelationCheck[], results: readonly StatementResult[]): FieldErrors {
  const errors: FieldErrors = {};
  checks.forEach((check, i) => {
    if (check.verify) {
      const problems = check.verify(results[i].rows);
      if (problems.length) errors[check.param] = problems;
      return;
    }
    const found = new Set(results[i].rows.map((row) => String(row.k)));
    const missing = check.values.filter((v) => !found.has(v));
    if (missing.length) errors[check.param] = missing.map(invalidChoice);
  });
  return errors;
}

/** ORDER BY terms from `?ordering=` (unknown terms dropped, as NetBox does) or the model's default. */
export function planOrdering(model: Model, ordering: string | null, table = model.table): Cond[] {
  const terms = (ordering ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const toSql = (term: string): Cond | null => {
    const desc = term.startsWith("-");
    const name = desc ? term.slice(1) : term;
    const field = name === "id" ? null : model.field[name];
    const order = field ? KINDS[field.kind].order : undefined;
    if (name !== "id" && (!field || field.writeOnly || (!field.column && !order))) return null;
    const direction = sql.raw(desc ? "DESC" : "ASC");
    const refs = field && order ? order(field, table) : [sql.ref(`${table}.${field?.column ?? "id"}`)];
    // PostgreSQL's order, which NetBox's pages follow: empty values last ascending, first descending.
    if (field?.column && !order && field.nullable && !model.nullsFirst?.includes(name)) refs.unshift(sql`${refs[0]} IS NULL`);
    return sql.join(refs.map((ref) => sql`${ref} ${direction}`));
  };
  const chosen = terms.map(toSql).filter((x): x is Cond => x !== null);
  const order = chosen.length ? chosen : model.ordering.map(toSql).filter((x): x is Cond => x !== null);
  return [...order, sql`${sql.ref(`${table}.id`)} ASC`];
}

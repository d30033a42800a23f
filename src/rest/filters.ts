import { sql, type RawBuilder } from "kysely";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";
import { subtreeSql } from "./selection.ts";
import { qb } from "../db/query-builder.ts";
import type { Statement, StatementResult } from "../db/database.ts";
import type { FieldErrors } from "../http/errors.ts";

/** Query parameters that are not filters. */
const RESERVED = new Set(["limit", "offset", "ordering", "brief", "exclude", "fields", "omit", "format"]);

/** A relation filter's values that must exist; checked in the same round trip as the page. */
export interface RelationCheck {
  readonly param: string;
  readonly values: readonly string[];
  readonly statement: Statement;
  /** The values the check's rows show exist. */
  readonly found: (result: StatementResult) => Set<string>;
}

/** What a query string means for a model: conditions ANDed together, checks, and bad values. */
export interface FilterPlan {
  readonly conditions: RawBuilder<unknown>[];
  readonly checks: RelationCheck[];
  readonly errors: FieldErrors;
}

type Cond = RawBuilder<unknown>;
const or = (xs: Cond[]): Cond => (xs.length === 1 ? xs[0] : sql`(${sql.join(xs, sql` OR `)})`);
const not = (x: Cond): Cond => sql`NOT (${x})`;
const invalidChoice = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const TRUE = ["true", "1", "True"];
const BOOLEAN = [...TRUE, "false", "0", "False"];

/**
 * Translates a query string into SQL conditions for `model`, NetBox's way: repeated keys OR,
 * different keys AND, lookup suffixes (`name__ic`), relation filters by id (`site_id`) and by
 * natural key (`site`), `q`, tags, `created_by_request`. Unknown parameter names are ignored.
 * Pure: nothing here touches the database.
 */
export function planFilters(model: Model, params: URLSearchParams): FilterPlan {
  const plan: FilterPlan = { conditions: [], checks: [], errors: {} };
  for (const key of new Set(params.keys())) {
    if (RESERVED.has(key)) continue;
    const values = params.getAll(key).filter((x) => x !== "");
    if (values.length === 0) continue;
    applyFilter(plan, model, key, values);
  }
  return plan;
}

function applyFilter(plan: FilterPlan, model: Model, key: string, values: string[]): void {
  const [name, lookup = ""] = splitLookup(key);
  const col = (c: string) => sql.ref(`${model.table}.${c}`);
  const fail = (message: string): void => void ((plan.errors[key] ??= []) as string[]).push(message);

  if (name === "q") {
    const q = values[0].trim();
    if (!q) return;
    plan.conditions.push(or(model.search.map((s) => sql`${col(model.field[s].column!)} LIKE ${`%${likeEscape(q)}%`} ESCAPE '\\'`)));
    return;
  }
  if (name === "id") return numeric(plan, col("id"), lookup, values, fail, true);
  if (["created_by_request", "updated_by_request", "modified_by_request"].includes(name) && !lookup) {
    const actions = { created_by_request: ["create"], updated_by_request: ["update"], modified_by_request: ["create", "update"] }[name]!;
    plan.conditions.push(
      sql`${col("id")} IN (SELECT changed_object_id FROM core_objectchange WHERE changed_object_type = ${model.objectType} AND request_id IN (${sql.join(values)}) AND action IN (${sql.join(actions)}))`,
    );
    return;
  }
  if ((name === "tag" || name === "tag_id") && model.field.tags && (!lookup || lookup === "n")) {
    return tagFilter(plan, model, key, name === "tag_id", lookup === "n", values);
  }
  if (model.tree && (name === "ancestor" || name === "ancestor_id") && !lookup) {
    return relation(plan, model, model.field.parent, key, name === "ancestor_id", false, values, true);
  }
  const relationField = relationFor(model, name);
  if (relationField) {
    if (lookup && lookup !== "n") return;
    const byId = name.endsWith("_id");
    const subtree = Boolean(relationField.target!().tree) && relationField.target!() !== model;
    return relation(plan, model, relationField, key, byId, lookup === "n", values, subtree);
  }
  const field = model.field[name];
  if (!field || !field.column || field.writeOnly || field.kind === "json" || field.kind === "password") return;
  switch (field.kind) {
    case "string": case "text": case "slug": case "stringList": case "ipList":
      return text(plan, col(field.column), lookup, values, fail);
    case "integer": case "float": case "datetime":
      return numeric(plan, col(field.column), lookup, values, fail, field.kind === "integer");
    case "boolean": {
      if (lookup) return;
      if (!values.every((x) => BOOLEAN.includes(x))) return fail(invalidChoice(values.find((x) => !BOOLEAN.includes(x))!));
      plan.conditions.push(or(values.map((x) => sql`${col(field.column!)} = ${TRUE.includes(x) ? 1 : 0}`)));
      return;
    }
    case "choice": {
      if (lookup && lookup !== "n") return text(plan, col(field.column), lookup, values, fail);
      const allowed = new Map(field.choices!.map((c) => [String(c.value), c.value]));
      const bad = values.find((x) => !allowed.has(x));
      if (bad !== undefined) return fail(invalidChoice(bad));
      const cond = sql`${col(field.column)} IN (${sql.join(values.map((x) => allowed.get(x)))})`;
      plan.conditions.push(lookup === "n" ? not(cond) : cond);
      return;
    }
  }
}

/** `site_id` and `site` name the fk `site`; `group_id` and `group` the m2m `groups`. */
function relationFor(model: Model, name: string): Field | undefined {
  const base = name.endsWith("_id") ? name.slice(0, -3) : name;
  const fk = model.field[base];
  if (fk?.kind === "fk") return fk;
  const m2m = model.field[`${base}s`];
  if (m2m?.kind === "m2m" && !m2m.through?.objectTypeColumn) return m2m;
  return undefined;
}

function splitLookup(key: string): [string, string] {
  const i = key.lastIndexOf("__");
  return i > 0 ? [key.slice(0, i), key.slice(i + 2)] : [key, ""];
}

function text(plan: FilterPlan, column: Cond, lookup: string, values: string[], fail: (m: string) => void): void {
  const like = (pattern: (v: string) => string) => or(values.map((v) => sql`${column} LIKE ${pattern(likeEscape(v))} ESCAPE '\\'`));
  const nullSafeNot = (x: Cond) => sql`(${column} IS NULL OR NOT (${x}))`;
  const conditions: Record<string, () => Cond> = {
    "": () => sql`${column} IN (${sql.join(values)})`,
    n: () => nullSafeNot(sql`${column} IN (${sql.join(values)})`),
    ic: () => like((v) => `%${v}%`),
    nic: () => nullSafeNot(like((v) => `%${v}%`)),
    isw: () => like((v) => `${v}%`),
    nisw: () => nullSafeNot(like((v) => `${v}%`)),
    iew: () => like((v) => `%${v}`),
    niew: () => nullSafeNot(like((v) => `%${v}`)),
    ie: () => or(values.map((v) => sql`lower(${column}) = lower(${v})`)),
    nie: () => nullSafeNot(or(values.map((v) => sql`lower(${column}) = lower(${v})`))),
    empty: () => emptyCondition(column, values[0], fail, sql`''`),
  };
  const build = conditions[lookup];
  if (build) plan.conditions.push(build());
}

function numeric(plan: FilterPlan, column: Cond, lookup: string, values: string[], fail: (m: string) => void, integer: boolean): void {
  if (lookup === "empty") {
    plan.conditions.push(emptyCondition(column, values[0], fail, null));
    return;
  }
  const ops: Record<string, string> = { "": "=", n: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" };
  if (!(lookup in ops)) return;
  const pattern = integer ? /^-?\d+$/ : /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^\d{4}-\d{2}-\d{2}/;
  const bad = values.find((v) => !pattern.test(v));
  if (bad !== undefined) return fail(integer ? "Enter a whole number." : "Enter a number.");
  const parsed = values.map((v) => (/^\d{4}-/.test(v) ? v : Number(v)));
  const cond = or(parsed.map((v) => sql`${column} ${sql.raw(ops[lookup])} ${v}`));
  plan.conditions.push(lookup === "n" ? sql`(${column} IS NULL OR NOT (${cond}))` : cond);
}

function emptyCondition(column: Cond, value: string, fail: (m: string) => void, blank: Cond | null): Cond {
  if (!BOOLEAN.includes(value)) {
    fail(invalidChoice(value));
    return sql`1`;
  }
  const empty = blank ? sql`(${column} IS NULL OR ${column} = ${blank})` : sql`${column} IS NULL`;
  return TRUE.includes(value) ? empty : not(empty);
}

/** A relation filter: by id or natural key, `null` for none, descendants of tree targets included. */
function relation(
  plan: FilterPlan, model: Model, field: Field, key: string, byId: boolean, negate: boolean, values: string[], subtree: boolean,
): void {
  const target = field.target!();
  const keyColumn = byId ? "id" : target.field[target.naturalKey]?.column ?? "id";
  const wantsNull = values.includes("null");
  const given = values.filter((v) => v !== "null");
  if (byId) {
    const bad = given.find((v) => !/^\d+$/.test(v));
    if (bad !== undefined) {
      ((plan.errors[key] ??= []) as string[]).push(`“${bad}” is not a valid value.`);
      return;
    }
  }
  const typed = given.map((v) => (byId ? Number(v) : v));
  const parts: Cond[] = [];
  if (typed.length) {
    let ids: RawBuilder<unknown> = sql`SELECT id FROM ${sql.table(target.table)} WHERE ${sql.ref(keyColumn)} IN (${sql.join(typed)})`;
    if (subtree) ids = sql`SELECT id FROM ${subtreeSql(target, ids)}`;
    parts.push(matchRelated(model, field, ids));
    plan.checks.push({
      param: key,
      values: given,
      statement: sql`SELECT ${sql.ref(keyColumn)} AS k FROM ${sql.table(target.table)} WHERE ${sql.ref(keyColumn)} IN (${sql.join(typed)})`.compile(qb),
      found: (r) => new Set(r.rows.map((row) => String(row.k))),
    });
  }
  if (wantsNull) parts.push(matchRelated(model, field, null));
  if (!parts.length) return;
  const cond = or(parts);
  // Excluding related objects keeps rows that have none, as Django's exclude() does.
  const unset = field.kind === "fk" && !wantsNull ? sql`${sql.ref(`${model.table}.${field.column}`)} IS NULL OR ` : sql``;
  plan.conditions.push(negate ? sql`(${unset}NOT (${cond}))` : cond);
}

function matchRelated(model: Model, field: Field, ids: RawBuilder<unknown> | null): Cond {
  const self = sql.ref(`${model.table}.id`);
  if (field.kind === "fk") {
    const column = sql.ref(`${model.table}.${field.column}`);
    return ids ? sql`${column} IN (${ids})` : sql`${column} IS NULL`;
  }
  const t = field.through!;
  const through = sql`SELECT ${sql.ref(t.source)} FROM ${sql.table(t.table)}`;
  return ids
    ? sql`${self} IN (${through} WHERE ${sql.ref(t.target)} IN (${ids}))`
    : sql`${self} NOT IN (${through})`;
}

/** Tags: every listed tag must be present (AND), as NetBox does; `tag__n` excludes any of them. */
function tagFilter(plan: FilterPlan, model: Model, key: string, byId: boolean, negate: boolean, values: string[]): void {
  const tagModel = model.field.tags.target!();
  if (byId && values.some((v) => !/^\d+$/.test(v))) {
    ((plan.errors[key] ??= []) as string[]).push(`“${values.find((v) => !/^\d+$/.test(v))}” is not a valid value.`);
    return;
  }
  const typed = values.map((v) => (byId ? Number(v) : v));
  const column = byId ? "id" : "slug";
  const has = (v: unknown) =>
    sql`EXISTS (SELECT 1 FROM extras_taggeditem ti JOIN extras_tag tg ON tg.id = ti.tag_id WHERE ti.object_type = ${model.objectType} AND ti.object_id = ${sql.ref(`${model.table}.id`)} AND tg.${sql.ref(column)} = ${v})`;
  plan.conditions.push(negate ? not(or(typed.map(has))) : sql`(${sql.join(typed.map(has), sql` AND `)})`);
  plan.checks.push({
    param: key,
    values,
    statement: sql`SELECT ${sql.ref(column)} AS k FROM ${sql.table(tagModel.table)} WHERE ${sql.ref(column)} IN (${sql.join(typed)})`.compile(qb),
    found: (r) => new Set(r.rows.map((row) => String(row.k))),
  });
}

/** The error of each relation check whose values were not all found. */
export function relationErrors(checks: readonly RelationCheck[], results: readonly StatementResult[]): FieldErrors {
  const errors: FieldErrors = {};
  checks.forEach((check, i) => {
    const found = check.found(results[i]);
    const missing = check.values.filter((v) => !found.has(v));
    if (missing.length) errors[check.param] = missing.map(invalidChoice);
  });
  return errors;
}

/** ORDER BY terms from `?ordering=` (unknown terms dropped, as NetBox does) or the model's default. */
export function planOrdering(model: Model, ordering: string | null): RawBuilder<unknown>[] {
  const terms = (ordering ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  const toSql = (term: string): RawBuilder<unknown> | null => {
    const desc = term.startsWith("-");
    const name = desc ? term.slice(1) : term;
    const field = name === "id" ? null : model.field[name];
    if (name !== "id" && (!field || field.writeOnly || field.kind === "m2m" || (!field.column && field.kind !== "count"))) return null;
    const ref = field?.kind === "count" ? sql.ref(field.name) : sql.ref(`${model.table}.${field?.column ?? "id"}`);
    return sql`${ref} ${sql.raw(desc ? "DESC" : "ASC")}`;
  };
  const chosen = terms.map(toSql).filter((x): x is RawBuilder<unknown> => x !== null);
  const order = chosen.length ? chosen : model.ordering.map(toSql).filter((x): x is RawBuilder<unknown> => x !== null);
  return [...order, sql`${sql.ref(`${model.table}.id`)} ASC`];
}

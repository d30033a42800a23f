import type { Field, Form, Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql } from "kysely";
import { PAGE_TEXT, type Statement } from "../db/database.ts";
import { fragment, qb, Slot, Template } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import type { FieldErrors } from "../schema/errors.ts";
import { planFilters, planOrdering, type RelationCheck } from "./filters.ts";
import { scopeKey, scopeSql, unrestricted } from "./scope.ts";
import { fieldsKey, joinedSelectSql, PAGE_IDS, selectSql, type SelectOptions } from "./select.ts";
import { finalSelect, type FinalSelect } from "./final-json.ts";

/*
 * The statements of a list or detail read, built once per request shape and bound per request.
 * A shape is the model, the fields read, the ordering and the requester's scope (`scopeKey`);
 * the id, the page's limit and offset are parameters. Filter conditions are a fragment of the
 * shape, compiled once per distinct query string and scope (their SQL can depend on the values:
 * `null`, a prefix's family, a list), and the statement text is then the same string for every
 * request of that filter shape, so the driver finds its prepared statement by that text.
 */

/**
 * Shapes kept per cache: `?fields=` and query strings make them, so a bound bounds the memory
 * (a statement's text is 8 KB on average, 98 KB at most, with its select).
 */
const LIMIT = 256;

const cached = <T>(cache: Map<string, T>, key: string, build: () => T): T => remembered(cache, key, build, LIMIT);

/**
 * What a read of the model needs of its custom fields, when the requester's auth data says
 * (`ObjectFields`): whether the type has any, and the related types its object fields name.
 */
export function customFieldsRead(ctx: Actor, model: Model): SelectOptions {
  const known = ctx.auth?.objectFields;
  if (!known) return { customFieldTypes: null };
  const types = known.get(model.objectType);
  return { customFieldTypes: types ?? [], customFields: types !== undefined };
}

/** A shape's key: the model, the fields read, what its custom fields resolve, and the requester's scope. */
function shapeKey(ctx: Actor, model: Model, fields: readonly Field[]): string {
  const { customFieldTypes, customFields } = customFieldsRead(ctx, model);
  return `${model.objectType}\n${fieldsKey(fields)}\n${customFields ?? true} ${customFieldTypes?.join(",") ?? "*"}\n${scopeKey(ctx)}`;
}

const details = new Map<string, Template>();

/** The detail read of object `id`: its selected fields, within the requester's view scope. */
export function detailStatement(
  ctx: Actor,
  model: Model,
  id: number,
  fields: readonly Field[],
  final: FinalSelect | null = null,
): Statement {
  const template = cached(
    details,
    `${shapeKey(ctx, model, fields)}\n${final?.key ?? ""}`,
    () =>
      new Template(
        sql`SELECT ${final ? final.select : selectSql(model, fields, customFieldsRead(ctx, model))} FROM ${sql.table(model.table)} WHERE id = ${new Slot("id")} AND ${scopeSql(ctx, model, "view")}`,
      ),
  );
  return template.bind({ id, origin: ctx.origin });
}

/**
 * The final JSON select (final-json.ts) of a read of `fields` in `form`, or null when its objects
 * are shaped in JavaScript. Its custom fields must be known absent (`customFieldsRead`).
 */
export function finalRead(ctx: Actor, model: Model, fields: readonly Field[], form: Form, joined: boolean): FinalSelect | null {
  const { customFields = true } = customFieldsRead(ctx, model);
  return finalSelect(model, fields, form, { customFields, joined });
}

interface ListTemplates {
  readonly page: Template;
  readonly count: Template;
}

const lists = new Map<string, ListTemplates>();

/** A list's filters, planned and compiled: the condition, the checks of relation values, the errors. */
interface PlannedFilters {
  readonly where: Statement;
  readonly checks: readonly RelationCheck[];
  readonly errors: FieldErrors;
  /** The count of the rows `where` matches from a stored tally (`FilterPlan.tally`), valid for a requester who sees every row. */
  readonly tally: Statement | null;
}

const filterPlans = new Map<string, PlannedFilters>();
const NO_FILTER: Statement = { sql: "1", parameters: [] };

/**
 * The planned filters of a list request; the same query string for the same scope is planned once.
 * `strict`: an unknown filter name or lookup is an error rather than ignored (STRICT_FILTERING).
 */
export function plannedFilters(ctx: Actor, model: Model, filters: readonly (readonly [string, string])[], strict = false): PlannedFilters {
  if (!filters.length) return { where: NO_FILTER, checks: [], errors: {}, tally: null };
  return cached(filterPlans, `${model.objectType}\n${scopeKey(ctx)}\n${strict}\n${JSON.stringify(filters)}`, () => {
    const params = new URLSearchParams(filters.map(([name, value]) => [name, value]));
    const plan = planFilters(model, params, { visible: (related) => scopeSql(ctx, related, "view"), strict });
    const where = plan.conditions.length ? sql.join(plan.conditions, sql` AND `).compile(qb) : NO_FILTER;
    const tally = plan.tally ? sql`SELECT ${plan.tally} AS n`.compile(qb) : null;
    return { where, checks: plan.checks, errors: plan.errors, tally };
  });
}

/** What one list read asks for, its filters planned (`plannedFilters`). */
export interface ListWindow {
  readonly fields: readonly Field[];
  readonly ordering: string | null;
  readonly where: Statement;
  /** Objects written as their final JSON (`finalRead`, joined), column `__json`, instead of raw rows. */
  readonly final?: FinalSelect | null;
  /** `PlannedFilters.tally`: the count, when the requester sees every row. */
  readonly tally?: Statement | null;
  readonly limit: number | null;
  readonly offset: number;
}

/** A list's page and count statements. */
export function listStatements(ctx: Actor, model: Model, window: ListWindow): [page: Statement, count: Statement] {
  const { fields, ordering } = window;
  const final = window.final ?? null;
  const templates = cached(lists, `${shapeKey(ctx, model, fields)}\n${ordering ?? ""}\n${final?.key ?? ""}`, () => {
    const table = sql.table(model.table);
    const where = sql`${scopeSql(ctx, model, "view")} AND (${fragment("filters")})`;
    const order = sql.join(planOrdering(model, ordering));
    // The page's ids first, on the bare rows; then the representation of those rows only. Built in
    // one SELECT, SQLite made the whole representation of every row it sorted or skipped (a temp
    // B-tree sorts whole result rows): an offset of 1,000 cost 1,000 representations.
    // Its WHERE names the page's ids alone, so the select may read related objects by joins, and
    // a field may compute what the whole page shares from them (config contexts, related objects).
    const { select, joins, paged, pageColumns, ctes } = final ?? {
      ...joinedSelectSql(model, fields, customFieldsRead(ctx, model)),
      ctes: null,
    };
    const ids = sql`SELECT ${sql.join([sql.ref(`${model.table}.id`), ...pageColumns])} FROM ${table} WHERE ${where}
      ORDER BY ${order} LIMIT ${new Slot("limit")} OFFSET ${new Slot("offset")}`;
    const page = sql.raw(PAGE_IDS);
    const rows = paged
      ? sql`WITH ${page} AS (${ids})${ctes ? sql`, ${ctes}` : sql``} SELECT ${select} FROM ${table} ${joins}
        WHERE ${sql.ref(`${model.table}.id`)} IN (SELECT id FROM ${page})`
      : sql`SELECT ${select} FROM ${table} ${joins}
        WHERE ${sql.ref(`${model.table}.id`)} IN (${ids})`;
    const ordered = sql`${rows} ORDER BY ${order}`;
    // Objects written whole (no holes for the engine to fill) are read as the page's one text, so
    // a driver can hand it over as it is (PAGE_TEXT); an aggregate reads its ordered subquery in order.
    const whole = final !== null && !final.gaps.length;
    return {
      page: new Template(whole ? sql`SELECT group_concat(__json, ',') AS ${sql.ref(PAGE_TEXT)} FROM (${ordered})` : ordered),
      count: new Template(sql`SELECT count(*) AS n FROM ${table} WHERE ${where}`),
    };
  });
  const filters = { filters: window.where };
  const count = window.tally && unrestricted(ctx, model, "view") ? window.tally : templates.count.bind({}, filters);
  return [templates.page.bind({ limit: window.limit ?? -1, offset: window.offset, origin: ctx.origin }, filters), count];
}

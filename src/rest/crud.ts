import { sql, type RawBuilder } from "kysely";
import { ConstraintError, type Row, type Statement } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { authorize } from "../auth/permissions.ts";
import { changeRecordStatement, snapshot, type M2mSnapshot } from "../changes/record.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError, type FieldErrors } from "../http/errors.ts";
import { paginated, parsePage } from "../http/pagination.ts";
import type { Model } from "../models/model.ts";
import { planFilters, planOrdering, relationErrors } from "./filters.ts";
import { isRef, parseInput, type Mode } from "./input.ts";
import { runProbes, type Probe } from "./probes.ts";
import { referenceProbes, refSql, type Item } from "./references.ts";
import { registry } from "../models/registry.ts";
import { renderedFields, selectionSql, subtreeSql } from "./selection.ts";
import { represent, type Form } from "./serialize.ts";
import { uniqueMessage, uniquenessProbes } from "./uniqueness.ts";
import {
  currentM2mStatement, deleteStatements, depthRefreshStatement, insertedId, insertStatement,
  m2mStatements, storedColumns, updateStatement,
} from "./write-statements.ts";

/** `?brief=` with any non-empty value selects the brief form, as NetBox does. */
export const formOf = (ctx: RequestContext): Form => (ctx.url.searchParams.get("brief") ? "brief" : "full");

/** The condition limiting rows to those the requester may see (object-level scope). */
function scopeSql(ctx: RequestContext, model: Model): RawBuilder<unknown> {
  const scope = model.hooks?.scope?.(ctx);
  return scope ? sql`${sql.ref(`${model.table}.${scope.column}`)} = ${scope.value}` : sql`1`;
}

/** GET on a list endpoint: one round trip for page, count and filter checks, one for related objects. */
export async function listObjects(ctx: RequestContext, model: Model) {
  authorize(ctx, model, "view");
  const params = ctx.url.searchParams;
  const page = parsePage(ctx.config, params);
  const form = formOf(ctx);
  const plan = planFilters(model, params);
  if (Object.keys(plan.errors).length) throw ApiError.invalid(plan.errors);
  const where = sql.join([scopeSql(ctx, model), ...plan.conditions], sql` AND `);
  const table = sql.table(model.table);
  const pageSql = sql`SELECT ${selectionSql(model, renderedFields(model, form))} FROM ${table} WHERE ${where}
    ORDER BY ${sql.join(planOrdering(model, params.get("ordering")))} LIMIT ${page.limit ?? -1} OFFSET ${page.offset}`;
  const countSql = sql`SELECT count(*) AS n FROM ${table} WHERE ${where}`;
  const [rows, count, ...checks] = await ctx.db.batch(
    [pageSql.compile(qb), countSql.compile(qb), ...plan.checks.map((c) => c.statement)],
    "read",
  );
  const errors = relationErrors(plan.checks, checks);
  if (Object.keys(errors).length) throw ApiError.invalid(errors);
  return paginated(ctx.url, page, Number(count.rows[0].n), await represent(ctx, model, rows.rows, form));
}

/** GET on a detail endpoint. */
export async function retrieveObject(ctx: RequestContext, model: Model, id: number) {
  authorize(ctx, model, "view");
  const form = formOf(ctx);
  const [result] = await ctx.db.batch(
    [sql`SELECT ${selectionSql(model, renderedFields(model, form))} FROM ${sql.table(model.table)} WHERE id = ${id} AND ${scopeSql(ctx, model)}`.compile(qb)],
    "read",
  );
  if (!result.rows.length) throw ApiError.notFound(model.className);
  return (await represent(ctx, model, result.rows, form))[0];
}

/** The stored rows (and their m2m sets) of objects about to change, for snapshots and checks. */
function currentProbes(ctx: RequestContext, model: Model, ids: readonly number[], subtree: boolean) {
  const rows = new Map<number, Row>();
  const m2m = new Map<number, M2mSnapshot>();
  const idSql = subtree && model.tree ? sql`SELECT id FROM ${subtreeSql(model, sql.join([...ids]))}` : sql.join([...ids]);
  const probes: Probe[] = [
    {
      statement: sql`SELECT ${selectionSql(model, renderedFields(model, "full"))} FROM ${sql.table(model.table)}
        WHERE id IN (${idSql}) AND ${scopeSql(ctx, model)}`.compile(qb),
      settle: (r) => r.rows.forEach((row) => rows.set(Number(row.id), row)),
    },
  ];
  for (const field of model.fields.filter((x) => x.kind === "m2m")) {
    probes.push({
      statement: currentM2mStatement(model, field, idSql),
      settle: (r) => {
        for (const row of r.rows) {
          const snap = m2m.get(Number(row.source)) ?? {};
          (snap[field.name] ??= []).push(row.label);
          m2m.set(Number(row.source), snap);
        }
      },
    });
  }
  return { rows, m2m, probes };
}

/** A list body's items, or the refusal NetBox gives for anything else. */
export function asList(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const type = body === null ? "NoneType" : typeof body === "object" ? "dict" : typeof body === "string" ? "str" : typeof body;
  throw ApiError.invalid({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
}

/** The `id` of each item of a bulk update or delete; a missing or bad id fails the whole request. */
export function bulkIds(items: unknown[]): number[] {
  const errors: FieldErrors[] = items.map((item) => {
    const id = (item as Record<string, unknown> | null)?.id;
    if (id === undefined || id === null) return { id: ["This field is required."] };
    return /^\d+$/.test(String(id)) ? {} : { id: ["A valid integer is required."] };
  });
  if (errors.some((e) => Object.keys(e).length)) throw ApiError.invalid(errors);
  return items.map((item) => Number((item as Record<string, unknown>).id));
}

/** Throws the collected errors: one object for a single write, a list aligned with a bulk input. */
function throwIfInvalid(items: readonly Item[], bulk: boolean): void {
  if (!items.some((i) => Object.keys(i.errors).length)) return;
  throw ApiError.invalid(bulk ? items.map((i) => i.errors) : items[0].errors);
}

const changelogMessage = (input: unknown): string => {
  const m = (input as Record<string, unknown> | null)?.changelog_message;
  return typeof m === "string" ? m.slice(0, 200) : "";
};

/**
 * Creates or updates objects, all or none. Costs three round trips whatever the number of objects:
 * one read batch (current rows, references, uniqueness), one write transaction (rows, m2m links,
 * change records, returning the rows), and one read batch for the related objects of the response.
 */
export async function writeObjects(
  ctx: RequestContext, model: Model, inputs: readonly unknown[], mode: Mode, ids: readonly (number | null)[], bulk: boolean,
): Promise<Row[]> {
  authorize(ctx, model, mode === "create" ? "add" : "change");
  const items: Item[] = inputs.map((input) => ({ ...parseInput(model, input, mode), names: new Map() }));
  const updating = ids.filter((x): x is number => x !== null);
  const current = currentProbes(ctx, model, updating, false);
  const probes: Probe[] = [
    ...(updating.length ? current.probes : []),
    ...referenceProbes(model, items),
    ...uniquenessProbes(model, items, ids),
    ...cycleProbes(model, items, ids),
  ];
  await runProbes(ctx, probes);

  // Bulk updates skip ids that do not exist (or are out of scope), as NetBox does.
  const live = items.map((_, i) => ids[i] === null || current.rows.has(ids[i]!));
  if (!bulk && !live[0]) throw ApiError.notFound(model.className);
  const extras: Record<string, unknown>[] = [];
  for (const [i, item] of items.entries()) {
    if (!live[i] || Object.keys(item.errors).length) continue;
    const prepared = await model.hooks?.prepareWrite?.(ctx, item.values, ids[i] === null ? null : current.rows.get(ids[i]!)!);
    if (prepared?.errors) Object.assign(item.errors, prepared.errors);
    extras[i] = prepared?.columns ?? {};
  }
  throwIfInvalid(items, bulk);

  const statements: Statement[] = [];
  const returning: number[] = [];
  items.forEach((item, i) => {
    if (!live[i]) return;
    const id = ids[i];
    const pre = id === null ? null : { row: current.rows.get(id)!, m2m: current.m2m.get(id) ?? {} };
    returning.push(statements.length);
    statements.push(...objectStatements(ctx, model, item, id, pre, extras[i], changelogMessage(inputs[i])));
  });
  // A moved nested group moves its descendants: their depths are recomputed in the same transaction.
  if (model.tree && items.some((item, i) => live[i] && ids[i] !== null && item.values.parent !== undefined)) {
    statements.push(depthRefreshStatement(model));
  }
  const results = await executeWrite(ctx, model, statements, bulk);
  return returning.map((index) => results[index].rows[0]);
}

/**
 * The statements writing one object: its INSERT or UPDATE first (returning the row), then its m2m
 * links, then its change record with the snapshots before and after.
 */
function objectStatements(
  ctx: RequestContext, model: Model, item: Item, id: number | null,
  pre: { row: Row; m2m: M2mSnapshot } | null, extra: Record<string, unknown>, message: string,
): Statement[] {
  // Custom field data sent on update is merged over the stored data, as NetBox does.
  if (pre && item.values.custom_fields && typeof pre.row.custom_field_data === "string") {
    item.values.custom_fields = { ...JSON.parse(pre.row.custom_field_data), ...(item.values.custom_fields as object) };
  }
  const columns = storedColumns(ctx, model, item.values, id === null, extra);
  const objectId = id ?? insertedId(model);
  const out = [id === null ? insertStatement(model, columns) : updateStatement(model, id, columns)];
  const m2m: M2mSnapshot = { ...pre?.m2m };
  for (const field of model.fields.filter((x) => x.kind === "m2m")) {
    const chosen = item.values[field.name] as number[] | undefined;
    if (chosen === undefined) continue;
    out.push(...m2mStatements(model, field, objectId, chosen, id !== null));
    m2m[field.name] = field.through!.objectTypeColumn ? chosen.map((x) => item.names.get(x) ?? x) : chosen;
  }
  const merged = { ...pre?.row, ...Object.fromEntries(columns) };
  const before = pre ? snapshot(model, pre.row, pre.m2m) : null;
  out.push(changeRecordStatement(ctx, model, pre ? "update" : "create", objectId, model.display(merged), before, snapshot(model, merged, m2m), message));
  return out;
}

/** A nested group may not become its own ancestor. */
function cycleProbes(model: Model, items: readonly Item[], ids: readonly (number | null)[]): Probe[] {
  if (!model.tree) return [];
  return items.flatMap((item, i): Probe[] => {
    const parent = item.values.parent;
    const self = ids[i];
    if (self === null || parent === undefined || parent === null) return [];
    const parentSql = refSql(model, isRef(parent) ? parent : (parent as number));
    return [{
      statement: sql`SELECT 1 AS hit FROM ${subtreeSql(model, sql`${self}`)} WHERE id = ${parentSql}`.compile(qb),
      settle: (r) => {
        if (r.rows.length) item.errors.parent = [`Cannot assign self or child ${model.verboseName} as parent.`];
      },
    }];
  });
}

/** Runs a write batch; a constraint that fires anyway (a concurrent writer) becomes a clear 400/409. */
async function executeWrite(ctx: RequestContext, model: Model, statements: Statement[], bulk: boolean) {
  try {
    return await ctx.db.batch(statements, "write");
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    if (error.kind === "unique") {
      const where = error.columns.join(" ");
      const field = model.fields.find((x) => x.column && where.includes(`${model.table}.${x.column}`));
      const rule = model.uniqueTogether?.find((u) => where.includes(`${model.table}_${u.fields.join("_")}`));
      const errors = field ? { [field.name]: [uniqueMessage(model, field.name)] } : { __all__: [rule?.message ?? "An object with these values already exists."] };
      throw ApiError.invalid(bulk ? [errors] : errors);
    }
    if (error.kind === "foreign_key") {
      throw ApiError.detail("conflict", "The operation conflicts with related objects that changed at the same time. Nothing was written; please retry.");
    }
    throw ApiError.invalid({ non_field_errors: [error.message] });
  }
}

/** Deletes objects (with a tree's descendants), all or none; dependents that protect them give 409. */
export async function deleteObjects(ctx: RequestContext, model: Model, ids: readonly number[], bulk: boolean): Promise<void> {
  authorize(ctx, model, "delete");
  if (ids.length === 0) return;
  const current = currentProbes(ctx, model, ids, true);
  const blockers: { model: Model; rows: Row[] }[] = [];
  const targetIds = model.tree ? sql`SELECT id FROM ${subtreeSql(model, sql.join([...ids]))}` : sql.join([...ids]);
  const protect = registry.referencesTo(model).filter((r) => r.field.onDelete === "protect" && r.model !== model);
  const probes: Probe[] = [
    ...current.probes,
    ...protect.map((ref): Probe => ({
      statement: sql`SELECT ${sql.table(ref.model.table)}.*, count(*) OVER () AS __total FROM ${sql.table(ref.model.table)}
        WHERE ${sql.ref(ref.field.column!)} IN (${targetIds}) ORDER BY id LIMIT 10`.compile(qb),
      settle: (r) => void (r.rows.length && blockers.push({ model: ref.model, rows: r.rows })),
    })),
  ];
  await runProbes(ctx, probes);
  if (!bulk && !current.rows.has(ids[0])) throw ApiError.notFound(model.className);
  if (blockers.length) {
    const total = blockers.reduce((n, b) => n + Number(b.rows[0].__total), 0);
    const named = blockers.flatMap((b) => b.rows.map((r) => `${b.model.display(r)} (${r.id})`));
    throw ApiError.detail("conflict", `Unable to delete object. ${total} dependent objects were found: ${named.join(", ")}`);
  }
  const doomed = [...current.rows.keys()];
  if (doomed.length === 0) return;
  const statements = [
    ...deleteStatements(model, doomed),
    ...doomed.map((id) => {
      const row = current.rows.get(id)!;
      return changeRecordStatement(ctx, model, "delete", id, model.display(row), snapshot(model, row, current.m2m.get(id)), null, "");
    }),
  ];
  await executeWrite(ctx, model, statements, bulk);
}


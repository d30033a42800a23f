import type { Field, Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { readBatch, writeBatch } from "./unit-of-work.ts";
import { sql, type RawBuilder } from "kysely";
import { ConstraintError, type Row, type Statement } from "../db/database.ts";
import { qb, Slot, Template } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { authorize } from "./permissions.ts";
import { scopeKey, scopeSql, unrestricted } from "./scope.ts";
import { changeRecordStatement, deletionRecordStatement, insertedRecordsStatement, updatedRecordsStatement } from "./changes/record.ts";
import { cascadeRecordStatements } from "./changes/cascade.ts";
import { deleteRulesProbe, type DeletedObjects } from "./outbox.ts";
import { clearingStatements, setNullStatements } from "./changes/set-null.ts";
import { ApiError, type FieldErrors } from "../schema/errors.ts";
import type { Page } from "../lib/pagination.ts";
import type { WriteItem, Probe, AllocationPlan } from "../schema/hooks.ts";
import { isRef } from "../schema/kinds/descriptor.ts";
import { KINDS, mirrorOf } from "../schema/kinds/index.ts";
import { relationErrors } from "./filters.ts";
import { customFieldsRead, detailStatement, finalRead, listStatements, plannedFilters } from "./read-statements.ts";
import { finalTexts, pageText } from "./final-json.ts";
import { parseInput, type Mode } from "./input.ts";
import { runProbes } from "./probes.ts";
import { customFieldWrite } from "./custom-fields.ts";
import { referenceProbes, refSql } from "./references.ts";
import { idList, rowsOf, selectSql, snapshotSql, subtreeSql } from "./select.ts";
import { represent } from "./serialize.ts";
import { uniqueMessage, uniquenessProbes } from "./uniqueness.ts";
import {
  deleteStatements,
  depthRefreshStatement,
  guardSql,
  guardStatement,
  insertedId,
  insertRowsStatements,
  insertStatement,
  m2mStatements,
  storedColumns,
  updateRowsStatements,
  updateStatement,
} from "./write-statements.ts";

type Out = Record<string, unknown>;

/**
 * What a read renders, as the requester asked it (the HTTP layer reads it from `?fields=a,b`,
 * `?brief=`, `?omit=a,b` and `?exclude=config_context`; see `selectionOf` in http/list-query.ts).
 * Applied in SQL: an unselected field's related objects and counts are never queried.
 */
export interface Selection {
  /** Only these output keys (brief and omit are then ignored); empty: no such choice. */
  readonly fields: readonly string[];
  /** The brief form. */
  readonly brief: boolean;
  /** The fields left out of the full form. */
  readonly omit: readonly string[];
}

/** Every field of the full form. */
export const FULL: Selection = { fields: [], brief: false, omit: [] };
/** The brief form. */
export const BRIEF: Selection = { fields: [], brief: true, omit: [] };

/** What to ask a list for: its filters, order, page and selection. Plain data; nothing here reads a request. */
export interface ListQuery {
  /**
   * The filter parameters as (name, value) pairs, in the order given: field filters with their
   * lookups (`name__ic`), `q`, `cf_*`, `created_by_request`...; repeated names OR, different names AND.
   */
  readonly filters: readonly (readonly [string, string])[];
  /** `ordering`: comma-separated field names, `-` for descending; null for the model's default. */
  readonly ordering: string | null;
  readonly page: Page;
  readonly selection: Selection;
  /** Refuse a filter name or lookup the model does not have (STRICT_FILTERING), rather than ignore it. */
  readonly strict?: boolean;
}

/** A page of a list: the count of every match, and the rendered objects of the page. */
export interface ListResult {
  readonly count: number;
  readonly results: Out[];
}

/**
 * A page of a list whose objects SQLite wrote as their final JSON text (src/engine/final-json.ts):
 * each object's text, or all of them joined by commas as one text or its UTF-8 bytes (`PAGE_TEXT`).
 */
export interface ListText {
  readonly count: number;
  readonly texts: readonly string[] | string | Uint8Array;
}

/** A selection resolved against a model: the form, the fields read, and the output keys kept. */
interface Rendering {
  readonly form: "full" | "brief";
  readonly fields: readonly Field[];
  /** The output keys to keep, when `fields` named them. */
  readonly keys: ReadonlySet<string> | null;
}

function renderingOf(model: Model, selection: Selection): Rendering {
  if (selection.fields.length) {
    const keys = new Set(selection.fields);
    return {
      form: "full",
      fields: model.readableFields.filter((f) => keys.has(f.name) || keys.has(mirrorOf(f) ?? f.name)),
      keys,
    };
  }
  if (selection.brief) return { form: "brief", fields: model.briefFields, keys: null };
  const omitted = new Set(selection.omit);
  const fields = omitted.size ? model.readableFields.filter((f) => !omitted.has(f.name)) : model.readableFields;
  return { form: "full", fields, keys: null };
}

/** The selected representation of rows read with `selectSql(model, rendering.fields)`. */
async function render(ctx: Actor, model: Model, rows: readonly Row[], rendering: Rendering): Promise<Out[]> {
  const outs = await represent(ctx, model, rows, rendering);
  if (!rendering.keys) return outs;
  return outs.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => rendering.keys!.has(k))));
}

/**
 * A list read: page, count, filter checks and every related object in one round trip. The
 * caller wraps the page in its envelope (the REST API's next/previous links: `paginated`).
 */
export async function listObjects(ctx: Actor, model: Model, query: ListQuery): Promise<ListResult> {
  return (await listRead(ctx, model, query, false)) as ListResult;
}

/**
 * `listObjects`, its objects written as their final JSON text by SQLite where the shape allows
 * (`finalRead`): what an answer made of text takes, with nothing parsed or shaped here.
 */
export function listTexts(ctx: Actor, model: Model, query: ListQuery): Promise<ListResult | ListText> {
  return listRead(ctx, model, query, true);
}

async function listRead(ctx: Actor, model: Model, query: ListQuery, asText: boolean): Promise<ListResult | ListText> {
  authorize(ctx, model, "view");
  const { page } = query;
  const rendering = renderingOf(model, query.selection);
  const final = asText && !rendering.keys ? finalRead(ctx, model, rendering.fields, rendering.form, true) : null;
  const filters = model.hooks?.prepareFilters ? await model.hooks.prepareFilters(ctx, query.filters) : query.filters;
  const plan = plannedFilters(ctx, model, filters, query.strict);
  if (Object.keys(plan.errors).length) throw ApiError.invalid(plan.errors);
  const statements = listStatements(ctx, model, {
    fields: rendering.fields,
    ordering: query.ordering,
    where: plan.where,
    tally: plan.tally,
    final,
    ...page,
  });
  const [rows, count, ...checks] = await readBatch(ctx, [...statements, ...plan.checks.map((c) => c.statement)]);
  const errors = relationErrors(plan.checks, checks);
  if (Object.keys(errors).length) throw ApiError.invalid(errors);
  const total = Number(count.rows[0].n);
  if (final) return { count: total, texts: final.gaps.length ? finalTexts(ctx, final, rows.rows) : pageText(rows.rows) };
  return { count: total, results: await render(ctx, model, rowsOf(rows.rows), rendering) };
}

/** A detail read: one statement, in one round trip. */
export async function retrieveObject(ctx: Actor, model: Model, id: number, selection: Selection): Promise<Out> {
  return (await retrieveRead(ctx, model, id, selection, false)) as Out;
}

/** `retrieveObject`, as the JSON text SQLite wrote where the shape allows (`finalRead`). */
export function retrieveText(ctx: Actor, model: Model, id: number, selection: Selection): Promise<Out | string> {
  return retrieveRead(ctx, model, id, selection, true);
}

async function retrieveRead(ctx: Actor, model: Model, id: number, selection: Selection, asText: boolean): Promise<Out | string> {
  authorize(ctx, model, "view");
  const rendering = renderingOf(model, selection);
  const final = asText && !rendering.keys ? finalRead(ctx, model, rendering.fields, rendering.form, false) : null;
  const [result] = await readBatch(ctx, [detailStatement(ctx, model, id, rendering.fields, final)]);
  if (!result.rows.length) throw ApiError.notFound(model.className);
  if (final) return finalTexts(ctx, final, result.rows)[0];
  return (await render(ctx, model, rowsOf(result.rows), rendering))[0];
}

/** The stored rows (columns plus change-record snapshot) of objects about to change. */
function currentProbe(ctx: Actor, model: Model, ids: RawBuilder<unknown>, into: Map<number, Row>): Probe {
  return {
    statement: sql`SELECT ${sql.table(model.table)}.*, ${snapshotSql(model)} AS __snapshot
      FROM ${sql.table(model.table)} WHERE id IN ${ids} AND ${scopeSql(ctx, model, "change")}`.compile(qb),
    settle: (r) => r.rows.forEach((row) => into.set(Number(row.id), row)),
  };
}

/** A list body's items, or the refusal NetBox gives for anything else. */
export function asList(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const type = body === null ? "NoneType" : typeof body === "object" ? "dict" : typeof body === "string" ? "str" : typeof body;
  throw ApiError.invalid({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
}

/** Refuses a bulk request larger than MAX_BULK_OBJECTS before any work is done. */
export function checkBulkSize(ctx: Actor, count: number): void {
  const max = ctx.config.MAX_BULK_OBJECTS;
  if (count > max)
    throw ApiError.detail("invalid", `A bulk request may hold at most ${max} objects (MAX_BULK_OBJECTS); this one holds ${count}.`);
}

/**
 * What a bulk update or delete says of an id that does not exist or that the requester may not
 * act on: the same words for both, so a bulk request cannot tell which ids exist (a detail
 * endpoint answers 404 for both).
 */
export const OBJECT_NOT_FOUND = "Object not found.";

/**
 * The `id` of each item of a bulk update or delete; a missing or bad id fails the whole request,
 * and so does an id listed twice: which of its items should win is anyone's guess (NetBox keeps
 * the last for an update, and one for a delete), so the request is refused, aligned with the
 * later mentions, and nothing is written.
 */
export function bulkIds(ctx: Actor, items: unknown[]): number[] {
  checkBulkSize(ctx, items.length);
  const seen = new Set<string>();
  const errors: FieldErrors[] = items.map((item) => {
    const id = (item as Record<string, unknown> | null)?.id;
    if (id === undefined || id === null) return { id: ["This field is required."] };
    if (!/^\d{1,15}$/.test(String(id))) return { id: ["A valid integer is required."] };
    const key = String(Number(id));
    if (seen.has(key)) return { id: ["This object is listed more than once in the request."] };
    seen.add(key);
    return {};
  });
  if (errors.some((e) => Object.keys(e).length)) throw ApiError.invalid(errors);
  return items.map((item) => Number((item as Record<string, unknown>).id));
}

/** Throws the collected errors: one object for a single write, a list aligned with a bulk input. */
function throwIfInvalid(items: readonly WriteItem[], { bulk }: { readonly bulk: boolean }): void {
  if (!items.some((i) => Object.keys(i.errors).length)) return;
  throw ApiError.invalid(bulk ? items.map((i) => i.errors) : items[0].errors);
}

const changelogMessage = (input: unknown): string => {
  const m = (input as Record<string, unknown> | null)?.changelog_message;
  return typeof m === "string" ? m.slice(0, 200) : "";
};

/** What a create or update asks for. */
export interface WriteRequest {
  /** The request's objects, as sent. */
  readonly inputs: readonly unknown[];
  readonly mode: Mode;
  /** The id each input updates, or null where it creates. */
  readonly ids: readonly (number | null)[];
  /** A list body: errors come back as a list aligned with it, and an unknown id fails it whole (no 404). */
  readonly bulk: boolean;
  /** The free space an allocation endpoint fills, which the model's hooks pick from inside the transaction. */
  readonly allocation?: AllocationPlan | null;
}

/**
 * Creates or updates objects, all or none, in two round trips whatever the number of objects:
 * one read batch (current rows, references, uniqueness, hooks' probes), then one transaction
 * that re-checks its preconditions, writes rows, m2m links and change records, and reads back
 * the response's rows with everything they show.
 */
export async function writeObjects(ctx: Actor, model: Model, request: WriteRequest): Promise<Out[]> {
  const { inputs, mode, ids, bulk, allocation = null } = request;
  authorize(ctx, model, mode === "create" ? "add" : "change");
  checkBulkSize(ctx, inputs.length);
  const parsed = inputs.map((input) => parseInput(model, input, mode));
  const updating = ids.filter((x): x is number => x !== null);
  const current = new Map<number, Row>();
  const items: WriteItem[] = parsed.map((p, i) => ({ ...p, id: ids[i], current: null, columns: {}, probed: {} }));
  const customFields = customFieldWrite(ctx, model, items);
  const hooks = model.hooks;
  const state = hooks?.initial?.({ allocation });
  const probes: Probe[] = [
    ...(updating.length ? [currentProbe(ctx, model, idList(updating), current)] : []),
    ...referenceProbes(ctx, model, items),
    ...uniquenessProbes(ctx, model, items, ids),
    ...cycleProbes(ctx, model, items, ids),
    ...(hooks?.writeProbes?.(ctx, items, state) ?? []),
    ...customFields.probes,
  ];
  await runProbes(ctx, probes);

  // An id that does not exist or is out of scope: 404 for a detail write; in a bulk write, the
  // whole request fails (all or none), with the same message for both.
  const missing = items.map((_, i) => ids[i] !== null && !current.has(ids[i]!));
  if (!bulk && missing[0]) throw ApiError.notFound(model.className);
  const ready = items.map((item, i) => ({ ...item, current: ids[i] === null ? null : (current.get(ids[i]!) ?? null) }));
  ready.forEach((item, i) => void (missing[i] && (item.errors.id = [OBJECT_NOT_FOUND])));
  customFields.apply(ready);
  await hooks?.prepareWrite?.(
    ctx,
    ready.filter((item) => !Object.keys(item.errors).length),
    state,
  );
  throwIfInvalid(ready, { bulk });

  const statements = rowStatements(
    ctx,
    model,
    ready,
    inputs.map((input) => changelogMessage(input)),
  );
  // A moved nested group moves its descendants: their depths are recomputed in the same transaction.
  if (model.tree && ready.some((item, i) => ids[i] !== null && item.values.parent !== undefined)) {
    statements.push(depthRefreshStatement(model));
  }
  statements.push(...(hooks?.writeStatements?.(ctx, ready, state) ?? []));
  const written = sql`(SELECT changed_object_id FROM core_objectchange WHERE request_id = ${ctx.requestId} AND changed_object_type = ${model.objectType})`;
  // Every object written must satisfy the requester's constraints after the change too; a
  // constraint that is NULL for a row (a relation cleared) is not satisfied.
  const action = mode === "create" ? "add" : "change";
  if (!unrestricted(ctx, model, action)) {
    statements.push(
      guardStatement(
        "denied",
        sql`EXISTS (SELECT 1 FROM ${sql.table(model.table)} WHERE id IN ${written} AND NOT coalesce(${scopeSql(ctx, model, action)}, 0))`,
      ),
    );
  }
  // The response's rows, read inside the transaction: every object this request wrote.
  statements.push(
    sql`SELECT ${selectSql(model, model.readableFields, customFieldsRead(ctx, model))} FROM ${sql.table(model.table)}
      WHERE id IN ${written} ORDER BY id`.compile(qb),
  );
  const results = await executeWrite(ctx, model, statements, { bulk });
  const rows = rowsOf(results[results.length - 1].rows);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  // Creates come back in id order, which is input order; updates in the order they were listed.
  const ordered = updating.length ? ids.filter((id) => byId.has(id!)).map((id) => byId.get(id!)!) : rows;
  return represent(ctx, model, ordered, { form: "full" });
}

/**
 * The statements writing the objects of a create or an update: for an update, one guard that
 * every row is still there and in scope; each object's INSERT or UPDATE and its m2m links; then
 * one statement recording every change, set-wise (a statement per object was most of a bulk
 * write's time). A write mixing creates and updates records each object after its own row.
 */
function rowStatements(ctx: Actor, model: Model, items: readonly WriteItem[], messages: readonly string[]): Statement[] {
  if (!items.length) return [];
  const creating = items.every((item) => item.id === null);
  if (!creating && !items.every((item) => item.id !== null)) {
    return items.flatMap((item, i) => objectStatements(ctx, model, item, messages[i]));
  }
  if (creating) {
    const rows = items.map((item) => ({ columns: storedColumns(ctx, model, item), after: linkStatements(model, item) }));
    return [...insertRowsStatements(model, rows), insertedRecordsStatement(ctx, model, messages)];
  }
  const out: Statement[] = [
    allStillThere(
      ctx,
      model,
      items.map((item) => item.id!),
    ),
  ];
  const rows = items.map((item) => ({ id: item.id!, columns: storedColumns(ctx, model, item), after: linkStatements(model, item) }));
  out.push(...updateRowsStatements(model, rows));
  const updates = items.map((item, i) => ({ objectId: item.id!, pre: String(item.current!.__snapshot), message: messages[i] }));
  out.push(updatedRecordsStatement(ctx, model, updates));
  return out;
}

/** The statements replacing an object's m2m sets (after its own INSERT, for a create: they name it by `insertedId`). */
function linkStatements(model: Model, item: WriteItem): Statement[] {
  const { id } = item;
  const out: Statement[] = [];
  for (const field of model.fields) {
    if (!KINDS[field.kind].input?.linked) continue;
    const chosen = item.values[field.name] as number[] | undefined;
    if (chosen !== undefined)
      out.push(...m2mStatements(model, field, { objectId: id ?? insertedId(model), ids: chosen, replacing: id !== null }));
  }
  return out;
}

/**
 * The statements writing one object: a guard that the row is still there and in scope (an
 * update), its INSERT or UPDATE, its m2m links, then its change record.
 */
function objectStatements(ctx: Actor, model: Model, item: WriteItem, message: string): Statement[] {
  const { id, current: pre } = item;
  const columns = storedColumns(ctx, model, item);
  const objectId = id ?? insertedId(model);
  const out: Statement[] = [];
  if (id === null) out.push(insertStatement(model, columns));
  else {
    out.push(stillThere(ctx, model, id));
    const update = updateStatement(model, id, columns);
    if (update) out.push(update);
  }
  for (const field of model.fields.filter((x) => KINDS[x.kind].input?.linked)) {
    const chosen = item.values[field.name] as number[] | undefined;
    if (chosen !== undefined) out.push(...m2mStatements(model, field, { objectId, ids: chosen, replacing: id !== null }));
  }
  out.push(
    changeRecordStatement(ctx, model, {
      action: pre ? "update" : "create",
      objectId: id,
      pre: pre ? String(pre.__snapshot) : null,
      message,
    }),
  );
  return out;
}

const stillThereTemplates = new Map<string, Template>();

/** The guard of an update: the row is still there and in the requester's change scope. Built once per model and scope. */
function stillThere(ctx: Actor, model: Model, id: number): Statement {
  const build = () => {
    const row = sql`SELECT 1 FROM ${sql.table(model.table)} WHERE id = ${new Slot("id")} AND ${scopeSql(ctx, model, "change")}`;
    return new Template(guardSql("gone", sql`NOT EXISTS (${row})`));
  };
  return remembered(stillThereTemplates, `${model.objectType}\n${scopeKey(ctx)}`, build, 256).bind({ id });
}

const allStillThereTemplates = new Map<string, Template>();

/** The guard of an update of several rows: every one is still there and in the requester's change scope. */
function allStillThere(ctx: Actor, model: Model, ids: readonly number[]): Statement {
  const build = () => {
    const found = sql`(SELECT count(*) FROM ${sql.table(model.table)} WHERE id IN (SELECT value FROM json_each(${new Slot("ids")}))
      AND ${scopeSql(ctx, model, "change")})`;
    return new Template(guardSql("gone", sql`${found} <> ${new Slot("count")}`));
  };
  const distinct = [...new Set(ids)];
  return remembered(allStillThereTemplates, `${model.objectType}\n${scopeKey(ctx)}`, build, 256).bind({
    ids: JSON.stringify(distinct),
    count: distinct.length,
  });
}

/** A nested group may not become its own ancestor. */
function cycleProbes(ctx: Actor, model: Model, items: readonly WriteItem[], ids: readonly (number | null)[]): Probe[] {
  if (!model.tree) return [];
  return items.flatMap((item, i): Probe[] => {
    const parent = item.values.parent;
    const self = ids[i];
    if (self === null || parent === undefined || parent === null) return [];
    const parentSql = refSql(ctx, model, isRef(parent) ? parent : (parent as number));
    return [
      {
        statement: sql`SELECT 1 AS hit FROM ${subtreeSql(model, sql`(${self})`)} WHERE id = ${parentSql}`.compile(qb),
        settle: (r) => {
          if (r.rows.length) item.errors.parent = [`Cannot assign self or child ${model.verboseName} as parent.`];
        },
      },
    ];
  });
}

/** How a write transaction runs and what its failures say. */
interface Execution {
  /** Errors as a list aligned with a bulk input. */
  readonly bulk: boolean;
  /** What a delete removes (its foreign-key failures are a 409), or absent for a create or update. */
  readonly deleting?: DeletedObjects;
  /** The models whose created or updated rows the events represent in full (default: the model itself). */
  readonly represented?: readonly Model[];
}

/**
 * Runs a write transaction. A failed guard (a row deleted or moved out of scope since it was
 * read) aborts it whole with a 404; a constraint that fires anyway (a concurrent writer) becomes
 * a clear 400, or 409 for a delete that dependents now block.
 */
async function executeWrite(ctx: Actor, model: Model, statements: Statement[], execution: Execution) {
  const { bulk, deleting, represented = [model] } = execution;
  try {
    return await writeBatch(ctx, statements, represented, deleting);
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    if (error.columns.includes("guard_object_gone")) throw ApiError.notFound(model.className);
    if (error.columns.includes("guard_denied")) throw ApiError.forbidden();
    // An allocation found its space taken by a concurrent one (the caller may look again).
    if (error.columns.includes("guard_exhausted"))
      throw ApiError.detail("conflict", "Insufficient resources are available to satisfy the request");
    if (error.kind === "unique") {
      const where = error.columns.join(" ");
      const field = model.fields.find((x) => x.column && where.includes(`${model.table}.${x.column}`));
      const rule = model.uniqueTogether?.find((u) => where.includes(`${model.table}_${u.fields.join("_")}`));
      const errors = field
        ? { [field.name]: [uniqueMessage(model, field.name)] }
        : { __all__: [rule?.message ?? "An object with these values already exists."] };
      throw ApiError.invalid(bulk ? [errors] : errors);
    }
    if (error.kind === "foreign_key") {
      if (deleting) {
        throw ApiError.detail(
          "conflict",
          "Unable to delete object: dependent objects were created at the same time. Nothing was deleted; please retry.",
        );
      }
      throw ApiError.invalid({
        non_field_errors: ["A related object was deleted while this request was processed. Nothing was written; please retry."],
      });
    }
    throw ApiError.invalid({ non_field_errors: [error.message] });
  }
}

/** The models a delete of `model` removes rows of: itself and, through cascading fks, their children. */
function cascadeOf(model: Model, seen = new Set<Model>()): Set<Model> {
  if (seen.has(model)) return seen;
  seen.add(model);
  for (const ref of model.registry.referencesTo(model)) if (ref.field.onDelete === "cascade") cascadeOf(ref.model, seen);
  return seen;
}

/**
 * Generic relations pointing at rows the delete removed (directly or by cascade) are cleared, as
 * NetBox clears an IP address's assignment when its interface goes, or removed when they cannot be
 * empty or cascade (journal entries, contact assignments, circuit terminations); no foreign key can
 * do it. Clearing one is an update of its row, recorded as such (`clearingStatements`). One set of
 * statements per generic field, whatever the number of models the delete reaches. Returns the
 * statements and the models whose rows they update.
 */
function danglingGenericStatements(ctx: Actor, model: Model): { statements: Statement[]; models: Model[] } {
  const byField = new Map<Model["fields"][number], { owner: Model; targets: Model[] }>();
  for (const target of cascadeOf(model)) {
    for (const { model: owner, field } of model.registry.referencesTo(target)) {
      if (!KINDS[field.kind].deletion!.tidiedAfterDelete(field)) continue;
      const entry = byField.get(field) ?? { owner, targets: [] };
      entry.targets.push(target);
      byField.set(field, entry);
    }
  }
  const models = new Set<Model>();
  const statements = [...byField].flatMap(([field, { owner, targets }]) => {
    const [type, id] = [sql.ref(`${field.name}_type`), sql.ref(`${field.name}_id`)];
    const gone = targets.map(
      (target) =>
        sql`(${type} = ${target.objectType} AND NOT EXISTS (SELECT 1 FROM ${sql.table(target.table)} t WHERE t.id = ${sql.ref(`${owner.table}.${field.name}_id`)}))`,
    );
    const orphaned = sql`(${sql.join(gone, sql` OR `)})`;
    if (!field.nullable || field.onDelete === "cascade") return [sql`DELETE FROM ${sql.table(owner.table)} WHERE ${orphaned}`.compile(qb)];
    if (owner.readOnly) return [sql`UPDATE ${sql.table(owner.table)} SET ${type} = NULL, ${id} = NULL WHERE ${orphaned}`.compile(qb)];
    models.add(owner);
    const columns = [`${field.name}_type`, `${field.name}_id`];
    return clearingStatements(ctx, owner, { where: orphaned, cleared: columns, columns });
  });
  return { statements, models: [...models] };
}

/** What fields keep outside their model's table about deleted rows (cable ends), tidied in the same transaction. */
function afterDeleteStatements(model: Model): Statement[] {
  return [...cascadeOf(model)].flatMap((m) =>
    m.fields.flatMap((field) => field.afterDelete?.(m.table, m.objectType) ?? []).map((s) => s.compile(qb)),
  );
}

/** What a delete asks for: the ids, and whether they came as a list (an unknown id then fails it whole, no 404). */
export interface DeleteRequest {
  readonly ids: readonly number[];
  readonly bulk: boolean;
}

/** Deletes objects (with a tree's descendants), all or none; dependents that protect them give 409. */
export async function deleteObjects(ctx: Actor, model: Model, { ids, bulk }: DeleteRequest): Promise<void> {
  authorize(ctx, model, "delete");
  checkBulkSize(ctx, ids.length);
  if (ids.length === 0) return;
  const current = new Map<number, Row>();
  const blockers: { model: Model; rows: Row[] }[] = [];
  const targetIds = model.tree ? subtreeSql(model, idList(ids)) : idList(ids);
  const protect = model.registry.referencesTo(model).filter((r) => r.field.onDelete === "protect" && r.model !== model);
  const sent = new Set<string>();
  const probes: Probe[] = [
    // Whose deletes rules send: their data is read in the deleting transaction (none read when none do).
    { statement: deleteRulesProbe(model), settle: (r) => r.rows.forEach((row) => sent.add(String(row.type))) },
    {
      statement:
        sql`SELECT id, ${model.hooks?.deleteStatements ? sql`${sql.table(model.table)}.*,` : sql``} ${model.displaySql(model.table)} AS __display, ${snapshotSql(model)} AS __snapshot
        FROM ${sql.table(model.table)} WHERE id IN ${targetIds} AND ${scopeSql(ctx, model, "delete")}`.compile(qb),
      settle: (r) => r.rows.forEach((row) => current.set(Number(row.id), row)),
    },
    // The dependents that block the delete, named only when the requester may view them.
    ...protect.map(
      (ref): Probe => ({
        statement: sql`SELECT id, ${ref.model.displaySql(ref.model.table)} AS __display, ${scopeSql(ctx, ref.model, "view")} AS __visible,
        count(*) OVER () AS __total FROM ${sql.table(ref.model.table)}
        WHERE ${sql.ref(ref.field.column!)} IN ${targetIds} ORDER BY id LIMIT 10`.compile(qb),
        settle: (r) => void (r.rows.length && blockers.push({ model: ref.model, rows: r.rows })),
      }),
    ),
  ];
  await runProbes(ctx, probes);
  if (!bulk && !current.has(ids[0])) throw ApiError.notFound(model.className);
  // All or none: one id missing or out of scope fails the whole bulk delete (see writeObjects).
  if (ids.some((id) => !current.has(id))) throw ApiError.invalid(ids.map((id) => (current.has(id) ? {} : { id: [OBJECT_NOT_FOUND] })));
  if (blockers.length) {
    const total = blockers.reduce((n, b) => n + Number(b.rows[0].__total), 0);
    const rows = blockers.flatMap((b) => b.rows);
    const named = rows.filter((r) => Boolean(r.__visible)).map((r) => `${r.__display} (${r.id})`);
    const unnamed = rows.length - named.length;
    const listed = [...named, ...(unnamed ? [`${unnamed} that you may not view`] : [])];
    throw ApiError.detail("conflict", `Unable to delete object. ${total} dependent objects were found: ${listed.join(", ")}`);
  }
  const doomed = [...current.keys()];
  if (doomed.length === 0) return;
  const cleared = setNullStatements(ctx, model, idList(doomed));
  const dangling = danglingGenericStatements(ctx, model);
  const statements = [
    // Every row read must still be there (and in scope), and no descendant may have been added.
    guardStatement(
      "gone",
      sql`(SELECT count(*) FROM ${sql.table(model.table)} WHERE id IN ${model.tree ? subtreeSql(model, idList(ids)) : idList(doomed)}
      AND ${scopeSql(ctx, model, "delete")}) <> ${doomed.length}`,
    ),
    ...doomed.map((id) => {
      const row = current.get(id)!;
      return deletionRecordStatement(ctx, model, { objectId: id, repr: String(row.__display), pre: String(row.__snapshot) });
    }),
    ...cascadeRecordStatements(ctx, model, idList(doomed)),
    ...cleared.statements,
    ...deleteStatements(model, doomed),
    ...dangling.statements,
    ...(model.hooks?.deleteStatements?.(
      ctx,
      doomed.map((id) => current.get(id)!),
    ) ?? []),
    ...afterDeleteStatements(model),
  ];
  const represented = [...new Set([...cleared.models, ...dangling.models])];
  await executeWrite(ctx, model, statements, { bulk, deleting: { model, ids: doomed, sent }, represented });
}

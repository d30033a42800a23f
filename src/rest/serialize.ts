import { sql } from "kysely";
import type { Row, Statement } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";
import { renderedFields, selectionSql } from "./selection.ts";

export type Form = "full" | "brief";
type Out = Record<string, unknown>;

/** The absolute API URL of an object (or of a model's list, without `id`). */
export function objectUrl(ctx: RequestContext, model: Model, id?: unknown): string {
  return `${ctx.origin}/api/${model.app}/${model.path}/${id === undefined ? "" : `${id}/`}`;
}

/** Related rows loaded for one page: fk targets by model and id, m2m targets by field and source id. */
interface Related {
  byModel: Map<Model, Map<number, Row>>;
  byM2m: Map<Field, Map<number, Row[]>>;
}

/**
 * Shapes stored rows into the full or brief representation. Every related object the rows refer
 * to is loaded in one batch (one round trip): one query per related model and per m2m field,
 * whatever the number of rows, so a page costs the same number of statements at any size.
 */
export async function represent(ctx: RequestContext, model: Model, rows: readonly Row[], form: Form): Promise<Out[]> {
  if (rows.length === 0) return [];
  const fields = renderedFields(model, form);
  const related = await loadRelated(ctx, model, fields, rows);
  return Promise.all(rows.map((row) => shape(ctx, model, row, fields, form, related)));
}

async function loadRelated(ctx: RequestContext, model: Model, fields: readonly Field[], rows: readonly Row[]): Promise<Related> {
  const idsByModel = new Map<Model, Set<number>>();
  for (const field of fields) {
    if (field.kind !== "fk") continue;
    const target = field.target!();
    const ids = idsByModel.get(target) ?? new Set<number>();
    for (const row of rows) if (row[field.column!] != null) ids.add(Number(row[field.column!]));
    if (ids.size) idsByModel.set(target, ids);
  }
  const m2mFields = fields.filter((x) => x.kind === "m2m");
  const sourceIds = rows.map((r) => Number(r.id));
  const statements: Statement[] = [];
  const targets = [...idsByModel.entries()];
  for (const [target, ids] of targets) {
    statements.push(
      sql`SELECT ${selectionSql(target, renderedFields(target, "brief"))} FROM ${sql.table(target.table)} WHERE id IN (${sql.join([...ids])})`.compile(qb),
    );
  }
  for (const field of m2mFields) statements.push(m2mQuery(model, field, sourceIds));
  const results = statements.length ? await ctx.db.batch(statements, "read") : [];

  const related: Related = { byModel: new Map(), byM2m: new Map() };
  targets.forEach(([target], i) => related.byModel.set(target, new Map(results[i].rows.map((r) => [Number(r.id), r]))));
  m2mFields.forEach((field, j) => {
    const bySource = new Map<number, Row[]>();
    for (const r of results[targets.length + j].rows) {
      const list = bySource.get(Number(r.__source)) ?? [];
      list.push(r);
      bySource.set(Number(r.__source), list);
    }
    related.byM2m.set(field, bySource);
  });
  return related;
}

/** The targets of an m2m field for many source rows, each tagged with its source id. */
function m2mQuery(model: Model, field: Field, sourceIds: number[]): Statement {
  const t = field.through!;
  const target = field.target!();
  const scoped = t.objectTypeColumn ? sql` AND th.${sql.ref(t.objectTypeColumn)} = ${model.objectType}` : sql``;
  return sql`SELECT th.${sql.ref(t.source)} AS __source, ${selectionSql(target, renderedFields(target, "brief"))}
    FROM ${sql.table(t.table)} th JOIN ${sql.table(target.table)} ON ${sql.ref(`${target.table}.id`)} = th.${sql.ref(t.target)}
    WHERE th.${sql.ref(t.source)} IN (${sql.join(sourceIds)})${scoped}
    ORDER BY ${sql.ref(`${target.table}.${target.field[target.ordering[0]]?.column ?? "id"}`)}, ${sql.ref(`${target.table}.id`)}`.compile(qb);
}

async function shape(ctx: RequestContext, model: Model, row: Row, fields: readonly Field[], form: Form, related: Related): Promise<Out> {
  const out: Out = { id: row.id, url: objectUrl(ctx, model, row.id), display: model.display(row) };
  for (const field of fields) {
    if (field.kind === "fk") {
      const target = field.target!();
      const raw = row[field.column!];
      const hit = raw == null ? undefined : related.byModel.get(target)?.get(Number(raw));
      out[field.name] = hit ? await nested(ctx, target, hit) : null;
    } else if (field.kind === "m2m") {
      const target = field.target!();
      const list = related.byM2m.get(field)?.get(Number(row.id)) ?? [];
      out[field.name] = await Promise.all(list.map((r) => nested(ctx, target, r)));
    } else {
      out[field.name] = plainValue(field, row[field.column ?? field.name], form);
    }
  }
  await model.hooks?.represent?.(ctx, row, out);
  return out;
}

/** The nested form of a related object: id, url, display and the brief fields, choices as values. */
async function nested(ctx: RequestContext, model: Model, row: Row): Promise<Out> {
  const out: Out = { id: row.id, url: objectUrl(ctx, model, row.id), display: model.display(row) };
  for (const field of renderedFields(model, "brief")) {
    // A related object inside a nested one is named by id only: one level of loading per page.
    out[field.name] = field.kind === "fk" ? (row[field.column!] ?? null) : plainValue(field, row[field.column ?? field.name], "brief");
  }
  await model.hooks?.represent?.(ctx, row, out);
  return out;
}

/** A stored scalar as the API shows it: choices as `{value, label}` in full form, JSON parsed. */
export function plainValue(field: Field, raw: unknown, form: Form): unknown {
  switch (field.kind) {
    case "boolean":
      return raw == null ? null : Boolean(raw);
    case "json":
    case "stringList":
    case "ipList":
      return typeof raw === "string" ? JSON.parse(raw) : (raw ?? field.default ?? null);
    case "choice": {
      if (raw == null || raw === "") return null;
      if (form === "brief") return raw;
      const choice = field.choices!.find((c) => c.value === raw);
      if (!choice) return { value: raw, label: String(raw) };
      return choice.id === undefined ? { value: choice.value, label: choice.label } : { value: choice.value, label: choice.label, id: choice.id };
    }
    case "count":
      return Number(raw ?? 0);
    default:
      return raw ?? null;
  }
}

import { sql, type RawBuilder } from "kysely";
import type { Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import type { WriteItem } from "../models/hooks.ts";
import { isRef } from "../models/kinds.ts";
import type { Model } from "../models/model.ts";
import type { Probe } from "./probes.ts";
import { refSql } from "./references.ts";
import { idList } from "./select.ts";

/**
 * Probes for a model's cross-object validation (NetBox's `clean()`), set-wise: one statement per
 * kind of row, whatever the number of items. A hook's probes run after the reference probes in
 * the same round trip, so when they settle every related reference of `values` is an id.
 */

/** Items of a write that validation still concerns: parsed and resolved without field errors. */
export const checkable = (items: readonly WriteItem[]) =>
  items.filter((item) => Object.keys(item.errors).every((key) => key === "__all__"));

/** The stored rows of the items being updated, by id. */
export function storedRowsProbe(model: Model, items: readonly WriteItem[], into: Map<number, Row>): Probe[] {
  const ids = items.map((item) => item.id).filter((id): id is number => id !== null);
  if (!ids.length) return [];
  return [{
    statement: sql`SELECT * FROM ${sql.table(model.table)} WHERE id IN ${idList(ids)}`.compile(qb),
    settle: (r) => r.rows.forEach((row) => into.set(Number(row.id), row)),
  }];
}

/**
 * The rows an fk of the items points to, whether an item sets it (by id or by attributes) or an
 * update keeps the stored one: `columns` selects what validation needs from the row under `r`.
 */
export function relatedRowsProbe(
  ctx: RequestContext, model: Model, items: readonly WriteItem[], fieldName: string,
  columns: RawBuilder<unknown>, into: Map<number, Row>,
): Probe[] {
  const field = model.field[fieldName];
  const target = field.target!();
  const ids: number[] = [];
  const kept: number[] = [];
  const byAttrs: RawBuilder<unknown>[] = [];
  for (const item of items) {
    const value = item.values[fieldName];
    if (value === undefined && item.id !== null) kept.push(item.id);
    else if (isRef(value)) {
      if (value.ref === "id") ids.push(value.id);
      else byAttrs.push(sql`SELECT ${refSql(ctx, target, value)}`);
    }
  }
  const sources = [
    ...(ids.length ? [sql`SELECT value FROM json_each(${JSON.stringify(ids)})`] : []),
    ...(kept.length ? [sql`SELECT ${sql.ref(field.column!)} FROM ${sql.table(model.table)} WHERE id IN ${idList(kept)}`] : []),
    ...byAttrs,
  ];
  if (!sources.length) return [];
  return [{
    statement: sql`SELECT r.id AS id, ${columns} FROM ${sql.table(target.table)} r
      WHERE r.id IN (${sql.join(sources, sql` UNION `)})`.compile(qb),
    settle: (r) => r.rows.forEach((row) => into.set(Number(row.id), row)),
  }];
}

/** Runs `then` once every probe has settled (after the last one), or at once when there are none. */
export function thenSettled(probes: Probe[], then: () => void): Probe[] {
  if (!probes.length) {
    then();
    return [];
  }
  const last = probes[probes.length - 1];
  return [...probes.slice(0, -1), { statement: last.statement, settle: (r) => (last.settle(r), then()) }];
}

/** A field's value after the write: as given, else as stored (an fk as its id), else null. */
export function effective(model: Model, item: WriteItem, stored: Map<number, Row>, name: string): unknown {
  const given = item.values[name];
  if (given !== undefined) return given;
  if (item.id === null) return null;
  return stored.get(item.id)?.[model.field[name].column!] ?? null;
}

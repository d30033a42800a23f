import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { WriteItem, Probe } from "../schema/hooks.ts";
import { isRef, type Ref } from "../schema/kinds/descriptor.ts";
import { refSql } from "./references.ts";

type Sql = RawBuilder<unknown>;

/** Items of a write that checks still concern: parsed and resolved without field errors. */
export const checkable = (items: readonly WriteItem[]) =>
  items.filter((item) => Object.keys(item.errors).every((key) => key === "__all__"));

/** The value an item's field will have: the one written, else the stored one (an update), else null. */
export function effective(model: Model, item: WriteItem, name: string): unknown {
  const value = item.values[name];
  if (value !== undefined) return value;
  const column = model.field[name].column!;
  return item.current?.[column] ?? null;
}

/** Which related rows `relatedRowsProbe` reads. */
export interface RelatedRows {
  /** The relation. */
  readonly name: string;
  /** The fields whose writing makes the check run (default: the relation itself). */
  readonly touching?: readonly string[];
  /** Columns computed from the related row under the alias `r`, by name. */
  readonly extra?: Readonly<Record<string, (r: string) => Sql>>;
}

/**
 * The stored row each item's relation `name` points to (the object written, or the one an update
 * keeps), for checks comparing an object with what it references (a front port's rear port must
 * be on the same device). One statement for all items, in the write's probe round trip, and none
 * when no item writes any of the `touching` fields (default: the relation itself), so updates
 * that leave the checked fields alone cost nothing. `extra` adds columns computed from the related
 * row under the alias `r`. Each found row lands in the item's `probed[name]`.
 */
export function relatedRowsProbe(ctx: Actor, model: Model, items: readonly WriteItem[], options: RelatedRows): Probe[] {
  const { name } = options;
  const field = model.field[name];
  const target = field.target!();
  const touching = options.touching ?? [name];
  const wanted = items.flatMap((item, i): [number, Sql][] => {
    const value = item.values[name];
    if (value === null || !touching.some((t) => item.values[t] !== undefined)) return [];
    if (value === undefined) {
      if (item.id === null) return [];
      return [[i, sql`(SELECT ${sql.ref(field.column!)} FROM ${sql.table(model.table)} WHERE id = ${item.id})`]];
    }
    return [[i, refSql(ctx, target, isRef(value) ? (value as Ref) : (value as number))]];
  });
  if (!wanted.length) return [];
  const rows = sql.join(wanted.map(([i, expr]) => sql`(${i}, ${expr})`));
  const columns = [
    sql`v.i AS __item`,
    sql`r.*`,
    ...Object.entries(options.extra ?? {}).map(([key, expr]) => sql`${expr("r")} AS ${sql.ref(key)}`),
  ];
  return [
    {
      statement: sql`WITH v(i, rid) AS (VALUES ${rows})
      SELECT ${sql.join(columns)} FROM v JOIN ${sql.table(target.table)} r ON r.id = v.rid`.compile(qb),
      settle: (result) => result.rows.forEach((row) => void (items[Number(row.__item)].probed[name] = row)),
    },
  ];
}

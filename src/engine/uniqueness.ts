import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { qb, Slot, Template } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { scopeKey, scopeSql, unrestricted } from "./scope.ts";
import type { WriteItem, Probe } from "../schema/hooks.ts";
import { isRef } from "../schema/kinds/descriptor.ts";
import { KINDS } from "../schema/kinds/index.ts";
import { refSql } from "./references.ts";
import { idList } from "./select.ts";

/**
 * The message DRF gives for a single-field unique violation: "site with this name already exists.",
 * "ASN with this ASN already exists.". The field's verbose name is its label less the capital
 * OPTIONS gives it, which an acronym keeps.
 */
export const uniqueMessage = (model: Model, field: string): string => {
  const { label, uniqueMessage } = model.field[field];
  if (uniqueMessage) return uniqueMessage;
  const verbose = /^.[a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label;
  return `${model.verboseName} with this ${verbose} already exists.`;
};

/**
 * Probes for uniqueness, so a duplicate is a 400 naming the field, never a 409 or 500. Each item
 * is checked against stored rows (other than itself) and against the items before it in the same
 * request. Multi-field rules compare NULLs as equal and read a field the item leaves unchanged from
 * its stored row, so one round trip serves creates and partial updates alike.
 */
export function uniquenessProbes(ctx: Actor, model: Model, items: readonly WriteItem[], ids: readonly (number | null)[]): Probe[] {
  const probes: Probe[] = [];
  const table = sql.table(model.table);
  for (const field of model.fields.filter((x) => x.unique && x.column)) {
    const seen = new Map<unknown, number>();
    const wanted: unknown[] = [];
    items.forEach((item, i) => {
      const value = item.values[field.name];
      if (value === undefined || value === null || item.errors[field.name]) return;
      if (seen.has(value)) item.errors[field.name] = [uniqueMessage(model, field.name)];
      else seen.set(value, i);
      wanted.push(value);
    });
    if (!wanted.length) continue;
    probes.push({
      statement: sql`SELECT id, ${sql.ref(field.column!)} AS v FROM ${table} WHERE ${sql.ref(field.column!)} IN ${idList(wanted)}`.compile(
        qb,
      ),
      settle: (r) => {
        for (const row of r.rows) {
          const i = seen.get(row.v);
          if (i !== undefined && ids[i] !== Number(row.id)) items[i].errors[field.name] ??= [uniqueMessage(model, field.name)];
        }
      },
    });
  }
  for (const rule of model.uniqueTogether ?? []) {
    // Items whose values are plain (or related objects by id) share one statement per rule.
    const together: number[] = [];
    items.forEach((item, i) => {
      if (!rule.fields.some((name) => item.values[name] !== undefined)) return;
      // A NULL in a field whose NULLs are distinct never collides (a device outside any chassis).
      if (rule.nullsDistinct?.some((name) => item.values[name] === null)) return;
      if (rule.fields.every((name) => plainValue(model, name, item.values[name]))) {
        together.push(i);
        return;
      }
      const self = ids[i];
      const parts = rule.fields.flatMap((name) => {
        const field = model.field[name];
        const value = item.values[name];
        const { references } = KINDS[field.kind];
        const stored = (column: string): RawBuilder<unknown> =>
          self === null ? sql`NULL` : sql`(SELECT ${sql.ref(column)} FROM ${table} WHERE id = ${self})`;
        // A generic relation is its two columns; a given value names both.
        const given = (column: string, part?: string): RawBuilder<unknown> => {
          if (value === undefined) return stored(column);
          if (part) return sql`${(value as Record<string, unknown> | null)?.[part] ?? null}`;
          const target = references?.singleTarget?.(field);
          return target ? refSql(ctx, target, isRef(value) ? value : (value as number | null)) : sql`${value}`;
        };
        return ruleColumns(model, name).map(([column, part]) => sameSql(model, rule, name, sql.ref(column), given(column, part)));
      });
      if (rule.unlessBlank) parts.push(sql`${sql.ref(model.field[rule.unlessBlank].column!)} <> ''`);
      probes.push({
        statement: sql`SELECT id FROM ${table} WHERE ${sql.join(parts, sql` AND `)} AND id IS NOT ${self} LIMIT 1`.compile(qb),
        settle: (r) => {
          if (r.rows.length) ((items[i].errors.__all__ ??= []) as string[]).push(rule.message);
        },
      });
    });
    if (!together.length) continue;
    const rows = together.map((i) => [
      ids[i],
      ...rule.fields
        .flatMap((name) => {
          const value = items[i].values[name];
          return ruleColumns(model, name).map(([, part]): [number, unknown] => {
            if (value === undefined) return [0, null];
            if (part) return [1, (value as Record<string, unknown> | null)?.[part] ?? null];
            return [1, isRef(value) ? (value as { id: number }).id : value];
          });
        })
        .flat(),
    ]);
    probes.push({
      statement: uniqueTogetherTemplate(ctx, model, rule).bind({ items: JSON.stringify(rows) }),
      settle: (r) => {
        for (const row of r.rows) ((items[together[Number(row.i)]].errors.__all__ ??= []) as string[]).push(rule.message);
      },
    });
  }
  return probes;
}

type Rule = NonNullable<Model["uniqueTogether"]>[number];

/** The stored columns a field of a rule compares, with the part of a given value each holds (a generic relation's type and id). */
const ruleColumns = (model: Model, name: string): readonly (readonly [string, string | undefined])[] => {
  const field = model.field[name];
  return KINDS[field.kind].storage?.valueColumns?.(field) ?? [[field.column!, undefined]];
};

/** A rule's comparison of a stored column with a value: case-insensitive, NULLs equal, or plain. */
function sameSql(model: Model, rule: Rule, name: string, column: RawBuilder<unknown>, value: RawBuilder<unknown>): RawBuilder<unknown> {
  const field = model.field[name];
  if (rule.caseInsensitive?.includes(name)) return sql`lower(${column}) = lower(${value})`;
  if (field.nullable && !rule.nullsDistinct?.includes(name)) return sql`coalesce(${column}, 0) = coalesce(${value}, 0)`;
  return sql`${column} = ${value}`;
}

/**
 * Whether a field's value can travel as JSON into a rule's set-wise probe: left unchanged, NULL, a
 * string, an integer, a boolean, a related object by id, or a generic relation's type and id.
 */
function plainValue(model: Model, name: string, value: unknown): boolean {
  if (value === undefined || value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isSafeInteger(value);
  const field = model.field[name];
  if (KINDS[field.kind].storage?.valueColumns) {
    return Object.values(value as Record<string, unknown>).every((v) => v === null || typeof v === "string" || Number.isSafeInteger(v));
  }
  return isRef(value) && value.ref === "id" && Boolean(KINDS[field.kind].references?.singleTarget);
}

const uniqueTogetherTemplates = new Map<string, Template>();

/**
 * One statement probing a rule for many items, given as JSON `[own id, (given, value) per
 * column...]`: the indexes of the items whose values another stored row already has. A value
 * not given is the item's stored one; a related object's id counts only within the requester's
 * view, as `refSql` has it. Built once per model, rule and view.
 */
function uniqueTogetherTemplate(ctx: Actor, model: Model, rule: Rule): Template {
  const build = () => {
    const table = sql.table(model.table);
    const columns: RawBuilder<unknown>[] = [];
    const conditions: RawBuilder<unknown>[] = [];
    let at = 1;
    for (const name of rule.fields) {
      const field = model.field[name];
      const target = KINDS[field.kind].references?.singleTarget?.(field);
      for (const [column, part] of ruleColumns(model, name)) {
        const [given, value] = [sql`j.value ->> ${sql.lit(at)}`, sql`j.value ->> ${sql.lit(at + 1)}`];
        at += 2;
        const scoped =
          target && !part && !unrestricted(ctx, target, "view")
            ? sql`(SELECT id FROM ${sql.table(target.table)} WHERE id = ${value} AND ${scopeSql(ctx, target, "view")})`
            : value;
        const alias = `__v${columns.length}`;
        columns.push(
          sql`CASE WHEN ${given} THEN ${scoped} ELSE (SELECT ${sql.ref(column)} FROM ${table} WHERE id = j.value ->> 0) END AS ${sql.raw(alias)}`,
        );
        conditions.push(sameSql(model, rule, name, sql.ref(column), sql.ref(`i.${alias}`)));
      }
    }
    if (rule.unlessBlank) conditions.push(sql`${sql.ref(model.field[rule.unlessBlank].column!)} <> ''`);
    return new Template(sql`WITH i AS (SELECT j.key AS __i, j.value ->> 0 AS __self, ${sql.join(columns)} FROM json_each(${new Slot("items")}) j)
      SELECT i.__i AS i FROM i WHERE EXISTS (SELECT 1 FROM ${table} WHERE ${sql.join(conditions, sql` AND `)} AND id IS NOT i.__self)
      ORDER BY i.__i`);
  };
  return remembered(uniqueTogetherTemplates, `${model.objectType} ${rule.fields.join(",")}\n${scopeKey(ctx)}`, build, 256);
}

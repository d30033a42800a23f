import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { qb } from "../db/query-builder.ts";
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
    items.forEach((item, i) => {
      if (!rule.fields.some((name) => item.values[name] !== undefined)) return;
      // A NULL in a field whose NULLs are distinct never collides (a device outside any chassis).
      if (rule.nullsDistinct?.some((name) => item.values[name] === null)) return;
      const self = ids[i];
      const parts = rule.fields.flatMap((name) => {
        const field = model.field[name];
        const value = item.values[name];
        const { storage, references } = KINDS[field.kind];
        const stored = (column: string): RawBuilder<unknown> =>
          self === null ? sql`NULL` : sql`(SELECT ${sql.ref(column)} FROM ${table} WHERE id = ${self})`;
        // A generic relation is its two columns; a given value names both.
        const given = (column: string, part?: string): RawBuilder<unknown> => {
          if (value === undefined) return stored(column);
          if (part) return sql`${(value as Record<string, unknown> | null)?.[part] ?? null}`;
          const target = references?.singleTarget?.(field);
          return target ? refSql(ctx, target, isRef(value) ? value : (value as number | null)) : sql`${value}`;
        };
        const columns: readonly (readonly [string, string | undefined])[] = storage?.valueColumns?.(field) ?? [[field.column!, undefined]];
        return columns.map(([column, part]) =>
          rule.caseInsensitive?.includes(name)
            ? sql`lower(${sql.ref(column)}) = lower(${given(column, part)})`
            : field.nullable && !rule.nullsDistinct?.includes(name)
              ? sql`coalesce(${sql.ref(column)}, 0) = coalesce(${given(column, part)}, 0)`
              : sql`${sql.ref(column)} = ${given(column, part)}`,
        );
      });
      if (rule.unlessBlank) parts.push(sql`${sql.ref(model.field[rule.unlessBlank].column!)} <> ''`);
      probes.push({
        statement: sql`SELECT id FROM ${table} WHERE ${sql.join(parts, sql` AND `)} AND id IS NOT ${self} LIMIT 1`.compile(qb),
        settle: (r) => {
          if (r.rows.length) ((item.errors.__all__ ??= []) as string[]).push(rule.message);
        },
      });
    });
  }
  return probes;
}

import { sql, type RawBuilder } from "kysely";
import { qb } from "../db/query-builder.ts";
import { pythonRepr, type FieldErrors } from "../http/errors.ts";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";
import type { Values } from "../models/hooks.ts";
import { isRef, type Ref } from "./input.ts";
import type { Probe } from "./probes.ts";

/** One object being written: its validated values and the errors found so far. */
export interface Item {
  values: Values;
  errors: FieldErrors;
  /** Names of related objects by id, for snapshots (tags are recorded by name). */
  names: Map<number, string>;
}

/**
 * The SQL condition matching `attrs` on `model`: columns by value, fks by id or nested attributes
 * (`{"site": {"name": "x"}}`). Null when an attribute names no field, so nothing can match.
 */
export function attributeCondition(model: Model, attrs: Record<string, unknown>): RawBuilder<unknown> | null {
  const parts: RawBuilder<unknown>[] = [];
  for (const [key, value] of Object.entries(attrs)) {
    const field = key === "id" ? undefined : model.field[key];
    const column = key === "id" ? "id" : field?.column;
    if (!column) return null;
    if (field?.kind === "fk" && value && typeof value === "object") {
      const inner = attributeCondition(field.target!(), value as Record<string, unknown>);
      if (!inner) return null;
      parts.push(sql`${sql.ref(column)} IN (SELECT id FROM ${sql.table(field.target!().table)} WHERE ${inner})`);
    } else if (value === null) {
      parts.push(sql`${sql.ref(column)} IS NULL`);
    } else if (typeof value === "object") {
      return null;
    } else {
      parts.push(sql`${sql.ref(column)} = ${typeof value === "boolean" ? Number(value) : value}`);
    }
  }
  return parts.length ? sql.join(parts, sql` AND `) : null;
}

/** `{'site': {'name': 'x'}}` as NetBox prints it in messages: `{'site__name': 'x'}`. */
function flatten(attrs: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attrs).flatMap(([k, v]) =>
      v && typeof v === "object" && !Array.isArray(v) ? Object.entries(flatten(v as Record<string, unknown>, `${prefix}${k}__`)) : [[`${prefix}${k}`, v]],
    ),
  );
}

/** An id expression for a ref: the literal id, or the subquery its attributes select. */
export function refSql(target: Model, ref: Ref | number | null): RawBuilder<unknown> {
  if (ref === null) return sql`NULL`;
  if (typeof ref === "number") return sql`${ref}`;
  if (ref.ref === "id") return sql`${ref.id}`;
  const cond = attributeCondition(target, ref.attrs);
  return cond ? sql`(SELECT id FROM ${sql.table(target.table)} WHERE ${cond} LIMIT 1)` : sql`NULL`;
}

/**
 * Probes that resolve every related reference in `items` (fks and m2m), grouped so that all ids
 * of one model cost one statement and each distinct attribute object one more. When settled,
 * each ref in `values` is replaced by its id, or an error names the field.
 */
export function referenceProbes(model: Model, items: readonly Item[]): Probe[] {
  const probes: Probe[] = [];
  const idRefs = new Map<Model, Set<number>>();
  const attrRefs = new Map<string, { target: Model; attrs: Record<string, unknown> }>();
  const each = (fn: (item: Item, field: Field, ref: Ref) => void) => {
    for (const item of items) {
      for (const field of model.fields) {
        const value = item.values[field.name];
        if (field.kind === "fk" && isRef(value)) fn(item, field, value);
        if (field.kind === "m2m" && Array.isArray(value)) for (const r of value) if (isRef(r)) fn(item, field, r);
      }
    }
  };
  const attrKey = (target: Model, attrs: Record<string, unknown>) => `${target.objectType}:${JSON.stringify(attrs)}`;
  each((_item, field, ref) => {
    const target = field.target!();
    if (ref.ref === "id") idRefs.set(target, (idRefs.get(target) ?? new Set()).add(ref.id));
    else attrRefs.set(attrKey(target, ref.attrs), { target, attrs: ref.attrs });
  });

  const existing = new Map<Model, Map<number, string>>();
  const byAttrs = new Map<string, { id: number; name: string }[]>();
  const nameOf = (target: Model) => (target.field.name?.column ? sql`name` : sql`NULL`);
  for (const [target, ids] of idRefs) {
    probes.push({
      statement: sql`SELECT id, ${nameOf(target)} AS name FROM ${sql.table(target.table)} WHERE id IN (${sql.join([...ids])})`.compile(qb),
      settle: (r) => existing.set(target, new Map(r.rows.map((row) => [Number(row.id), String(row.name)]))),
    });
  }
  for (const [key, { target, attrs }] of attrRefs) {
    const cond = attributeCondition(target, attrs);
    if (!cond) {
      byAttrs.set(key, []);
      continue;
    }
    probes.push({
      statement: sql`SELECT id, ${nameOf(target)} AS name FROM ${sql.table(target.table)} WHERE ${cond} LIMIT 2`.compile(qb),
      settle: (r) => byAttrs.set(key, r.rows.map((row) => ({ id: Number(row.id), name: String(row.name) }))),
    });
  }

  // Resolution runs after every probe has settled: the last probe's settle triggers it.
  const resolve = () => {
    for (const item of items) {
      for (const field of model.fields) {
        const value = item.values[field.name];
        const target = field.target?.();
        const one = (ref: Ref): number | undefined => {
          if (ref.ref === "id") {
            const name = existing.get(target!)?.get(ref.id);
            if (name !== undefined) {
              item.names.set(ref.id, name);
              return ref.id;
            }
            item.errors[field.name] ??= [`Related object not found using the provided numeric ID: ${ref.id}`];
            return undefined;
          }
          const hits = byAttrs.get(attrKey(target!, ref.attrs)) ?? [];
          if (hits.length === 1) {
            item.names.set(hits[0].id, hits[0].name);
            return hits[0].id;
          }
          const verb = hits.length ? "Multiple objects match" : "Related object not found using";
          item.errors[field.name] ??= [`${verb} the provided attributes: ${pythonRepr(flatten(ref.attrs))}`];
          return undefined;
        };
        if (field.kind === "fk" && isRef(value)) item.values[field.name] = one(value) ?? null;
        if (field.kind === "m2m" && Array.isArray(value)) item.values[field.name] = [...new Set(value.map((r) => (isRef(r) ? one(r) : r)))];
      }
    }
  };
  if (probes.length === 0) {
    resolve();
    return [];
  }
  const last = probes[probes.length - 1];
  probes[probes.length - 1] = { statement: last.statement, settle: (r) => (last.settle(r), resolve()) };
  return probes;
}

import type { Field, Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { qb } from "../db/query-builder.ts";
import { isPermitted } from "./permissions.ts";
import { pythonRepr } from "../schema/errors.ts";
import type { WriteItem, Probe } from "../schema/hooks.ts";
import type { Ref } from "../schema/kinds/descriptor.ts";
import { KINDS } from "../schema/kinds/index.ts";
import { attributeCondition, flattenAttributes } from "./filters.ts";
import { idList } from "./select.ts";
import { scopeSql, unrestricted } from "./scope.ts";

/**
 * An id expression for a ref, among the objects the requester may view: the id itself when they
 * may view every object of the target, else the subquery that keeps it only within their view,
 * or the subquery its attributes select (NULL if none). The checks that read the referenced row
 * (uniqueness, same-device rules) then learn nothing about an object the writer may not see.
 */
export function refSql(ctx: Actor, target: Model, ref: Ref | number | null): RawBuilder<unknown> {
  if (ref === null) return sql`NULL`;
  if (typeof ref === "number" || ref.ref === "id") {
    const id = typeof ref === "number" ? ref : ref.id;
    if (unrestricted(ctx, target, "view")) return sql`${id}`;
    return sql`(SELECT id FROM ${sql.table(target.table)} WHERE id = ${id} AND ${scopeSql(ctx, target, "view")})`;
  }
  const cond = isPermitted(ctx, target, "view") ? attributeCondition(target, ref.attrs) : null;
  return cond ? sql`(SELECT id FROM ${sql.table(target.table)} WHERE ${cond} AND ${scopeSql(ctx, target, "view")} LIMIT 1)` : sql`NULL`;
}

/**
 * Probes that resolve every related reference of `items` (fks, m2m sets and generic relations),
 * grouped so that all ids of one model cost one statement and each distinct attribute object one
 * more. A reference, by id, by attributes or as a generic pair, finds only objects the requester
 * may view (their view scope joins the probe's WHERE, so it costs no statement of its own); one
 * outside it gets the very message a missing one gets, so a write cannot tell which ids exist or
 * show the names of objects hidden from the writer. Attributes may use only fields the target can
 * be filtered on. A model may let writers name some rows besides (`referable`: a token's owner
 * names themselves without any permission on users).
 * When settled, each ref in `values` is replaced by its id, or an error names the field.
 */
export function referenceProbes(ctx: Actor, model: Model, items: readonly WriteItem[]): Probe[] {
  const probes: Probe[] = [];
  const idRefs = new Map<string, { lane: Lane; ids: Set<number> }>();
  const attrRefs = new Map<string, { lane: Lane; attrs: Record<string, unknown> }>();
  const attrKey = (lane: Lane, attrs: Record<string, unknown>) => `${lane.key}:${JSON.stringify(attrs)}`;
  // One lane per field and target, built once: its scope SQL is the same for every item.
  const lanes = new Map<string, Lane>();
  const laneOf = (field: Field, target: Model): Lane => {
    const key = `${field.name}/${target.objectType}`;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = laneFor(ctx, model, field, target)));
    return lane;
  };
  const addId = (lane: Lane, id: number) => {
    const entry = idRefs.get(lane.key) ?? { lane, ids: new Set<number>() };
    idRefs.set(lane.key, entry);
    entry.ids.add(id);
  };
  for (const item of items) {
    for (const field of model.fields) {
      for (const { target, ref } of KINDS[field.kind].references?.referencesIn(field, item.values[field.name]) ?? []) {
        const lane = laneOf(field, target);
        if (ref.ref === "id") addId(lane, ref.id);
        else attrRefs.set(attrKey(lane, ref.attrs), { lane, attrs: ref.attrs });
      }
    }
  }

  const existing = new Map<string, Set<number>>();
  const byAttrs = new Map<string, number[]>();
  for (const [key, { lane, ids }] of idRefs) {
    probes.push({
      statement: sql`SELECT id FROM ${sql.table(lane.target.table)} WHERE id IN ${idList(ids)} AND ${lane.scope}`.compile(qb),
      settle: (r) => existing.set(key, new Set(r.rows.map((row) => Number(row.id)))),
    });
  }
  for (const [key, { lane, attrs }] of attrRefs) {
    const cond = lane.open ? attributeCondition(lane.target, attrs) : null;
    if (!cond) {
      byAttrs.set(key, []);
      continue;
    }
    probes.push({
      statement: sql`SELECT id FROM ${sql.table(lane.target.table)} WHERE ${cond} AND ${lane.scope} LIMIT 2`.compile(qb),
      settle: (r) =>
        byAttrs.set(
          key,
          r.rows.map((row) => Number(row.id)),
        ),
    });
  }

  const resolve = () => {
    for (const item of items) {
      for (const field of model.fields) {
        const references = KINDS[field.kind].references;
        if (!references) continue;
        const fail = (message: string) => void (item.errors[references.errorKey?.(field) ?? field.name] ??= [message]);
        const one = (target: Model, ref: Ref): number | undefined => {
          const lane = laneOf(field, target);
          if (ref.ref === "id") {
            if (existing.get(lane.key)?.has(ref.id)) return ref.id;
            return fail(`Related object not found using the provided numeric ID: ${ref.id}`);
          }
          const hits = byAttrs.get(attrKey(lane, ref.attrs)) ?? [];
          if (hits.length === 1) return hits[0];
          const verb = hits.length ? "Multiple objects match" : "Related object not found using";
          return fail(`${verb} the provided attributes: ${pythonRepr(flattenAttributes(ref.attrs))}`);
        };
        references.resolveReferences(field, item.values, one);
      }
    }
  };
  if (probes.length === 0) {
    resolve();
    return [];
  }
  // Resolution runs after every probe has settled: the last probe's settle triggers it.
  const last = probes[probes.length - 1];
  probes[probes.length - 1] = { statement: last.statement, settle: (r) => (last.settle(r), resolve()) };
  return probes;
}

/** Where references of one field to one target may point: the rows it selects (`scope`), and whether any may be named at all. */
interface Lane {
  readonly key: string;
  readonly target: Model;
  readonly scope: RawBuilder<unknown>;
  readonly open: boolean;
}

/**
 * The rows of `target` a writer of `model` may name in `field`: those they may view, and those the
 * model's `referable` hook adds. Fields without such a hook share one lane per target, so all their
 * ids cost one statement.
 */
function laneFor(ctx: Actor, model: Model, field: Field, target: Model): Lane {
  const view = scopeSql(ctx, target, "view");
  const extra = model.hooks?.referable?.(ctx, field.name, target.table) ?? null;
  if (!extra) return { key: target.objectType, target, scope: view, open: isPermitted(ctx, target, "view") };
  return { key: `${target.objectType}/${field.name}`, target, scope: sql`(${view} OR ${extra})`, open: true };
}

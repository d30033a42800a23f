import type { Model, Registry, RouteDeclaration } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import type { Row } from "../../db/database.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { selectContext } from "../../engine/select.ts";
import { scopeSql } from "../../engine/scope.ts";
import { displayUrl, nestedForm, objectUrl } from "../../engine/serialize.ts";
import { ACTIVE, COMPLETE, nestedEndpointSql, PASS_THROUGH, pathSql, TERMINATIONS } from "./cabling.ts";

type Out = Record<string, unknown>;

/**
 * The cable path from one endpoint as NetBox's trace gives it: a list of segments
 * `[near terminations, cable, far terminations]`, terminations in their nested form, the cable
 * with its plain attributes (or null where the path stops at an unconnected pass-through port,
 * padded with an empty far end). One statement reads the object and its whole path.
 */
async function trace(ctx: Actor, model: Model, id: number): Promise<Response> {
  const object = nestedEndpointSql(selectContext(model.registry, 0), sql`hop.type`, sql`hop.id`, 1);
  const cable = sql`json((SELECT json_object('id', c.id, 'type', c.type, 'status', c.status, 'label', c.label, 'color', c.color,
    'length', c.length, 'length_unit', c.length_unit, 'description', c.description) FROM dcim_cable c WHERE c.id = hop.cable))`;
  const path = pathSql(
    model.registry.byObjectType,
    sql`${model.objectType}`,
    sql`${id}`,
    sql`SELECT json_group_array(json_array(seg, near, ${object}, ${cable}) ORDER BY seg, near DESC, id) FROM hop`,
  );
  const [exists, hops] = await readBatch(ctx, [
    sql`SELECT id FROM ${sql.table(model.table)} WHERE id = ${id} AND ${scopeSql(ctx, model, "view")}`.compile(qb),
    sql`SELECT ${path} AS hops`.compile(qb),
  ]);
  if (!exists.rows.length) throw ApiError.notFound(model.className);
  return json(segments(ctx, model.registry, hops.rows[0]));
}

/** Groups the path's rows by segment into `[near, cable, far]`. */
function segments(ctx: Actor, registry: Registry, row: Row): unknown[] {
  const cableModel = registry.get("dcim.cable");
  const rows = JSON.parse(String(row.hops ?? "[]")) as [number, number, Out | null, Out | null][];
  const out: [Out[], Out | null, Out[]][] = [];
  for (const [seg, near, raw, cable] of rows) {
    const segment = (out[seg - 1] ??= [[], null, []]);
    const object = raw && typeof raw.__type === "string" ? nestedForm(ctx, registry, raw.__type, raw) : null;
    if (object) (near ? segment[0] : segment[2]).push(object);
    if (near && cable && !segment[1]) {
      // NetBox's trace shows the cable by its page, without a display text; a blank type is null.
      segment[1] = {
        id: cable.id,
        url: objectUrl(ctx, cableModel, cable.id),
        display_url: displayUrl(ctx, cableModel, cable.id),
        ...cable,
        type: cable.type || null,
      };
    }
  }
  return out.filter(Boolean);
}

/** `GET <endpoint>/<id>/trace/`, declared on every path endpoint model (interfaces, console and power ports, ...). */
export const traceRoute: RouteDeclaration = {
  name: "trace",
  detail: true,
  summary: "The cable path from this endpoint: its segments, each [near ends, cable, far ends].",
  methods: ["GET", "HEAD"],
  permission: () => "view",
  handler: (ctx, model, id) => trace(ctx, model, id!),
};

/**
 * Every endpoint a cable can lead to from `(type, id)`, walking cables, front/rear port mappings
 * (every position) and circuits in any direction: the candidates whose paths may pass through it.
 */
function reachSql(model: Model, id: number): ReturnType<typeof sql> {
  const T = sql.table(TERMINATIONS);
  const steps = [
    sql`SELECT f.termination_type, f.termination_id FROM reach r JOIN ${T} me ON me.termination_type = r.type AND me.termination_id = r.id
      JOIN ${T} f ON f.cable_id = me.cable_id AND f.cable_end <> me.cable_end`,
    sql`SELECT 'dcim.rearport', fp.rear_port_id FROM reach r JOIN dcim_frontport fp ON r.type = 'dcim.frontport' AND fp.id = r.id`,
    sql`SELECT 'dcim.frontport', fp.id FROM reach r JOIN dcim_frontport fp ON r.type = 'dcim.rearport' AND fp.rear_port_id = r.id`,
  ];
  if (model.registry.byObjectType("circuits.circuittermination")) {
    steps.push(sql`SELECT 'circuits.circuittermination', peer.id FROM reach r JOIN circuits_circuittermination ct ON r.type = 'circuits.circuittermination' AND ct.id = r.id
      JOIN circuits_circuittermination peer ON peer.circuit_id = ct.circuit_id AND peer.id <> ct.id`);
  }
  return sql`WITH RECURSIVE reach(type, id) AS (SELECT ${model.objectType}, ${id} UNION ${sql.join(steps, sql` UNION `)})`;
}

/**
 * `GET <front or rear port>/<id>/paths/`: the cable paths passing through the port, as NetBox's
 * CablePath objects `{id, path, is_active, is_complete, is_split}`; `path` lists the nodes in
 * order (terminations, their cable, the far terminations, ...), each as a list of nested objects.
 * Paths are computed, not stored, so a path's `id` is its origin's cable end (stable while that
 * cable stays). One statement finds the candidate origins around the port and walks each path.
 */
async function paths(ctx: Actor, model: Model, id: number): Promise<Response> {
  const object = nestedEndpointSql(selectContext(model.registry, 0), sql`hop.type`, sql`hop.id`, 1);
  const cableModel = model.registry.get("dcim.cable");
  const cable = sql`json_set(${selectContext(model.registry, 0).nestedJson(cableModel, sql`hop.cable`, 1)}, '$.__type', 'dcim.cable')`;
  const walk = pathSql(
    model.registry.byObjectType,
    sql`r.type`,
    sql`r.id`,
    sql`SELECT json_object(
    'hops', (SELECT json_group_array(json_array(seg, near, type, id, ${object}, ${cable}) ORDER BY seg, near DESC, id) FROM hop),
    'complete', (SELECT ${COMPLETE} FROM tip), 'active', ${ACTIVE},
    'split', EXISTS (SELECT 1 FROM tip WHERE near = 0 AND type = 'dcim.rearport'))`,
  );
  const [exists, found] = await readBatch(ctx, [
    sql`SELECT id FROM ${sql.table(model.table)} WHERE id = ${id} AND ${scopeSql(ctx, model, "view")}`.compile(qb),
    sql`${reachSql(model, id)} SELECT (SELECT o.id FROM ${sql.table(TERMINATIONS)} o WHERE o.termination_type = r.type AND o.termination_id = r.id) AS origin,
      ${walk} AS path FROM reach r WHERE r.type NOT IN (${sql.join(PASS_THROUGH)}) ORDER BY origin`.compile(qb),
  ]);
  if (!exists.rows.length) throw ApiError.notFound(model.className);
  const out: Out[] = [];
  for (const row of found.rows) {
    if (row.path === null) continue;
    const p = JSON.parse(String(row.path)) as {
      hops: [number, number, string, number, Out | null, Out | null][];
      complete: number;
      active: number;
      split: number;
    };
    if (!p.hops.some(([, , type, hopId]) => type === model.objectType && hopId === id)) continue;
    const nodes: Out[][] = [];
    let at = "";
    for (const [seg, near, , , raw, cableRaw] of p.hops) {
      const side = `${seg}:${near}`;
      if (side !== at) {
        // A segment's near nodes, then its cable, then its far nodes.
        if (!near && nodes.length && cableRaw) nodes.push([nestedForm(ctx, model.registry, "dcim.cable", cableRaw)!]);
        nodes.push([]);
        at = side;
      }
      if (raw) nodes[nodes.length - 1].push(nestedForm(ctx, model.registry, String(raw.__type), raw)!);
    }
    out.push({
      id: Number(row.origin),
      path: nodes,
      is_active: Boolean(p.active),
      is_complete: Boolean(p.complete),
      is_split: Boolean(p.split),
    });
  }
  return json(out);
}

/** `GET <id>/paths/`, declared on pass-through ports (front and rear ports). */
export const pathsRoute: RouteDeclaration = {
  name: "paths",
  detail: true,
  summary: "Every cable path passing through this port.",
  methods: ["GET", "HEAD"],
  permission: () => "view",
  handler: (ctx, model, id) => paths(ctx, model, id!),
};

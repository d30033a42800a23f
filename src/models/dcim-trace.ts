import { sql } from "kysely";
import { readBatch } from "../auth/authenticate.ts";
import { qb } from "../db/query-builder.ts";
import type { Row } from "../db/database.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { json } from "../http/responses.ts";
import { selectContext } from "../rest/select.ts";
import { nestedForm, objectUrl } from "../rest/serialize.ts";
import { modelByType, type Model } from "./model.ts";
import type { RouteDeclaration } from "./routes.ts";
import { nestedEndpointSql, pathSql } from "./dcim-cabling.ts";

type Out = Record<string, unknown>;

/**
 * The cable path from one endpoint as NetBox's trace gives it: a list of segments
 * `[near terminations, cable, far terminations]`, terminations in their nested form, the cable
 * with its plain attributes (or null where the path stops at an unconnected pass-through port,
 * padded with an empty far end). One statement reads the object and its whole path.
 */
async function trace(ctx: RequestContext, model: Model, id: number): Promise<Response> {
  const object = nestedEndpointSql(selectContext(0), sql`hop.type`, sql`hop.id`, 1);
  const cable = sql`json((SELECT json_object('id', c.id, 'type', c.type, 'status', c.status, 'label', c.label, 'color', c.color,
    'length', c.length, 'length_unit', c.length_unit, 'description', c.description) FROM dcim_cable c WHERE c.id = hop.cable))`;
  const path = pathSql(modelByType, sql`${model.objectType}`, sql`${id}`,
    sql`SELECT json_group_array(json_array(seg, near, ${object}, ${cable}) ORDER BY seg, near DESC, id) FROM hop`);
  const [exists, hops] = await readBatch(ctx, [
    sql`SELECT id FROM ${sql.table(model.table)} WHERE id = ${id}`.compile(qb),
    sql`SELECT ${path} AS hops`.compile(qb),
  ]);
  if (!exists.rows.length) throw ApiError.notFound(model.className);
  return json(segments(ctx, hops.rows[0]));
}

/** Groups the path's rows by segment into `[near, cable, far]`. */
function segments(ctx: RequestContext, row: Row): unknown[] {
  const cableModel = modelByType("dcim.cable")!;
  const rows = JSON.parse(String(row.hops ?? "[]")) as [number, number, Out | null, Out | null][];
  const out: [Out[], Out | null, Out[]][] = [];
  for (const [seg, near, raw, cable] of rows) {
    const segment = (out[seg - 1] ??= [[], null, []]);
    const object = raw && typeof raw.__type === "string" ? nestedForm(ctx, raw.__type, raw) : null;
    if (object) (near ? segment[0] : segment[2]).push(object);
    if (near && cable && !segment[1]) {
      segment[1] = { id: cable.id, url: objectUrl(ctx, cableModel, cable.id), display: cable.label || `#${cable.id}`, ...cable, type: cable.type ?? "" };
    }
  }
  return out.filter(Boolean);
}

/** `GET <endpoint>/<id>/trace/`, declared on every path endpoint model (interfaces, console and power ports, ...). */
export const traceRoute: RouteDeclaration = {
  name: "trace",
  detail: true,
  methods: ["GET", "HEAD"],
  permission: () => "view",
  handler: (ctx, model, id) => trace(ctx, model, id!),
};

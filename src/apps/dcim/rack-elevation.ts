import type { Model, RouteDeclaration, RouteContext } from "../../schema/shapes.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { sql } from "kysely";
import type { Row } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { isPermitted } from "../../engine/permissions.ts";
import { ApiError } from "../../schema/errors.ts";
import { paginated, parsePage } from "../../lib/pagination.ts";
import { json } from "../../lib/responses.ts";
import { rowsOf, selectSql } from "../../engine/select.ts";
import { scopeSql } from "../../engine/scope.ts";
import { represent } from "../../engine/serialize.ts";

const FACES: Record<string, string> = { front: "Front", rear: "Rear" };
const BOOLEAN: Record<string, boolean> = { true: true, True: true, "1": true, false: false, False: false, "0": false };

/** The elevation's query parameters, refused in DRF's words when invalid. */
function elevationParams(params: URLSearchParams) {
  const face = params.get("face") || "front";
  if (!FACES[face]) throw ApiError.invalid({ face: [`"${face}" is not a valid choice.`] });
  const render = params.get("render") || "json";
  if (render !== "json")
    throw ApiError.invalid({
      render: [render === "svg" ? "SVG rendering is not supported; use render=json." : `"${render}" is not a valid choice.`],
    });
  const expandRaw = params.get("expand_devices");
  const expand = expandRaw === null || expandRaw === "" ? true : BOOLEAN[expandRaw];
  if (expand === undefined) throw ApiError.invalid({ expand_devices: ["Must be a valid boolean."] });
  const excludeRaw = params.get("exclude");
  if (excludeRaw && !/^\d{1,15}$/.test(excludeRaw)) throw ApiError.invalid({ exclude: ["A valid integer is required."] });
  return { face, expand, exclude: excludeRaw ? Number(excludeRaw) : null, q: params.get("q") || null };
}

/** A unit's name as NetBox prints it: U42, or U42.5 for a half unit. */
const unitName = (u: number) => `U${u}`;

/**
 * GET /api/dcim/racks/<id>/elevation/: the rack's units, top to bottom (bottom to top for
 * descending units), in half-unit steps, each with the device occupying it on the requested face
 * (full-depth devices occupy both). One round trip: the rack and its mounted devices' brief forms.
 */
async function rackElevation(ctx: RouteContext, rackModel: Model, device: Model, id: number): Promise<Response> {
  const { face, expand, exclude, q } = elevationParams(ctx.url.searchParams);
  const [racks, devices] = await readBatch(ctx, [
    sql`SELECT id, u_height, starting_unit, desc_units FROM dcim_rack WHERE id = ${id} AND ${scopeSql(ctx, rackModel, "view")}`.compile(qb),
    sql`SELECT ${selectSql(device, device.briefFields)}, dt.u_height AS __height FROM dcim_device JOIN dcim_devicetype dt ON dt.id = dcim_device.device_type_id
      WHERE dcim_device.rack_id = ${id} AND dcim_device.position > 0 AND dt.u_height > 0 AND dcim_device.id IS NOT ${exclude}
      AND (dcim_device.face = ${face} OR dt.is_full_depth) AND ${scopeSql(ctx, device, "view")} ORDER BY dcim_device.position`.compile(qb),
  ]);
  const rack = racks.rows[0];
  const mounted = rowsOf(devices.rows);
  if (!rack) throw ApiError.notFound(rackModel.className);

  const start = Number(rack.starting_unit);
  const units: number[] = [];
  for (let u = start; u < start + Number(rack.u_height); u += 0.5) units.push(u);
  if (!rack.desc_units) units.reverse();
  const visible = isPermitted(ctx, device, "view");
  const briefs = visible ? await represent(ctx, device, mounted, { form: "brief" }) : [];
  const elevation = new Map(
    units.map((u) => [
      u,
      {
        id: u,
        name: unitName(u),
        face: { value: face, label: FACES[face] },
        device: null as unknown,
        occupied: false,
        display: unitName(u),
      },
    ]),
  );
  mounted.forEach((row: Row, i) => {
    const position = Number(row.position);
    const height = Number(row.__height);
    for (let u = position; u < position + height; u += 0.5) {
      const unit = elevation.get(u);
      if (!unit) continue;
      if (!expand && u !== position) {
        elevation.delete(u);
        continue;
      }
      unit.occupied = true;
      unit.device = briefs[i] ?? null;
    }
  });
  let results = [...elevation.values()];
  if (q) results = results.filter((u) => String(u.id).includes(q));
  const page = parsePage(ctx.config, ctx.url.searchParams);
  const slice = results.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
  return json(paginated(ctx.url, page, results.length, slice));
}

/** The elevation route of racks; `device` is the device model (given lazily: it imports racks). */
export const rackElevationRoute = (device: () => Model): RouteDeclaration => ({
  name: "elevation",
  detail: true,
  summary: "The rack's units, each with the device occupying it.",
  lists: true,
  methods: ["GET", "HEAD"],
  permission: () => "view",
  handler: (ctx, model, id) => rackElevation(ctx, model, device(), id!),
});

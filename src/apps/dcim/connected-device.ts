import type { Model, RouteContext, RouteDeclaration } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import { ApiError } from "../../schema/errors.ts";
import { ref } from "../../schema/json-schema.ts";
import { json } from "../../lib/responses.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { scopeSql } from "../../engine/scope.ts";
import { FULL, retrieveObject } from "../../engine/crud.ts";
import { COMPLETE, pathSql } from "./cabling.ts";

/**
 * `GET /api/dcim/connected-device/?peer_device=<name>&peer_interface=<name>`: NetBox's LLDP
 * lookup. A device that boots knowing only its neighbour's name and port (from LLDP) asks which
 * device sits at the far end of that port's cable path. Both names are required (400); the
 * neighbour and its port must be ones the requester may view, and the path must be complete and
 * end at an interface, whose device (also one they may view) is the answer, else 404.
 *
 * NetBox answers the device object itself, though its OpenAPI document says a list: the answer
 * here is NetBox's, one device in its full form.
 */
async function connectedDevice(ctx: RouteContext, device: Model): Promise<Response> {
  const peerDevice = ctx.url.searchParams.get("peer_device");
  const peerInterface = ctx.url.searchParams.get("peer_interface");
  if (!peerDevice || !peerInterface) throw ApiError.detail("invalid", 'Request must include "peer_device" and "peer_interface" filters.');
  const iface = device.registry.get("dcim.interface");
  // The far end's first endpoint (as NetBox's `connected_endpoints[0]`), and its device when an interface.
  const far = pathSql(
    device.registry.byObjectType,
    sql`'dcim.interface'`,
    sql`i.id`,
    sql`SELECT CASE WHEN ${COMPLETE} THEN (SELECT CASE t.type WHEN 'dcim.interface' THEN (SELECT x.device_id FROM dcim_interface x WHERE x.id = t.id) END
      FROM tip t WHERE t.near = 0 ORDER BY t.id LIMIT 1) END FROM tip`,
  );
  const [found] = await readBatch(ctx, [
    sql`SELECT ${far} AS device_id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id
      WHERE d.name = ${peerDevice} AND i.name = ${peerInterface}
        AND ${scopeSql(ctx, device, "view", "d")} AND ${scopeSql(ctx, iface, "view", "i")}
      ORDER BY i.id LIMIT 1`.compile(qb),
  ]);
  const id = found.rows[0]?.device_id;
  if (id === null || id === undefined) throw ApiError.notFound();
  return json(await retrieveObject(ctx, device, Number(id), FULL));
}

/** Declared on devices, served at the dcim root (`/api/dcim/connected-device/`), as NetBox places it. */
export const connectedDeviceRoute: RouteDeclaration = {
  name: "connected-device",
  detail: false,
  atAppRoot: true,
  summary: "The device at the far end of a neighbour's interface (by `peer_device` and `peer_interface` names), as LLDP would find it.",
  methods: ["GET", "HEAD"],
  // NetBox's operation is its viewset's list (`dcim_connected_device_list`); the body is one device.
  lists: true,
  query: [
    { name: "peer_device", description: "The name of the peer device", required: true },
    { name: "peer_interface", description: "The name of the peer interface", required: true },
  ],
  bodies: { GET: { response: ref("Device") } },
  permission: () => "view",
  handler: (ctx, model) => connectedDevice(ctx, model),
};

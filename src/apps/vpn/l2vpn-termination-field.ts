import type { FilterDeclaration, ModelName } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";

/** The objects an L2VPN terminates on (NetBox's `L2VPN_ASSIGNMENT_MODELS`). */
export const L2VPN_TERMINATION_TARGETS: readonly ModelName[] = ["dcim.interface", "ipam.vlan", "virtualization.vminterface"];

/** The termination row of the object under `t` (of type `objectType`), as SQL. */
const terminationOf = (objectType: string, t: string, column: string) =>
  sql`SELECT ${sql.ref(`x.${column}`)} AS id FROM vpn_l2vpntermination x
    WHERE x.assigned_object_type = ${objectType} AND x.assigned_object_id = ${sql.ref(`${t}.id`)}`;

/**
 * `l2vpn_termination`, as NetBox gives interfaces, VM interfaces and VLANs: the one termination
 * attaching the object to an L2VPN (a unique constraint keeps it one), nested, or null.
 */
export const l2vpnTerminationField = (objectType: string) =>
  f.related("vpn.l2vpntermination", (t) => sql`(${terminationOf(objectType, t, "id")})`, { label: "L2VPN termination" });

/** The ids of objects of `objectType` terminated on an L2VPN whose identifier is among `values`. */
const byIdentifier = (objectType: string, values: readonly string[]) => {
  const identifiers = values.filter((v) => /^-?\d{1,19}$/.test(v)).map(Number);
  return sql`SELECT x.assigned_object_id FROM vpn_l2vpntermination x JOIN vpn_l2vpn l ON l.id = x.l2vpn_id
    WHERE x.assigned_object_type = ${objectType} AND l.identifier IN (SELECT value FROM json_each(${JSON.stringify(identifiers)}))`;
};

/**
 * The filters NetBox gives those objects: `l2vpn_id` (the L2VPN's id) and `l2vpn` (its
 * identifier, not its slug: NetBox's `to_field_name`), through the termination.
 */
export const l2vpnFilters = (objectType: string): Record<string, FilterDeclaration> => ({
  l2vpn_id: { target: "vpn.l2vpn", byId: true, related: (t) => terminationOf(objectType, t, "l2vpn_id") },
  l2vpn: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} IN (${byIdentifier(objectType, values)})` },
  l2vpn__n: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} NOT IN (${byIdentifier(objectType, values)})` },
});

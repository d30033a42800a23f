import type { FilterDeclaration, ModelName } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";

/*
 * What other apps' models take from L2VPNs: interfaces, VM interfaces and VLANs their termination
 * and `l2vpn` filters, route targets the L2VPNs importing and exporting them. Their declarations
 * spread these, so the SQL naming this app's tables lives here.
 */

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

/** The ids of L2VPNs whose identifier is among `values` (a value that is not a number matches nothing). */
const byIdentifier = (values: readonly string[]) => {
  const identifiers = values.filter((v) => /^-?\d{1,16}$/.test(v)).map(Number);
  return sql`SELECT l.id FROM vpn_l2vpn l WHERE l.identifier IN (SELECT value FROM json_each(${JSON.stringify(identifiers)}))`;
};

/** The ids of objects of `objectType` terminated on an L2VPN whose identifier is among `values`. */
const terminatedOn = (objectType: string, values: readonly string[]) =>
  sql`SELECT x.assigned_object_id FROM vpn_l2vpntermination x
    WHERE x.assigned_object_type = ${objectType} AND x.l2vpn_id IN (${byIdentifier(values)})`;

/**
 * The filters NetBox gives those objects: `l2vpn_id` (the L2VPN's id) and `l2vpn` (its
 * identifier, not its slug: NetBox's `to_field_name`), through the termination.
 */
export const l2vpnFilters = (objectType: string): Record<string, FilterDeclaration> => ({
  l2vpn_id: { target: "vpn.l2vpn", byId: true, related: (t) => terminationOf(objectType, t, "l2vpn_id") },
  l2vpn: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} IN (${terminatedOn(objectType, values)})` },
  l2vpn__n: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} NOT IN (${terminatedOn(objectType, values)})` },
});

/**
 * The filters NetBox gives route targets: `importing_l2vpn` and `exporting_l2vpn` (by the L2VPN's
 * identifier, as NetBox's `to_field_name`), and their `_id` forms, through the L2VPNs' target sets.
 */
export const routeTargetL2vpnFilters = (): Record<string, FilterDeclaration> => {
  const pair = (name: string, table: string): Record<string, FilterDeclaration> => {
    const holders = (values: readonly string[]) =>
      sql`SELECT x.routetarget_id FROM ${sql.table(table)} x WHERE x.l2vpn_id IN (${byIdentifier(values)})`;
    return {
      [`${name}_id`]: {
        target: "vpn.l2vpn",
        byId: true,
        related: (t) => sql`SELECT x.l2vpn_id AS id FROM ${sql.table(table)} x WHERE x.routetarget_id = ${sql.ref(`${t}.id`)}`,
      },
      [name]: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} IN (${holders(values)})` },
      [`${name}__n`]: { sql: (values, t) => sql`${sql.ref(`${t}.id`)} NOT IN (${holders(values)})` },
    };
  };
  return { ...pair("importing_l2vpn", "vpn_l2vpn_import_targets"), ...pair("exporting_l2vpn", "vpn_l2vpn_export_targets") };
};

import type { FieldOptions } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { DEVICE_INTERFACES, primaryIpHooks } from "./primary-ips.ts";
import { interfaceVlanHooks } from "./vlan-rules.ts";

/**
 * What IPAM adds to the inventory's models, spread into their declarations so each addition is
 * one line there: devices' primary and out-of-band addresses, interfaces' VLANs and address
 * count, sites' prefix and VLAN counts.
 */

// Function declarations, not arrow constants: the virtualization models call them while this
// module may still be loading (the models import one another), and declarations exist from the start.
function address(label: string): FieldOptions {
  return f.fk("ipam.ipaddress", { nullable: true, onDelete: "setNull", label });
}

export function primaryIpFields(): Record<string, FieldOptions> {
  return { primary_ip4: address("Primary IPv4"), primary_ip6: address("Primary IPv6"), oob_ip: address("Out-of-band IP") };
}

export const deviceIpamHooks: ModelHooks = primaryIpHooks(DEVICE_INTERFACES);

/** Addresses assigned to the interface row under `t` of type `type`. */
export function addressCount(type: string) {
  return (t: string) =>
    sql`(SELECT count(*) FROM ipam_ipaddress a WHERE a.assigned_object_type = ${type} AND a.assigned_object_id = ${sql.ref(`${t}.id`)})`;
}

export const interfaceVlanFields = (): Record<string, FieldOptions> => ({
  untagged_vlan: f.fk("ipam.vlan", { nullable: true, onDelete: "setNull", label: "Untagged VLAN" }),
  tagged_vlans: f.m2m(
    "ipam.vlan",
    { table: "dcim_interface_tagged_vlans", source: "interface_id", target: "vlan_id" },
    { filterName: "tagged_vlan" },
  ),
  count_ipaddresses: f.computed(addressCount("dcim.interface"), { returns: "integer" }),
});

/** The rules IPAM adds to interfaces (`self` is the interface model): their VLAN assignments. */
export const interfaceIpamHooks = interfaceVlanHooks;

export const siteIpamCounts = (): Record<string, FieldOptions> => ({
  prefix_count: f.count("ipam.prefix", "site"),
  vlan_count: f.count("ipam.vlan", "site"),
});

import type { FieldOptions, FilterDeclaration, Model } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { numberSet } from "../../schema/filter-sql.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { DEVICE_INTERFACES, primaryIpHooks } from "./primary-ips.ts";
import { DEVICE_PARENT, interfaceVlanHooks, VM_PARENT } from "./vlan-rules.ts";

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

/** Primary addresses, and for devices (not virtual machines, as in NetBox) the out-of-band one. */
export function primaryIpFields({ oob = true }: { readonly oob?: boolean } = {}): Record<string, FieldOptions> {
  return {
    primary_ip4: address("Primary IPv4"),
    primary_ip6: address("Primary IPv6"),
    ...(oob ? { oob_ip: address("Out-of-band IP") } : {}),
  };
}

export const deviceIpamHooks: ModelHooks = primaryIpHooks(DEVICE_INTERFACES);

/** Addresses assigned to the interface row under `t` of type `type`. */
export function addressCount(type: string) {
  return (t: string) =>
    sql`(SELECT count(*) FROM ipam_ipaddress a WHERE a.assigned_object_type = ${type} AND a.assigned_object_id = ${sql.ref(`${t}.id`)})`;
}

/** Where each interface model keeps its tagged VLANs. */
const TAGGED_VLANS = {
  "dcim.interface": { table: "dcim_interface_tagged_vlans", source: "interface_id", target: "vlan_id" },
  "virtualization.vminterface": { table: "virtualization_vminterface_tagged_vlans", source: "vminterface_id", target: "vlan_id" },
} as const;

export type InterfaceType = keyof typeof TAGGED_VLANS;

/**
 * An interface's VLANs: the untagged one and the tagged set (802.1Q), the service VLAN of
 * Q-in-Q mode, and the VLAN translation policy it applies.
 */
export function interfaceVlanFields(type: InterfaceType): Record<string, FieldOptions> {
  return {
    untagged_vlan: f.fk("ipam.vlan", { nullable: true, onDelete: "setNull", label: "Untagged VLAN" }),
    tagged_vlans: f.m2m("ipam.vlan", TAGGED_VLANS[type], { filterName: "tagged_vlan" }),
    qinq_svlan: f.fk("ipam.vlan", { nullable: true, onDelete: "setNull", label: "Q-in-Q SVLAN" }),
    vlan_translation_policy: f.fk("ipam.vlantranslationpolicy", {
      nullable: true,
      onDelete: "protect",
      label: "VLAN Translation Policy",
    }),
  };
}

/** An interface's VRF. */
export function interfaceVrfField(): Record<string, FieldOptions> {
  return { vrf: f.fk("ipam.vrf", { nullable: true, onDelete: "setNull", label: "VRF" }) };
}

/** What an interface counts: the addresses assigned to it, and the FHRP groups it joins. */
export function interfaceIpamCounts(type: InterfaceType): Record<string, FieldOptions> {
  return {
    count_ipaddresses: f.computed(addressCount(type), { returns: "integer" }),
    count_fhrp_groups: f.computed(
      (t) =>
        sql`(SELECT count(*) FROM ipam_fhrpgroupassignment a WHERE a.interface_type = ${type} AND a.interface_id = ${sql.ref(`${t}.id`)})`,
      { returns: "integer" },
    ),
  };
}

/** Interfaces carrying a VLAN, untagged or tagged: `vlan_id` by id, `vlan` by VID (NetBox's). */
export function interfaceVlanFilters(type: InterfaceType): Record<string, FilterDeclaration> {
  const { table, source } = TAGGED_VLANS[type];
  const carrying = (vlans: RawBuilder<unknown>, t: string) =>
    sql`(${sql.ref(`${t}.untagged_vlan_id`)} IN ${vlans} OR ${sql.ref(`${t}.id`)} IN (SELECT ${sql.ref(source)} FROM ${sql.table(table)} WHERE vlan_id IN ${vlans}))`;
  return {
    vlan_id: { integer: true, sql: (values, t) => carrying(numberSet(values), t) },
    vlan: { integer: true, sql: (values, t) => carrying(sql`(SELECT id FROM ipam_vlan WHERE vid IN ${numberSet(values)})`, t) },
  };
}

/** The rules IPAM adds to interfaces (`self` is the interface model): their VLAN assignments. */
export const interfaceIpamHooks = (self: () => Model, type: InterfaceType) =>
  interfaceVlanHooks(self, type === "dcim.interface" ? DEVICE_PARENT : VM_PARENT);

/** Where each place that groups sites keeps them: its table, and the sites' column naming it (none for locations). */
const PLACES = {
  region: { table: "dcim_region", siteColumn: "region_id" },
  sitegroup: { table: "dcim_sitegroup", siteColumn: "group_id" },
  location: { table: "dcim_location", siteColumn: null },
} as const;

/**
 * NetBox's `prefix_count` of a region, site group or location: the prefixes scoped to it or to
 * a place below it (its descendants, and for a region or group the sites in them and their
 * locations), as NetBox counts its cached `_region`, `_site_group` and `_location`. Each part is
 * an index lookup on the prefixes' scope.
 */
export function placePrefixCount(place: keyof typeof PLACES): Record<string, FieldOptions> {
  const { table, siteColumn } = PLACES[place];
  const scoped = (type: string, ids: RawBuilder<unknown>) => sql`(p.scope_type = ${type} AND p.scope_id IN ${ids})`;
  const count = (t: string) => {
    const tree = sql`(SELECT id FROM d)`;
    const parts = [scoped(`dcim.${place}`, tree)];
    if (siteColumn) {
      const sites = sql`(SELECT s.id FROM dcim_site s WHERE s.${sql.ref(siteColumn)} IN ${tree})`;
      parts.push(scoped("dcim.site", sites), scoped("dcim.location", sql`(SELECT l.id FROM dcim_location l WHERE l.site_id IN ${sites})`));
    }
    return sql`(WITH RECURSIVE d(id) AS (SELECT ${sql.ref(`${t}.id`)} UNION SELECT c.id FROM ${sql.table(table)} c JOIN d ON c.parent_id = d.id)
      SELECT count(*) FROM ipam_prefix p WHERE ${sql.join(parts, sql` OR `)})`;
  };
  return { prefix_count: f.countSql(count) };
}

export const siteIpamCounts = (): Record<string, FieldOptions> => ({
  prefix_count: f.counter("ipam.prefix", "site", { annotated: true }),
  vlan_count: f.counter("ipam.vlan", "site", { annotated: true }),
});

import type { FilterDeclaration } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { scopePlaceFilters } from "../virtualization/cluster-scope.ts";
import { interfaceOwnerFilters } from "../dcim/interface-owners.ts";
import { addressesWithin } from "./address-tallies.ts";
import { ancestorCandidates, firstOf, keyOf, lastOf, parseNetwork, type Network } from "../../lib/network.ts";

type Cond = RawBuilder<unknown>;
type SqlFilter = Extract<FilterDeclaration, { sql: unknown }>;

/**
 * IPAM's filters, NetBox's names and meanings, each a range scan or a few index lookups on the
 * sortable key columns. A value that does not parse matches nothing (NetBox's `parent` does the
 * same; a 400 would reveal nothing more).
 */

const or = (xs: Cond[]): Cond => (xs.length ? sql`(${sql.join(xs, sql` OR `)})` : sql`0`);
const col = (table: string, c: string) => sql.ref(`${table}.${c}`);
const networks = (values: readonly string[]) => values.map((v) => parseNetwork(v)).filter((n): n is Network => n !== null);
const range = (n: Network) => [keyOf(n.family, firstOf(n)), keyOf(n.family, lastOf(n))] as const;

/** Rows whose network (field `f`) lies inside a value's network; strictly (a longer mask) unless `include`. */
const inside =
  (f: string, { include }: { readonly include: boolean }) =>
  (values: readonly string[], t: string) =>
    or(
      networks(values).map((n) => {
        const [s, e] = range(n);
        return sql`(${col(t, `${f}_start`)} BETWEEN ${s} AND ${e} AND ${col(t, `${f}_end`)} <= ${e} AND ${col(t, `${f}_length`)} ${sql.raw(include ? ">=" : ">")} ${n.length})`;
      }),
    );

/** Rows whose network contains a value (an address or a network): one index lookup per shorter mask. */
const containing = (f: string) => (values: readonly string[], t: string) =>
  or(
    networks(values).map((n) => {
      const prefix = { ...n, host: firstOf(n) };
      const candidates = [...ancestorCandidates(prefix), { start: keyOf(n.family, firstOf(n)), length: n.length }];
      return sql`(${col(t, `${f}_start`)}, ${col(t, `${f}_length`)}) IN (SELECT json_extract(c.value, '$.start'), json_extract(c.value, '$.length') FROM json_each(${JSON.stringify(candidates)}) c)`;
    }),
  );

/** Exact networks (a prefix list): same start and mask. */
const exactPrefix = (f: string) => (values: readonly string[], t: string) =>
  or(
    networks(values).map((n) => sql`(${col(t, `${f}_start`)} = ${keyOf(n.family, firstOf(n))} AND ${col(t, `${f}_length`)} = ${n.length})`),
  );

/** Exact addresses: with a mask, that address and mask; without, the host under any mask. */
const exactAddress = (values: readonly string[], t: string) =>
  or(
    values.flatMap((v) => {
      const n = parseNetwork(v);
      if (!n) return [];
      const host = sql`${col(t, "address_start")} = ${keyOf(n.family, n.host)}`;
      return [v.includes("/") ? sql`(${host} AND ${col(t, "address_length")} = ${n.length})` : host];
    }),
  );

/** Rows whose mask length compares to every value (`mask_length`, `__gte`, `__lte`). */
const maskLength = (f: string, op: "=" | ">=" | "<=") => (values: readonly string[], t: string) => {
  const ns = values.filter((v) => /^\d{1,3}$/.test(v)).map(Number);
  return ns.length ? or(ns.map((n) => sql`${col(t, `${f}_length`)} ${sql.raw(op)} ${n}`)) : sql`0`;
};

const ids = (values: readonly string[]) => values.filter((v) => /^\d{1,15}$/.test(v)).map(Number);
const idSet = (values: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids(values))}))`;

/**
 * Rows in the given VRFs or in VRFs importing their export targets... as NetBox's `present_in_vrf`:
 * the VRF itself, or any VRF exporting a route target the given one imports.
 */
const presentInVrf = (by: "id" | "rd") => (values: readonly string[], t: string) => {
  const chosen =
    by === "rd" ? sql`(SELECT id FROM ipam_vrf WHERE rd IN (SELECT value FROM json_each(${JSON.stringify(values)})))` : idSet(values);
  return sql`(${col(t, "vrf_id")} IN ${chosen} OR ${col(t, "vrf_id")} IN (SELECT e.vrf_id FROM ipam_vrf_export_targets e
    JOIN ipam_vrf_import_targets i ON i.routetarget_id = e.routetarget_id WHERE i.vrf_id IN ${chosen}))`;
};

const sqlFilter = (f: (values: readonly string[], table: string) => Cond): SqlFilter => ({ sql: f });
/** An SQL filter whose values are whole numbers (others are a 400, as NetBox's number filters). */
const numberFilter = (f: (values: readonly string[], table: string) => Cond, { negatable = false } = {}): SqlFilter => ({
  sql: f,
  integer: true,
  negatable,
});

/** Filters of models holding one network field `f` (prefixes, aggregates). */
const networkFilters = (f: string) => ({
  [f]: sqlFilter(exactPrefix(f)),
  within: sqlFilter(inside(f, { include: false })),
  within_include: sqlFilter(inside(f, { include: true })),
  contains: sqlFilter(containing(f)),
  mask_length: numberFilter(maskLength(f, "=")),
  mask_length__gte: numberFilter(maskLength(f, ">=")),
  mask_length__lte: numberFilter(maskLength(f, "<=")),
});

export const prefixFilters = {
  ...networkFilters("prefix"),
  ...scopePlaceFilters("region", "region"),
  ...scopePlaceFilters("site_group", "sitegroup"),
  ...scopePlaceFilters("location", "location"),
  present_in_vrf_id: numberFilter(presentInVrf("id")),
  present_in_vrf: sqlFilter(presentInVrf("rd")),
  vlan_vid: "vlan__vid",
  vlan_group_id: "vlan__group__id",
  depth: "_depth",
} satisfies Record<string, FilterDeclaration>;

export const aggregateFilters = networkFilters("prefix");

export const ipRangeFilters = {
  start_address: sqlFilter(exactAddressOf("start_address")),
  end_address: sqlFilter(exactAddressOf("end_address")),
  parent: sqlFilter((values, t) =>
    or(
      networks(values).map((n) => {
        const [s, e] = range(n);
        return sql`(${col(t, "start_address_start")} BETWEEN ${s} AND ${e} AND ${col(t, "end_address_start")} <= ${e})`;
      }),
    ),
  ),
  contains: sqlFilter((values, t) =>
    or(
      networks(values).map((n) => {
        const [s, e] = range(n);
        return sql`(${col(t, "start_address_start")} <= ${s} AND ${col(t, "end_address_start")} >= ${e})`;
      }),
    ),
  ),
  present_in_vrf_id: numberFilter(presentInVrf("id")),
  present_in_vrf: sqlFilter(presentInVrf("rd")),
} satisfies Record<string, FilterDeclaration>;

function exactAddressOf(f: string) {
  return (values: readonly string[], t: string) =>
    or(networks(values).map((n) => sql`${col(t, `${f}_start`)} = ${keyOf(n.family, n.host)}`));
}

/** What an IP address may be assigned to (its `assigned_object`). */
export const ASSIGNABLE_TO = ["dcim.interface", "virtualization.vminterface", "ipam.fhrpgroup"];

/** Addresses assigned to objects of `type` whose ids are in `idsSql`. */
const assignedTo = (type: string, idsSql: Cond, t: string) =>
  sql`(${col(t, "assigned_object_type")} = ${type} AND ${col(t, "assigned_object_id")} IN ${idsSql})`;

const boolean = (values: readonly string[]) => ["true", "1", "True"].includes(values[0]);

export const ipAddressFilters = {
  address: sqlFilter(exactAddress),
  parent: {
    sql: (values, t) =>
      or(
        networks(values).map((n) => {
          const [s, e] = range(n);
          return sql`${col(t, "address_start")} BETWEEN ${s} AND ${e}`;
        }),
      ),
    // One network's addresses, counted by their blocks' tallies (several may overlap: counted as rows).
    tally: (values) => {
      const found = networks(values);
      return found.length === 1 ? addressesWithin(...range(found[0])) : null;
    },
  },
  mask_length: numberFilter(maskLength("address", "=")),
  mask_length__gte: numberFilter(maskLength("address", ">=")),
  mask_length__lte: numberFilter(maskLength("address", "<=")),
  present_in_vrf_id: numberFilter(presentInVrf("id")),
  present_in_vrf: sqlFilter(presentInVrf("rd")),
  ...interfaceOwnerFilters("assigned_object_type", "assigned_object_id"),
  fhrpgroup_id: numberFilter((values, t) => assignedTo("ipam.fhrpgroup", idSet(values), t), { negatable: true }),
  service_id: numberFilter(
    (values, t) => sql`${col(t, "id")} IN (SELECT ipaddress_id FROM ipam_service_ipaddresses WHERE service_id IN ${idSet(values)})`,
    { negatable: true },
  ),
  assigned_to_interface: sqlFilter((values, t) => {
    const types = ASSIGNABLE_TO.filter((type) => type.endsWith("interface"));
    const cond = sql`${col(t, "assigned_object_type")} IN (${sql.join(types)})`;
    return boolean(values) ? cond : sql`NOT coalesce(${cond}, 0)`;
  }),
  assigned: sqlFilter((values, t) =>
    boolean(values) ? sql`${col(t, "assigned_object_id")} IS NOT NULL` : sql`${col(t, "assigned_object_id")} IS NULL`,
  ),
} satisfies Record<string, FilterDeclaration>;

/**
 * VLANs usable at the places `places` lists (rows of site, location, region, site group, cluster
 * and cluster group ids, any null): global ones, those of the site, and those of groups scoped
 * to one of the places or to nothing. What `available_on_device`, `available_at_site` and
 * `available_on_virtualmachine` share.
 */
const availableAt = (places: Cond, t: string) =>
  sql`EXISTS (SELECT 1 FROM ${places} p WHERE
    (${col(t, "group_id")} IS NULL AND (${col(t, "site_id")} IS NULL OR ${col(t, "site_id")} = p.site_id))
    OR ${col(t, "group_id")} IN (SELECT g.id FROM ipam_vlangroup g WHERE g.scope_type IS NULL
      OR (g.scope_type = 'dcim.site' AND g.scope_id = p.site_id) OR (g.scope_type = 'dcim.location' AND g.scope_id = p.location_id)
      OR (g.scope_type = 'dcim.region' AND g.scope_id = p.region_id) OR (g.scope_type = 'dcim.sitegroup' AND g.scope_id = p.group_id)
      OR (g.scope_type = 'virtualization.cluster' AND g.scope_id = p.cluster_id)
      OR (g.scope_type = 'virtualization.clustergroup' AND g.scope_id = p.cluster_group_id)))`;

/** VLANs a device's interfaces may carry (NetBox's `available_on_device`). */
const availableOnDevice = (values: readonly string[], t: string) =>
  availableAt(
    sql`(SELECT d.site_id, d.location_id, s.region_id, s.group_id, d.cluster_id, c.group_id AS cluster_group_id
      FROM dcim_device d JOIN dcim_site s ON s.id = d.site_id LEFT JOIN virtualization_cluster c ON c.id = d.cluster_id
      WHERE d.id IN ${idSet(values)})`,
    t,
  );

/** VLANs a virtual machine's interfaces may carry (NetBox's `available_on_virtualmachine`): by its site and cluster. */
const availableOnVirtualMachine = (values: readonly string[], t: string) =>
  availableAt(
    sql`(SELECT vm.site_id, NULL AS location_id, s.region_id, s.group_id, vm.cluster_id, c.group_id AS cluster_group_id
      FROM virtualization_virtualmachine vm LEFT JOIN dcim_site s ON s.id = vm.site_id
      LEFT JOIN virtualization_cluster c ON c.id = vm.cluster_id WHERE vm.id IN ${idSet(values)})`,
    t,
  );

/** VLANs usable at a site (NetBox's `available_at_site`): its own, global ones, and groups scoped to it, its locations, region or group. */
const availableAtSite = (values: readonly string[], t: string) =>
  availableAt(
    sql`(SELECT s.id AS site_id, l.id AS location_id, s.region_id, s.group_id, NULL AS cluster_id, NULL AS cluster_group_id
      FROM dcim_site s LEFT JOIN dcim_location l ON l.site_id = s.id WHERE s.id IN ${idSet(values)})`,
    t,
  );

/** VLANs an interface of `table` carries, untagged or tagged. */
const carriedBy = (table: string, through: string, source: string) => (values: readonly string[], t: string) =>
  sql`(${col(t, "id")} IN (SELECT untagged_vlan_id FROM ${sql.table(table)} WHERE id IN ${idSet(values)})
    OR ${col(t, "id")} IN (SELECT vlan_id FROM ${sql.table(through)} WHERE ${sql.ref(source)} IN ${idSet(values)}))`;

export const vlanFilters = {
  available_on_device: numberFilter(availableOnDevice),
  available_on_virtualmachine: numberFilter(availableOnVirtualMachine),
  available_at_site: numberFilter(availableAtSite),
  interface_id: numberFilter(carriedBy("dcim_interface", "dcim_interface_tagged_vlans", "interface_id")),
  vminterface_id: numberFilter(carriedBy("virtualization_vminterface", "virtualization_vminterface_tagged_vlans", "vminterface_id")),
  region: { path: "site__region", tree: true },
  region_id: { path: "site__region__id", tree: true },
  site_group: { path: "site__group", tree: true },
  site_group_id: { path: "site__group__id", tree: true },
} satisfies Record<string, FilterDeclaration>;

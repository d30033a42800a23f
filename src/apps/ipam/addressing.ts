import type { FieldOptions, RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { ipRangeNameSql } from "./range-name.ts";
import { firstOf, keyOf, lastOf, parseNetwork } from "../../lib/network.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { FAMILY, IP_ADDRESS_ROLE, IP_ADDRESS_STATUS, IP_RANGE_STATUS, PREFIX_STATUS } from "./choices.ts";
import { aggregateHooks, ipAddressHooks, ipRangeHooks, prefixHooks } from "./rules.ts";
import type { StatefulHooks, AllocationPlan } from "../../schema/hooks.ts";
import { ASSIGNABLE_TO, aggregateFilters, ipAddressFilters, ipRangeFilters, prefixFilters } from "./filters.ts";
import { availableIpsRoute, availablePrefixesRoute } from "./allocation.ts";
import { availableAsnsRoute } from "./allocation-numbers.ts";
import { allocationState, applyAllocation } from "./allocation-plan.ts";
import { routeTargetL2vpnFilters } from "../vpn/l2vpn-relations.ts";

/** The models an IP address can be assigned to. */

/** The family an address or prefix has: derived on write, read-only, `{value, label}` in full form. */
const family = (): FieldOptions => f.choice(FAMILY, { readOnly: true, required: false });
const organizational = () => ({ name: f.string({ maxLength: 100, unique: true }), slug: f.slug({ unique: true }) });

export const rir = defineModel({
  app: "ipam",
  name: "rir",
  verboseName: "RIR",
  className: "RIR",
  fields: {
    ...organizational(),
    is_private: f.boolean({ default: false, label: "Private", helpText: "IP space managed by this RIR is considered private" }),
    description,
    aggregate_count: f.count("ipam.aggregate", "rir"),
  },
  brief: ["name", "slug", "description", "aggregate_count"],
});

export const aggregate = defineModel({
  app: "ipam",
  name: "aggregate",
  fields: {
    family: family(),
    prefix: f.network("prefix"),
    rir: f.fk("ipam.rir", { onDelete: "protect", label: "RIR" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    date_added: f.date({ nullable: true, default: null }),
    description,
    comments,
  },
  brief: ["family", "prefix", "description"],
  display: "prefix",
  search: ["prefix", "description", "comments"],
  ordering: ["prefix"],
  hooks: aggregateHooks,
  filters: aggregateFilters,
});

/** `AS65000`, and for 32-bit numbers their asdot form too: `AS4200000000 (64086.59904)`. */
const asnDisplay = (t: string) => {
  const asn = sql.ref(`${t}.asn`);
  return sql`CASE WHEN ${asn} > 65535 THEN 'AS' || ${asn} || ' (' || (${asn} / 65536) || '.' || (${asn} % 65536) || ')' ELSE 'AS' || ${asn} END`;
};

export const asn = defineModel({
  app: "ipam",
  name: "asn",
  verboseName: "ASN",
  className: "ASN",
  fields: {
    asn: f.integer({ required: true, unique: true, min: 1, max: 4_294_967_295, label: "ASN" }),
    rir: f.fk("ipam.rir", { nullable: true, onDelete: "protect", label: "RIR" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    description,
    comments,
    site_count: f.countRows("dcim_site_asns", "asn_id"),
    provider_count: f.countRows("circuits_provider_asns", "asn_id"),
  },
  brief: ["asn", "description"],
  display: asnDisplay,
  naturalKey: "asn",
  filters: {
    ...heldBy("dcim.site", "dcim_site_asns", "site_id", "site"),
    ...heldBy("circuits.provider", "circuits_provider_asns", "provider_id", "provider"),
  },
  search: ["description", "comments"],
  ordering: ["asn"],
  hooks: {
    initial: allocationState,
    prepareWrite: (_ctx, items, allocation) => applyAllocation(allocation, items),
  } satisfies StatefulHooks<AllocationPlan | null>,
});

/** ASNs the sites or providers given hold (`site`/`site_id`, `provider`/`provider_id`), through their `asns` sets. */
function heldBy(target: string, table: string, column: string, name: string): Record<string, RelatedFilter> {
  const related = (t: string) => sql`SELECT x.${sql.ref(column)} AS id FROM ${sql.table(table)} x WHERE x.asn_id = ${sql.ref(`${t}.id`)}`;
  return { [name]: { target, related }, [`${name}_id`]: { target, byId: true, related } };
}

export const asnRange = defineModel({
  app: "ipam",
  name: "asnrange",
  verboseName: "ASN range",
  className: "ASNRange",
  fields: {
    ...organizational(),
    rir: f.fk("ipam.rir", { onDelete: "protect", label: "RIR" }),
    start: f.integer({ required: true, min: 1, max: 4_294_967_295 }),
    end: f.integer({ required: true, min: 1, max: 4_294_967_295 }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    description,
    asn_count: f.computed(
      (t) => sql`(SELECT count(*) FROM ipam_asn a WHERE a.rir_id = ${sql.ref(`${t}.rir_id`)}
      AND a.asn BETWEEN ${sql.ref(`${t}.start`)} AND ${sql.ref(`${t}.end`)})`,
      { returns: "integer" },
    ),
  },
  brief: ["name", "slug", "description"],
  display: (t) => sql`${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.start`)} || '-' || ${sql.ref(`${t}.end`)} || ')'`,
  routes: [availableAsnsRoute],
  hooks: {
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const start = Number(item.values.start ?? item.current?.start);
        const end = Number(item.values.end ?? item.current?.end);
        if (end < start) item.errors.__all__ = [`Starting ASN (${start}) cannot be greater than ending ASN (${end}).`];
      }
    },
  },
});

export const routeTarget = defineModel({
  app: "ipam",
  name: "routetarget",
  verboseName: "route target",
  fields: {
    name: f.string({ maxLength: 21, unique: true, helpText: "Route target value (formatted in accordance with RFC 4360)" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    description,
    comments,
  },
  brief: ["name", "description"],
  filters: { ...vrfTargetFilters("import", "importing_vrf"), ...vrfTargetFilters("export", "exporting_vrf"), ...routeTargetL2vpnFilters() },
});

/** Route targets the VRFs given import or export: by the VRF's id, or by its RD (NetBox's `importing_vrf`...). */
function vrfTargetFilters(direction: "import" | "export", name: string): Record<string, RelatedFilter> {
  const related = (t: string) =>
    sql`SELECT x.vrf_id AS id FROM ${sql.table(`ipam_vrf_${direction}_targets`)} x WHERE x.routetarget_id = ${sql.ref(`${t}.id`)}`;
  return { [`${name}_id`]: { target: "ipam.vrf", byId: true, related }, [name]: { target: "ipam.vrf", related } };
}

const targets = (direction: "import" | "export") =>
  f.m2m(
    "ipam.routetarget",
    { table: `ipam_vrf_${direction}_targets`, source: "vrf_id", target: "routetarget_id" },
    { filterName: `${direction}_target`, nestedDisplayUrl: true },
  );

export const vrf = defineModel({
  app: "ipam",
  name: "vrf",
  verboseName: "VRF",
  className: "VRF",
  fields: {
    name: f.string({ maxLength: 100 }),
    rd: f.string({ maxLength: 21, nullable: true, default: null, unique: true, label: "Route distinguisher" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    enforce_unique: f.boolean({
      default: true,
      label: "Enforce unique space",
      helpText: "Prevent duplicate prefixes/IP addresses within this VRF",
    }),
    description,
    comments,
    import_targets: targets("import"),
    export_targets: targets("export"),
    ipaddress_count: f.count("ipam.ipaddress", "vrf"),
    prefix_count: f.count("ipam.prefix", "vrf"),
  },
  brief: ["name", "rd", "description", "prefix_count"],
  display: (t) =>
    sql`CASE WHEN ${sql.ref(`${t}.rd`)} IS NULL THEN ${sql.ref(`${t}.name`)} ELSE ${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.rd`)} || ')' END`,
  naturalKey: "rd",
  search: ["name", "rd", "description", "comments"],
  ordering: ["name", "rd"],
});

export const role = defineModel({
  app: "ipam",
  name: "role",
  fields: {
    ...organizational(),
    weight: f.integer({ default: 1000, min: 0, max: 32767 }),
    description,
    prefix_count: f.count("ipam.prefix", "role"),
    vlan_count: f.count("ipam.vlan", "role"),
  },
  brief: ["name", "slug", "description", "prefix_count", "vlan_count"],
  ordering: ["weight", "name"],
});

export const prefix = defineModel({
  app: "ipam",
  name: "prefix",
  verboseName: "prefix",
  path: "prefixes",
  fields: {
    family: family(),
    prefix: f.network("prefix", { helpText: "IPv4 or IPv6 network with mask" }),
    // SPEC.md 2.3 shows a prefix's `site`; NetBox 4.2 scopes it instead: both are kept in step.
    site: f.fk("dcim.site", { nullable: true, onDelete: "protect" }),
    vrf: f.fk("ipam.vrf", { nullable: true, onDelete: "protect", label: "VRF" }),
    scope: f.generic(["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"], { nullable: true }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    vlan: f.fk("ipam.vlan", { nullable: true, onDelete: "protect", label: "VLAN" }),
    status: f.choice(PREFIX_STATUS, { default: "active" }),
    role: f.fk("ipam.role", { nullable: true, onDelete: "setNull" }),
    is_pool: f.boolean({ default: false, label: "Is a pool", helpText: "All IP addresses within this prefix are considered usable" }),
    mark_utilized: f.boolean({ default: false, helpText: "Treat as fully utilized" }),
    description,
    comments,
    // Stored and kept current by every prefix write (as NetBox keeps them), so reads cost nothing.
    children: f.integer({ readOnly: true, default: 0 }),
    _depth: f.integer({ readOnly: true, default: 0 }),
  },
  brief: ["family", "prefix", "description", "_depth"],
  display: "prefix",
  search: ["prefix", "description", "comments"],
  // `q` that reads as an address or a network also finds the prefixes holding it, as NetBox's does.
  searchAlso: (q, t) => {
    const n = parseNetwork(q);
    if (!n) return null;
    return sql`(${sql.ref(`${t}.prefix_start`)} <= ${keyOf(n.family, firstOf(n))} AND ${sql.ref(`${t}.prefix_end`)} >= ${keyOf(n.family, lastOf(n))})`;
  },
  ordering: ["vrf", "prefix"],
  nullsFirst: ["vrf"],
  hooks: prefixHooks(() => prefix),
  filters: prefixFilters,
  routes: [availablePrefixesRoute, availableIpsRoute],
});

export const ipRange = defineModel({
  app: "ipam",
  name: "iprange",
  verboseName: "IP range",
  className: "IPRange",
  fields: {
    family: family(),
    start_address: f.network("address"),
    end_address: f.network("address"),
    // Addresses in the range, computed on write (IPv6 ranges can exceed 2^53: read as stored).
    size: f.integer({ readOnly: true, default: 0 }),
    vrf: f.fk("ipam.vrf", { nullable: true, onDelete: "protect", label: "VRF" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    status: f.choice(IP_RANGE_STATUS, { default: "active" }),
    role: f.fk("ipam.role", { nullable: true, onDelete: "setNull" }),
    description,
    comments,
    mark_utilized: f.boolean({ default: false, helpText: "Treat as fully utilized" }),
  },
  brief: ["family", "start_address", "end_address", "description"],
  display: ipRangeNameSql,
  search: ["start_address", "end_address", "description", "comments"],
  ordering: ["vrf", "start_address"],
  nullsFirst: ["vrf"],
  hooks: ipRangeHooks(() => ipRange),
  filters: ipRangeFilters,
  routes: [availableIpsRoute],
});

export const ipAddress = defineModel({
  app: "ipam",
  name: "ipaddress",
  verboseName: "IP address",
  className: "IPAddress",
  path: "ip-addresses",
  fields: {
    family: family(),
    address: f.network("address", { helpText: "IPv4 or IPv6 address (with mask)" }),
    vrf: f.fk("ipam.vrf", { nullable: true, onDelete: "protect", label: "VRF" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    status: f.choice(IP_ADDRESS_STATUS, { default: "active" }),
    role: f.choice(IP_ADDRESS_ROLE, { nullable: true }),
    assigned_object: f.generic(ASSIGNABLE_TO, { nullable: true }),
    nat_inside: f.fk("ipam.ipaddress", { nullable: true, onDelete: "setNull", label: "NAT (inside)", nestedDisplayUrl: true }),
    // NetBox nests them with their pages (its older Nested serializer).
    nat_outside: f.reverseList("ipam.ipaddress", "ipam_ipaddress", "nat_inside_id", { label: "NAT (outside)", nestedDisplayUrl: true }),
    dns_name: f.string({
      maxLength: 255,
      blank: true,
      label: "DNS name",
      pattern: {
        regex: /^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$/,
        message: "Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names",
      },
    }),
    description,
    comments,
  },
  brief: ["family", "address", "description"],
  display: "address",
  search: ["address", "dns_name", "description", "comments"],
  ordering: ["address"],
  hooks: ipAddressHooks(() => ipAddress),
  filters: ipAddressFilters,
});

export const ipamModels = [rir, aggregate, asn, asnRange, routeTarget, vrf, role, prefix, ipRange, ipAddress];

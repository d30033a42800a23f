import type { FilterDeclaration, RowSql } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description, tenantGroupFilters } from "../../schema/common.ts";
import { combineHooks, type StatefulHooks } from "../../schema/hooks.ts";
import { alreadyAttached } from "./attached.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { qb } from "../../db/query-builder.ts";
import { refSql } from "../../engine/references.ts";
import { L2VPN_POINT_TO_POINT, L2VPN_TYPE } from "./choices.ts";
import { L2VPN_TERMINATION_TARGETS } from "./l2vpn-relations.ts";

/** NetBox's `BigIntegerField` (64-bit), as far as a JSON number read by JavaScript stays exact. */
const BIG = Number.MAX_SAFE_INTEGER;

const targets = (direction: "import" | "export") =>
  f.m2m(
    "ipam.routetarget",
    { table: `vpn_l2vpn_${direction}_targets`, source: "l2vpn_id", target: "routetarget_id" },
    { filterName: `${direction}_target` },
  );

/** `str()` of an L2VPN: its name, and its identifier in brackets when it has one. */
const l2vpnDisplay: RowSql = (t) =>
  sql`CASE WHEN coalesce(${sql.ref(`${t}.identifier`)}, 0) <> 0 THEN ${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.identifier`)} || ')' ELSE ${sql.ref(`${t}.name`)} END`;

export const l2vpn = defineModel({
  app: "vpn",
  name: "l2vpn",
  verboseName: "L2VPN",
  className: "L2VPN",
  // NetBox 3.5-3.6's path, which Ansible's collection before 3.17 (Debian's 3.13) still calls.
  aliases: [{ app: "ipam", path: "l2vpns" }],
  fields: {
    identifier: f.integer({ nullable: true, min: -BIG, max: BIG }),
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    type: f.choice(L2VPN_TYPE),
    import_targets: targets("import"),
    export_targets: targets("export"),
    description,
    comments,
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
  },
  brief: ["identifier", "name", "slug", "type", "description"],
  display: l2vpnDisplay,
  search: ["name", "slug", "description", "comments"],
  ordering: ["name", "identifier"],
  filters: tenantGroupFilters(),
});

/** `str()` of the object a termination row under `t` attaches, whatever its type. */
const assignedDisplay: RowSql = (t) => {
  const cases = l2vpnTermination.field.assigned_object.targets!().map(
    (m) =>
      sql`WHEN ${m.objectType} THEN (SELECT ${m.displaySql("o")} FROM ${sql.table(m.table)} o WHERE o.id = ${sql.ref(`${t}.assigned_object_id`)})`,
  );
  return sql`CASE ${sql.ref(`${t}.assigned_object_type`)} ${sql.join(cases, sql` `)} END`;
};

/** "object <> L2VPN", as NetBox prints a termination. */
const terminationDisplay: RowSql = (t) =>
  sql`coalesce(${assignedDisplay(t)}, '') || ' <> ' || (SELECT ${l2vpn.displaySql("l")} FROM vpn_l2vpn l WHERE l.id = ${sql.ref(`${t}.l2vpn_id`)})`;

/** SQL over a termination row: the id of the `column` row its interface or VM's interface lies in. */
const assignedVia = (interfaceSql: RowSql, vmInterfaceSql: RowSql, vlanSql: RowSql | null) => (t: string) =>
  sql`SELECT CASE ${sql.ref(`${t}.assigned_object_type`)}
    WHEN 'dcim.interface' THEN ${interfaceSql(t)}
    WHEN 'virtualization.vminterface' THEN ${vmInterfaceSql(t)}
    ${vlanSql ? sql`WHEN 'ipam.vlan' THEN ${vlanSql(t)}` : sql``} END AS id`;
const object = (t: string) => sql.ref(`${t}.assigned_object_id`);
const deviceOf: RowSql = (t) => sql`(SELECT i.device_id FROM dcim_interface i WHERE i.id = ${object(t)})`;
const vmOf: RowSql = (t) => sql`(SELECT i.virtual_machine_id FROM virtualization_vminterface i WHERE i.id = ${object(t)})`;
const vmSiteOf: RowSql = (t) => sql`(SELECT vm.site_id FROM virtualization_vminterface i
  JOIN virtualization_virtualmachine vm ON vm.id = i.virtual_machine_id WHERE i.id = ${object(t)})`;
const deviceSiteOf: RowSql = (t) =>
  sql`(SELECT d.site_id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id WHERE i.id = ${object(t)})`;
const vlanSiteOf: RowSql = (t) => sql`(SELECT v.site_id FROM ipam_vlan v WHERE v.id = ${object(t)})`;
/** The site of the object, as the filters by site and region read it. */
const siteOf = assignedVia(deviceSiteOf, vmSiteOf, vlanSiteOf);
const regionOf = (t: string) => sql`SELECT s.region_id AS id FROM dcim_site s WHERE s.id IN (${siteOf(t)})`;

/** The object itself when it is of `objectType`. */
const assignedOf = (objectType: string) => (t: string) =>
  sql`SELECT ${object(t)} AS id WHERE ${sql.ref(`${t}.assigned_object_type`)} = ${objectType}`;
const none: RowSql = () => sql`NULL`;

/**
 * `vlan_vid` and its lookups (NetBox's `NumberFilter` on `vlan__vid`): terminations on a VLAN
 * whose VID compares to the value. A value that is not a number matches nothing.
 */
function vlanVidFilters(): Record<string, FilterDeclaration> {
  const compare = (op: string) => (values: readonly string[], t: string) => {
    const vids = values.filter((v) => /^\d{1,9}$/.test(v)).map(Number);
    const vid = sql`(SELECT v.vid FROM ipam_vlan v WHERE v.id = ${object(t)} AND ${sql.ref(`${t}.assigned_object_type`)} = 'ipam.vlan')`;
    if (op === "IN") return sql`${vid} IN (SELECT value FROM json_each(${JSON.stringify(vids)}))`;
    if (op === "NOT IN") return sql`coalesce(${vid} NOT IN (SELECT value FROM json_each(${JSON.stringify(vids)})), 1)`;
    if (op === "empty") return values[0] === "true" ? sql`${vid} IS NULL` : sql`${vid} IS NOT NULL`;
    return vids.length ? sql`${vid} ${sql.raw(op)} ${vids[0]}` : sql`0`;
  };
  const lookups: [string, string][] = [
    ["", "IN"],
    ["__n", "NOT IN"],
    ["__gt", ">"],
    ["__gte", ">="],
    ["__lt", "<"],
    ["__lte", "<="],
    ["__empty", "empty"],
  ];
  return Object.fromEntries(lookups.map(([suffix, op]) => [`vlan_vid${suffix}`, { sql: compare(op) }]));
}

export const l2vpnTermination = defineModel({
  app: "vpn",
  name: "l2vpntermination",
  verboseName: "L2VPN termination",
  className: "L2VPNTermination",
  aliases: [{ app: "ipam", path: "l2vpn-terminations" }],
  fields: {
    l2vpn: f.fk("vpn.l2vpn", { onDelete: "cascade", label: "L2VPN" }),
    // Deleting the object deletes its termination, as NetBox's GenericRelations on them do.
    assigned_object: f.generic(L2VPN_TERMINATION_TARGETS),
  },
  // Django's own words for a constraint without a message of its own.
  uniqueTogether: [
    {
      fields: ["assigned_object"],
      message: "L2VPN termination with this Assigned object type and Assigned object id already exists.",
    },
  ],
  brief: ["l2vpn"],
  display: terminationDisplay,
  search: [],
  ordering: ["l2vpn"],
  filters: {
    region: { target: "dcim.region", tree: true, related: regionOf },
    region_id: { target: "dcim.region", tree: true, byId: true, related: regionOf },
    site: { target: "dcim.site", related: siteOf },
    site_id: { target: "dcim.site", byId: true, related: siteOf },
    device: { target: "dcim.device", related: assignedVia(deviceOf, none, null) },
    device_id: { target: "dcim.device", byId: true, related: assignedVia(deviceOf, none, null) },
    virtual_machine: { target: "virtualization.virtualmachine", related: assignedVia(none, vmOf, null) },
    virtual_machine_id: { target: "virtualization.virtualmachine", byId: true, related: assignedVia(none, vmOf, null) },
    interface: { target: "dcim.interface", related: assignedOf("dcim.interface") },
    interface_id: { target: "dcim.interface", byId: true, related: assignedOf("dcim.interface") },
    vminterface: { target: "virtualization.vminterface", related: assignedOf("virtualization.vminterface") },
    vminterface_id: { target: "virtualization.vminterface", byId: true, related: assignedOf("virtualization.vminterface") },
    vlan: { target: "ipam.vlan", related: assignedOf("ipam.vlan") },
    vlan_id: { target: "ipam.vlan", byId: true, related: assignedOf("ipam.vlan") },
    ...vlanVidFilters(),
  },
  // NetBox's clean() stops at its first complaint: an object already held is told, not the limit.
  hooks: combineHooks(
    pointToPointLimit(),
    alreadyAttached({
      table: "vpn_l2vpntermination",
      field: "assigned_object",
      names: assignedDisplay,
      refuse: ({ errors }, holder) => {
        errors.__all__ = [`L2VPN Termination already assigned (${holder.label})`, ...((errors.__all__ ?? []) as string[])];
      },
    }),
  ),
});

/** Per L2VPN named by the write: its type and how many terminations it holds. */
type Held = Map<number, { type: string; count: number; own: Set<number> }>;

/**
 * A point-to-point L2VPN (VPWS, EPL, EP-LAN, EP-TREE) has at most two terminations (NetBox's
 * clean()). One probe reads the type and terminations of every L2VPN the write names; items of
 * the same write count too, so a bulk create cannot pass three at once.
 */
function pointToPointLimit(): StatefulHooks<Held> {
  return {
    initial: () => new Map(),
    writeProbes: (ctx, items, held) => {
      const named = items
        .map((i) => i.values.l2vpn ?? i.current?.l2vpn_id)
        .filter((v) => v !== undefined && v !== null)
        .map((v) => refSql(ctx, l2vpn, isRef(v) ? v : (v as number)));
      if (!named.length) return [];
      return [
        {
          statement: sql`SELECT l.id, l.type, (SELECT json_group_array(t.id) FROM vpn_l2vpntermination t WHERE t.l2vpn_id = l.id) AS terms
          FROM vpn_l2vpn l WHERE l.id IN (${sql.join(named)})`.compile(qb),
          settle: (r) =>
            r.rows.forEach((row) => {
              const own = new Set<number>(JSON.parse(String(row.terms)));
              held.set(Number(row.id), { type: String(row.type), count: own.size, own });
            }),
        },
      ];
    },
    prepareWrite: (_ctx, items, held) => {
      for (const { id, values, current, errors } of items) {
        if (values.l2vpn === undefined && current) continue;
        const vpn = held.get(Number(values.l2vpn ?? current?.l2vpn_id));
        if (!vpn || !L2VPN_POINT_TO_POINT.includes(vpn.type)) continue;
        if (id !== null && vpn.own.has(id)) continue;
        if (vpn.count >= 2) {
          const label = L2VPN_TYPE.find((c) => c.value === vpn.type)!.label;
          errors.__all__ = [`${label} L2VPNs cannot have more than two terminations; found ${vpn.count} already defined.`];
        } else vpn.count += 1;
      }
    },
  };
}

export const l2vpnModels = [l2vpn, l2vpnTermination];

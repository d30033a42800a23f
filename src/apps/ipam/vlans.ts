import type { FilterDeclaration } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { numberSet } from "../../schema/filter-sql.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { VLAN_QINQ_ROLE, VLAN_STATUS } from "./choices.ts";
import { vidRangesProblem, vlanHooks } from "./vlan-rules.ts";
import { availableVlansRoute } from "./allocation-numbers.ts";
import { vlanFilters } from "./filters.ts";
import { l2vpnFilters, l2vpnTerminationField } from "../vpn/l2vpn-relations.ts";

/** The share of a group's VIDs in use, in percent, as NetBox's `utilization` reads: "12.5". */
const utilization = (t: string) => sql`coalesce(CAST((SELECT count(*) FROM ipam_vlan v WHERE v.group_id = ${sql.ref(`${t}.id`)}) * 100.0 /
  (SELECT sum(json_extract(r.value, '$[1]') - json_extract(r.value, '$[0]') + 1) FROM json_each(${sql.ref(`${t}.vid_ranges`)}) r) AS TEXT), '0.0')`;

/** The scope filters of VLAN groups, by name, and the object type each names. */
const SCOPE_FILTERS = {
  region: "dcim.region",
  site_group: "dcim.sitegroup",
  site: "dcim.site",
  location: "dcim.location",
  rack: "dcim.rack",
  cluster_group: "virtualization.clustergroup",
  cluster: "virtualization.cluster",
};

export const vlanGroup = defineModel({
  app: "ipam",
  name: "vlangroup",
  verboseName: "VLAN group",
  className: "VLANGroup",
  fields: {
    name: f.string({ maxLength: 100 }),
    slug: f.slug(),
    scope: f.generic(
      ["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location", "virtualization.clustergroup", "virtualization.cluster"],
      { nullable: true },
    ),
    vid_ranges: f.json({ default: [[1, 4094]], checkJson: vidRangesProblem, label: "VLAN ID ranges" }),
    description,
    vlan_count: f.count("ipam.vlan", "group"),
    utilization: f.computed(utilization),
  },
  brief: ["name", "slug", "description", "vlan_count"],
  routes: [availableVlansRoute],
  filters: {
    // NetBox's scope filters here take the scope object's id, and match that scope exactly.
    ...Object.fromEntries(
      Object.entries(SCOPE_FILTERS).map(([name, type]): [string, FilterDeclaration] => [
        name,
        {
          integer: true,
          sql: (values, t) => sql`(${sql.ref(`${t}.scope_type`)} = ${type} AND ${sql.ref(`${t}.scope_id`)} IN ${numberSet(values)})`,
        },
      ]),
    ),
    // Groups whose ranges hold the VID.
    contains_vid: {
      integer: true,
      sql: (
        values,
        t,
      ) => sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${t}.vid_ranges`)}) r, json_each(${JSON.stringify(values.map(Number))}) v
        WHERE v.value BETWEEN json_extract(r.value, '$[0]') AND json_extract(r.value, '$[1]'))`,
    },
  },
});

/** NetBox's `str()` of a VLAN, also given as `display_name` (SPEC.md 2.3). */
const vlanDisplay = (t: string) => sql`${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.vid`)} || ')'`;

export const vlan = defineModel({
  app: "ipam",
  name: "vlan",
  verboseName: "VLAN",
  className: "VLAN",
  fields: {
    site: f.fk("dcim.site", { nullable: true, onDelete: "protect" }),
    group: f.fk("ipam.vlangroup", { nullable: true, onDelete: "protect" }),
    vid: f.integer({ required: true, min: 1, max: 4094, label: "VLAN ID" }),
    name: f.string({ maxLength: 64 }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    status: f.choice(VLAN_STATUS, { default: 1 }),
    role: f.fk("ipam.role", { nullable: true, onDelete: "setNull" }),
    description,
    qinq_role: f.choice(VLAN_QINQ_ROLE, { nullable: true, label: "Q-in-Q role" }),
    qinq_svlan: f.fk("ipam.vlan", { nullable: true, onDelete: "setNull", label: "Q-in-Q SVLAN", nestedDisplayUrl: true }),
    comments,
    display_name: f.computed(vlanDisplay, { returns: "string" }),
    prefix_count: f.count("ipam.prefix", "vlan"),
    l2vpn_termination: l2vpnTerminationField("ipam.vlan"),
  },
  uniqueTogether: [
    { fields: ["group", "vid"], nullsDistinct: ["group"], message: "VLAN with this Group and VLAN ID already exists." },
    { fields: ["group", "name"], nullsDistinct: ["group"], message: "VLAN with this Group and Name already exists." },
  ],
  brief: ["vid", "name", "description"],
  display: vlanDisplay,
  search: ["name", "description", "comments"],
  ordering: ["site", "group", "vid"],
  hooks: vlanHooks(() => vlan),
  filters: { ...vlanFilters, ...l2vpnFilters("ipam.vlan"), qinq_svlan_vid: "qinq_svlan__vid" },
});

export const vlanModels = [vlanGroup, vlan];

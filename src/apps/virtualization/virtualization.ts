import type { Choice, FilterDeclaration } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { contactFilters } from "../tenancy/contacts.ts";
import { comments, configTemplateField, description, siteTreeFilters } from "../../schema/common.ts";
import { INTERFACE_MODE } from "../dcim/choices.ts";
import { configContextField, localContextData, VM_CONTEXT_PATHS } from "../extras/config-context-field.ts";
import {
  interfaceIpamCounts,
  interfaceIpamHooks,
  interfaceVlanFields,
  interfaceVlanFilters,
  interfaceVrfField,
  primaryIpFields,
} from "../ipam/dcim-fields.ts";
import { interfaceMacFields, interfaceMacFilters, macAddressesFilter } from "../dcim/interface-macs.ts";
import { hasPrimaryIp, primaryIpHooks, VM_INTERFACES } from "../ipam/primary-ips.ts";
import { combineHooks } from "../../schema/hooks.ts";
import { whether } from "../../schema/filter-sql.ts";
import { clusterScopeHooks, virtualMachineHooks, vmInterfaceHooks } from "./validation.ts";
import { clusterScopeSql, type Scope } from "./cluster-scope.ts";
import { l2vpnFilters, l2vpnTerminationField } from "../vpn/l2vpn-relations.ts";
import { renderConfigRoute } from "../extras/config-templates.ts";

const organizational = () => ({ name: f.string({ maxLength: 100, unique: true }), slug: f.slug({ unique: true }), description });

export const CLUSTER_STATUS = [
  { value: "planned", label: "Planned" },
  { value: "staging", label: "Staging" },
  { value: "active", label: "Active" },
  { value: "decommissioning", label: "Decommissioning" },
  { value: "offline", label: "Offline" },
] as const;

/** Virtual machine status (NetBox VirtualMachineStatusChoices). */
export const VIRTUAL_MACHINE_STATUS: readonly Choice[] = [
  { value: "offline", label: "Offline" },
  { value: "active", label: "Active" },
  { value: "planned", label: "Planned" },
  { value: "staged", label: "Staged" },
  { value: "failed", label: "Failed" },
  { value: "decommissioning", label: "Decommissioning" },
];

/** A cluster filter through its scope: by id, or by slug; nested groups include their descendants. */
function scopeFilter(level: Scope, by: "id" | "slug"): FilterDeclaration {
  const table = { region: "dcim_region", sitegroup: "dcim_sitegroup", site: "dcim_site", location: "dcim_location" }[level];
  const tree = level !== "site";
  return {
    negatable: true,
    sql: (values, t) => {
      const keys = by === "id" ? values.filter((v) => /^\d{1,15}$/.test(v)).map(Number) : values;
      let ids = sql`(SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(by)} IN (SELECT value FROM json_each(${JSON.stringify(keys)})))`;
      if (tree) {
        ids = sql`(WITH RECURSIVE d(id) AS (SELECT id FROM ${ids} x UNION SELECT c.id FROM ${sql.table(table)} c JOIN d ON c.parent_id = d.id) SELECT id FROM d)`;
      }
      return sql`${clusterScopeSql(t, level)} IN ${ids}`;
    },
  };
}

export const clusterType = defineModel({
  app: "virtualization",
  name: "clustertype",
  verboseName: "cluster type",
  fields: { ...organizational(), cluster_count: f.count("virtualization.cluster", "type") },
  brief: ["name", "slug", "description", "cluster_count"],
});

export const clusterGroup = defineModel({
  app: "virtualization",
  name: "clustergroup",
  verboseName: "cluster group",
  fields: { ...organizational(), comments, cluster_count: f.count("virtualization.cluster", "group") },
  brief: ["name", "slug", "description", "cluster_count"],
  filters: { ...contactFilters("virtualization.clustergroup") },
});

/** The sum of one column of a cluster's virtual machines, null when none has it (as Django's Sum). */
const allocated =
  (column: string, { round = false }: { readonly round?: boolean } = {}) =>
  (t: string) => {
    const total = sql`sum(vm.${sql.ref(column)})`;
    return sql`(SELECT ${round ? sql`round(${total}, 2)` : total} FROM virtualization_virtualmachine vm WHERE vm.cluster_id = ${sql.ref(`${t}.id`)})`;
  };

export const cluster = defineModel({
  app: "virtualization",
  name: "cluster",
  fields: {
    name: f.string({ maxLength: 100 }),
    type: f.fk("virtualization.clustertype", { onDelete: "protect" }),
    group: f.fk("virtualization.clustergroup", { nullable: true, onDelete: "protect" }),
    status: f.choice(CLUSTER_STATUS, { default: "active" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    // NetBox 4.2: a cluster is scoped to a region, site group, site or location.
    scope: f.generic(["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"], { nullable: true }),
    description,
    comments,
    device_count: f.count("dcim.device", "cluster"),
    virtualmachine_count: f.count("virtualization.virtualmachine", "cluster"),
    allocated_vcpus: f.computed(allocated("vcpus", { round: true }), { returns: "number" }),
    allocated_memory: f.computed(allocated("memory"), { returns: "integer" }),
    allocated_disk: f.computed(allocated("disk"), { returns: "integer" }),
  },
  uniqueTogether: [{ fields: ["group", "name"], message: "A cluster with this name already exists in this group." }],
  brief: ["name", "description", "virtualmachine_count"],
  search: ["name", "description", "comments"],
  hooks: clusterScopeHooks,
  filters: {
    ...contactFilters("virtualization.cluster"),
    region: scopeFilter("region", "slug"),
    region_id: scopeFilter("region", "id"),
    site_group: scopeFilter("sitegroup", "slug"),
    site_group_id: scopeFilter("sitegroup", "id"),
    site: scopeFilter("site", "slug"),
    site_id: scopeFilter("site", "id"),
    location: scopeFilter("location", "slug"),
    location_id: scopeFilter("location", "id"),
  },
});

export const virtualMachine = defineModel({
  app: "virtualization",
  name: "virtualmachine",
  verboseName: "virtual machine",
  fields: {
    name: f.string({ maxLength: 64 }),
    status: f.choice(VIRTUAL_MACHINE_STATUS, { default: "active" }),
    site: f.fk("dcim.site", { nullable: true, onDelete: "protect" }),
    cluster: f.fk("virtualization.cluster", { nullable: true, onDelete: "protect" }),
    device: f.fk("dcim.device", { nullable: true, onDelete: "protect" }),
    serial: f.string({ maxLength: 50, blank: true, label: "Serial number" }),
    role: f.fk("dcim.devicerole", { nullable: true, onDelete: "protect" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    platform: f.fk("dcim.platform", { nullable: true, onDelete: "setNull" }),
    vcpus: f.decimal({ maxDigits: 6, decimalPlaces: 2, min: 0.01, nullable: true, label: "Virtual CPUs" }),
    memory: f.integer({ min: 0, max: 2_147_483_647, nullable: true, label: "Memory (MB)" }),
    disk: f.integer({ min: 0, max: 2_147_483_647, nullable: true, label: "Disk (MB)" }),
    description,
    comments,
    config_template: configTemplateField(),
    local_context_data: f.json({
      nullable: true,
      checkJson: localContextData,
      helpText: "Local config context data takes precedence over source contexts in the final rendered config context",
    }),
    config_context: configContextField(() => virtualMachine, VM_CONTEXT_PATHS),
    ...primaryIpFields({ oob: false }),
    interface_count: f.counter("virtualization.vminterface", "virtual_machine"),
    virtual_disk_count: f.counter("virtualization.virtualdisk", "virtual_machine"),
  },
  uniqueTogether: [
    // NetBox: Lower('name') with cluster and tenant; a VM without a cluster never collides.
    {
      fields: ["cluster", "tenant", "name"],
      nullsDistinct: ["cluster"],
      caseInsensitive: ["name"],
      message: "Virtual machine name must be unique per cluster.",
    },
  ],
  brief: ["name", "description"],
  search: ["name", "serial", "description", "comments"],
  hooks: combineHooks(
    virtualMachineHooks(() => virtualMachine),
    primaryIpHooks(VM_INTERFACES),
  ),
  routes: [renderConfigRoute("virtualmachine")],
  filters: {
    ...contactFilters("virtualization.virtualmachine"),
    cluster_group: "cluster__group",
    cluster_group_id: "cluster__group__id",
    cluster_type: "cluster__type",
    cluster_type_id: "cluster__type__id",
    ...siteTreeFilters("site"),
    // "Has local config context data".
    local_context_data: whether((t) => sql`${sql.ref(`${t}.local_context_data`)} IS NOT NULL`),
    has_primary_ip: hasPrimaryIp,
    mac_address: macAddressesFilter(
      (t) => sql`SELECT m.mac_address AS value FROM virtualization_vminterface i JOIN dcim_macaddress m
        ON m.assigned_object_type = 'virtualization.vminterface' AND m.assigned_object_id = i.id WHERE i.virtual_machine_id = ${sql.ref(`${t}.id`)}`,
    ),
  },
});

export const vmInterface = defineModel({
  app: "virtualization",
  name: "vminterface",
  verboseName: "interface",
  className: "VMInterface",
  fields: {
    virtual_machine: f.fk("virtualization.virtualmachine", { onDelete: "cascade" }),
    name: f.string({ maxLength: 64 }),
    enabled: f.boolean({ default: true }),
    parent: f.fk("virtualization.vminterface", { nullable: true, onDelete: "setNull", label: "Parent interface", nestedDisplayUrl: true }),
    bridge: f.fk("virtualization.vminterface", { nullable: true, onDelete: "setNull", label: "Bridge interface", nestedDisplayUrl: true }),
    mtu: f.integer({ nullable: true, min: 1, max: 65536 }),
    ...interfaceMacFields(),
    description,
    mode: f.choice(INTERFACE_MODE, { nullable: true, label: "802.1Q Mode", helpText: "IEEE 802.1Q tagging strategy" }),
    ...interfaceVlanFields("virtualization.vminterface"),
    ...interfaceVrfField(),
    l2vpn_termination: l2vpnTerminationField("virtualization.vminterface"),
    ...interfaceIpamCounts("virtualization.vminterface"),
  },
  uniqueTogether: [{ fields: ["virtual_machine", "name"], message: "Interface with this Virtual machine and Name already exists." }],
  brief: ["virtual_machine", "name", "description"],
  search: ["name", "description"],
  ordering: ["virtual_machine", "name"],
  hooks: combineHooks(
    vmInterfaceHooks(() => vmInterface),
    interfaceIpamHooks(() => vmInterface, "virtualization.vminterface"),
  ),
  filters: {
    cluster: "virtual_machine__cluster",
    cluster_id: "virtual_machine__cluster__id",
    ...interfaceMacFilters("virtualization.vminterface"),
    ...interfaceVlanFilters("virtualization.vminterface"),
    ...l2vpnFilters("virtualization.vminterface"),
  },
});

export const virtualDisk = defineModel({
  app: "virtualization",
  name: "virtualdisk",
  verboseName: "virtual disk",
  fields: {
    virtual_machine: f.fk("virtualization.virtualmachine", { onDelete: "cascade" }),
    name: f.string({ maxLength: 64 }),
    description,
    size: f.integer({ required: true, min: 0, max: 2_147_483_647, label: "Size (MB)" }),
  },
  uniqueTogether: [{ fields: ["virtual_machine", "name"], message: "Virtual disk with this Virtual machine and Name already exists." }],
  brief: ["virtual_machine", "name", "size", "description"],
  ordering: ["virtual_machine", "name"],
});

export const virtualizationModels = [clusterType, clusterGroup, cluster, virtualMachine, vmInterface, virtualDisk];

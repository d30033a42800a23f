import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { contactFilters } from "./contacts.ts";
import { comments, description, nestedGroupFields } from "../../schema/common.ts";

export const tenantGroup = defineModel({
  app: "tenancy",
  name: "tenantgroup",
  verboseName: "tenant group",
  tree: true,
  fields: nestedGroupFields(
    "tenancy.tenantgroup",
    { tenant_count: f.count("tenancy.tenant", "group", { cumulative: true }) },
    { unique: true },
  ),
  brief: ["name", "slug", "description", "tenant_count", "_depth"],
});

export const tenant = defineModel({
  app: "tenancy",
  name: "tenant",
  fields: {
    name: f.string({ maxLength: 100 }),
    slug: f.slug(),
    group: f.fk("tenancy.tenantgroup", { nullable: true, onDelete: "protect" }),
    description,
    comments,
    circuit_count: f.count("circuits.circuit", "tenant"),
    device_count: f.count("dcim.device", "tenant"),
    ipaddress_count: f.count("ipam.ipaddress", "tenant"),
    prefix_count: f.count("ipam.prefix", "tenant"),
    rack_count: f.count("dcim.rack", "tenant"),
    site_count: f.count("dcim.site", "tenant"),
    virtualmachine_count: f.count("virtualization.virtualmachine", "tenant"),
    vlan_count: f.count("ipam.vlan", "tenant"),
    vrf_count: f.count("ipam.vrf", "tenant"),
    cluster_count: f.count("virtualization.cluster", "tenant"),
  },
  uniqueTogether: [
    { fields: ["group", "name"], message: "Tenant name must be unique per group." },
    { fields: ["group", "slug"], message: "Tenant slug must be unique per group." },
  ],
  brief: ["name", "slug", "description"],
  search: ["name", "slug", "description", "comments"],
  filters: { ...contactFilters("tenancy.tenant") },
});

export const tenancyModels = [tenantGroup, tenant];

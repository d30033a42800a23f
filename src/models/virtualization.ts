import { f } from "./fields.ts";
import { defineModel } from "./model.ts";
import { comments, description } from "./common.ts";
import { tenant } from "./tenancy.ts";
import { location, region, site, siteGroup } from "./dcim.ts";
import { device } from "./dcim-devices.ts";

const organizational = () => ({ name: f.string({ maxLength: 100, unique: true }), slug: f.slug({ unique: true }), description });

export const CLUSTER_STATUS = [
  { value: "planned", label: "Planned" },
  { value: "staging", label: "Staging" },
  { value: "active", label: "Active" },
  { value: "decommissioning", label: "Decommissioning" },
  { value: "offline", label: "Offline" },
] as const;

export const clusterType = defineModel({
  app: "virtualization", name: "clustertype", verboseName: "cluster type",
  fields: { ...organizational(), cluster_count: f.count(() => cluster, "type") },
  brief: ["name", "slug", "description", "cluster_count"],
});

export const clusterGroup = defineModel({
  app: "virtualization", name: "clustergroup", verboseName: "cluster group",
  fields: { ...organizational(), comments, cluster_count: f.count(() => cluster, "group") },
  brief: ["name", "slug", "description", "cluster_count"],
});

export const cluster = defineModel({
  app: "virtualization", name: "cluster",
  fields: {
    name: f.string({ maxLength: 100 }),
    type: f.fk(() => clusterType, { onDelete: "protect" }),
    group: f.fk(() => clusterGroup, { nullable: true, onDelete: "protect" }),
    status: f.choice(CLUSTER_STATUS, { default: "active" }),
    tenant: f.fk(() => tenant, { nullable: true, onDelete: "protect" }),
    // NetBox 4.2: a cluster is scoped to a region, site group, site or location.
    scope: f.generic(() => [region, siteGroup, site, location], { nullable: true }),
    description,
    comments,
    device_count: f.count(() => device, "cluster"),
  },
  uniqueTogether: [
    { fields: ["group", "name"], message: "A cluster with this name already exists in this group." },
  ],
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
});

export const virtualizationModels = [clusterType, clusterGroup, cluster];

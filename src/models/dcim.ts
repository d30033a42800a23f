import { f, type Choice } from "./fields.ts";
import { defineModel } from "./model.ts";
import { comments, description, nestedGroupFields, siblingUnique } from "./common.ts";
import { tenant } from "./tenancy.ts";

/**
 * Site status. SPEC.md shows a site's status as `{value, label, id}`: `id` is the numeric value
 * older clients stored (active 1, planned 2, retired 4); the two later states continue the series.
 */
export const SITE_STATUS: readonly Choice[] = [
  { value: "planned", label: "Planned", id: 2 },
  { value: "staging", label: "Staging", id: 3 },
  { value: "active", label: "Active", id: 1 },
  { value: "decommissioning", label: "Decommissioning", id: 5 },
  { value: "retired", label: "Retired", id: 4 },
];

/** An IANA time zone name, as every runtime's Intl knows them. */
function timeZoneProblem(name: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return undefined;
  } catch {
    return `"${name}" is not a valid time zone.`;
  }
}

export const region = defineModel({
  app: "dcim", name: "region", className: "Region", verboseName: "region",
  path: "regions", table: "dcim_region", tree: true,
  fields: nestedGroupFields(() => region, { site_count: f.count(() => site, "region", { cumulative: true }) }),
  uniqueTogether: siblingUnique("region"),
  brief: ["name", "slug", "description", "site_count", "_depth"],
  display: (o) => o.name,
});

export const siteGroup = defineModel({
  app: "dcim", name: "sitegroup", className: "SiteGroup", verboseName: "site group",
  path: "site-groups", table: "dcim_sitegroup", tree: true,
  fields: nestedGroupFields(() => siteGroup, { site_count: f.count(() => site, "group", { cumulative: true }) }),
  uniqueTogether: siblingUnique("site group"),
  brief: ["name", "slug", "description", "site_count", "_depth"],
  display: (o) => o.name,
});

export const site = defineModel({
  app: "dcim", name: "site", className: "Site", verboseName: "site",
  path: "sites", table: "dcim_site",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    status: f.choice(SITE_STATUS, { default: "active" }),
    region: f.fk(() => region, { nullable: true, onDelete: "protect" }),
    group: f.fk(() => siteGroup, { nullable: true, onDelete: "protect" }),
    tenant: f.fk(() => tenant, { nullable: true, onDelete: "protect" }),
    facility: f.string({ maxLength: 50, blank: true }),
    time_zone: f.string({ maxLength: 63, nullable: true, blank: true, default: null, check: timeZoneProblem }),
    description,
    physical_address: f.string({ maxLength: 200, blank: true }),
    shipping_address: f.string({ maxLength: 200, blank: true }),
    latitude: f.float({ nullable: true, min: -90, max: 90 }),
    longitude: f.float({ nullable: true, min: -180, max: 180 }),
    comments,
  },
  brief: ["name", "slug", "description"],
  display: (o) => o.name,
  search: ["name", "slug", "facility", "description", "physical_address", "shipping_address", "comments"],
});

export const dcimModels = [region, siteGroup, site];

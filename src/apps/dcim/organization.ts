import type { Choice } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { contactFilters } from "../tenancy/contacts.ts";
import {
  comments,
  configTemplateField,
  description,
  nestedGroupFields,
  parentOf,
  siblingUnique,
  siteTreeFilters,
} from "../../schema/common.ts";
import { device } from "./devices.ts";
import { deviceTypeHeightHooks, locationHooks } from "./placement.ts";
import { placePrefixCount, siteIpamCounts } from "../ipam/dcim-fields.ts";
import { DEVICE_TYPE_AIRFLOW, LOCATION_STATUS, SUBDEVICE_ROLE, WEIGHT_UNIT } from "./choices.ts";
import { hasComponentFilters } from "./components.ts";
import { numberSet, whether } from "../../schema/filter-sql.ts";
import { combineHooks } from "../../schema/hooks.ts";
import { imageField, imageFields, imageHooks } from "../extras/image-attachments.ts";

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
  app: "dcim",
  name: "region",
  tree: true,
  fields: nestedGroupFields("dcim.region", {
    site_count: f.count("dcim.site", "region", { cumulative: true }),
    ...placePrefixCount("region"),
  }),
  uniqueTogether: siblingUnique("region"),
  brief: ["name", "slug", "description", "site_count", "_depth"],
  filters: { ...contactFilters("dcim.region") },
});

export const siteGroup = defineModel({
  app: "dcim",
  name: "sitegroup",
  verboseName: "site group",
  tree: true,
  fields: nestedGroupFields("dcim.sitegroup", {
    site_count: f.count("dcim.site", "group", { cumulative: true }),
    ...placePrefixCount("sitegroup"),
  }),
  uniqueTogether: siblingUnique("site group"),
  brief: ["name", "slug", "description", "site_count", "_depth"],
  filters: { ...contactFilters("dcim.sitegroup") },
});

export const site = defineModel({
  app: "dcim",
  name: "site",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    status: f.choice(SITE_STATUS, { default: "active" }),
    region: f.fk("dcim.region", { nullable: true, onDelete: "protect" }),
    group: f.fk("dcim.sitegroup", { nullable: true, onDelete: "protect" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    facility: f.string({ maxLength: 50, blank: true }),
    time_zone: f.string({ maxLength: 63, nullable: true, blank: true, default: null, check: timeZoneProblem }),
    description,
    physical_address: f.string({ maxLength: 200, blank: true }),
    shipping_address: f.string({ maxLength: 200, blank: true }),
    latitude: f.float({ nullable: true, min: -90, max: 90 }),
    longitude: f.float({ nullable: true, min: -180, max: 180 }),
    comments,
    asns: f.m2m("ipam.asn", { table: "dcim_site_asns", source: "site_id", target: "asn_id" }, { filterName: "asn", label: "ASNs" }),
    virtualmachine_count: f.counter("virtualization.virtualmachine", "site", { annotated: true }),
    rack_count: f.counter("dcim.rack", "site", { annotated: true }),
    device_count: f.counter("dcim.device", "site", { annotated: true }),
    circuit_count: f.countSql(
      (t) =>
        sql`(SELECT count(DISTINCT ct.circuit_id) FROM circuits_circuittermination ct WHERE (ct.termination_type = 'dcim.site' AND ct.termination_id = ${sql.ref(`${t}.id`)}) OR (ct.termination_type = 'dcim.location' AND ct.termination_id IN (SELECT l.id FROM dcim_location l WHERE l.site_id = ${sql.ref(`${t}.id`)})))`,
    ),
    ...siteIpamCounts(),
  },
  brief: ["name", "slug", "description"],
  search: ["name", "slug", "facility", "description", "physical_address", "shipping_address", "comments"],
  filters: { ...contactFilters("dcim.site") },
});

/**
 * A location: a nested group of racks and devices inside one site (a building, a floor, a room).
 * Its parent must belong to the same site.
 */
export const location = defineModel({
  app: "dcim",
  name: "location",
  tree: true,
  fields: {
    name: f.string({ maxLength: 100 }),
    slug: f.slug(),
    site: f.fk("dcim.site", { onDelete: "cascade" }),
    parent: parentOf("dcim.location"),
    status: f.choice(LOCATION_STATUS, { default: "active" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    facility: f.string({ maxLength: 50, blank: true, helpText: "Local facility ID or description" }),
    description,
    comments,
    rack_count: f.count("dcim.rack", "location", { cumulative: true }),
    device_count: f.count("dcim.device", "location", { cumulative: true }),
    ...placePrefixCount("location"),
  },
  uniqueTogether: [
    { fields: ["site", "parent", "name"], message: "A location with this name already exists within the specified site and parent." },
    { fields: ["site", "parent", "slug"], message: "A location with this slug already exists within the specified site and parent." },
  ],
  brief: ["name", "slug", "description", "rack_count", "_depth"],
  search: ["name", "slug", "facility", "description", "comments"],
  filters: {
    ...contactFilters("dcim.location"),
    ...siteTreeFilters("site"),
  },
  hooks: locationHooks(() => location),
});

const color = f.string({
  maxLength: 6,
  default: "9e9e9e",
  pattern: { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." },
});
const organizational = () => ({ name: f.string({ maxLength: 100, unique: true }), slug: f.slug({ unique: true }) });

export const manufacturer = defineModel({
  app: "dcim",
  name: "manufacturer",
  fields: {
    ...organizational(),
    description,
    devicetype_count: f.count("dcim.devicetype", "manufacturer"),
    inventoryitem_count: f.count("dcim.inventoryitem", "manufacturer"),
    platform_count: f.count("dcim.platform", "manufacturer"),
  },
  brief: ["name", "slug", "description", "devicetype_count"],
  filters: { ...contactFilters("dcim.manufacturer") },
});

export const deviceType = defineModel({
  app: "dcim",
  name: "devicetype",
  verboseName: "device type",
  fields: {
    manufacturer: f.fk("dcim.manufacturer", { onDelete: "protect" }),
    default_platform: f.fk("dcim.platform", { nullable: true, onDelete: "setNull" }),
    model: f.string({ maxLength: 100 }),
    slug: f.slug(),
    part_number: f.string({ maxLength: 50, blank: true }),
    u_height: f.float({ default: 1, min: 0, max: 1000 }),
    exclude_from_utilization: f.boolean({ default: false }),
    is_full_depth: f.boolean({ default: true }),
    subdevice_role: f.choice(SUBDEVICE_ROLE, { nullable: true }),
    airflow: f.choice(DEVICE_TYPE_AIRFLOW, { nullable: true }),
    weight: f.float({ nullable: true, min: 0, max: 1_000_000 }),
    weight_unit: f.choice(WEIGHT_UNIT, { nullable: true }),
    description,
    comments,
    device_count: f.count("dcim.device", "device_type"),
    console_port_template_count: f.count("dcim.consoleporttemplate", "device_type"),
    console_server_port_template_count: f.count("dcim.consoleserverporttemplate", "device_type"),
    power_port_template_count: f.count("dcim.powerporttemplate", "device_type"),
    power_outlet_template_count: f.count("dcim.poweroutlettemplate", "device_type"),
    interface_template_count: f.count("dcim.interfacetemplate", "device_type"),
    front_port_template_count: f.count("dcim.frontporttemplate", "device_type"),
    rear_port_template_count: f.count("dcim.rearporttemplate", "device_type"),
    device_bay_template_count: f.count("dcim.devicebaytemplate", "device_type"),
    module_bay_template_count: f.count("dcim.modulebaytemplate", "device_type"),
    inventory_item_template_count: f.count("dcim.inventoryitemtemplate", "device_type"),
    ...imageFields({ front_image: imageField({ nullable: true }), rear_image: imageField({ nullable: true }) }),
  },
  // The stored names of the image files (`src/apps/extras/image-attachments.ts`), "" when none.
  storage: { front_image: "TEXT NOT NULL DEFAULT ''", rear_image: "TEXT NOT NULL DEFAULT ''" },
  uniqueTogether: [
    { fields: ["manufacturer", "model"], message: "Device type model must be unique per manufacturer." },
    { fields: ["manufacturer", "slug"], message: "Device type slug must be unique per manufacturer." },
  ],
  brief: ["manufacturer", "model", "slug", "description", "device_count"],
  display: "model",
  search: ["model", "slug", "part_number", "description", "comments"],
  ordering: ["model"],
  hooks: combineHooks(
    deviceTypeHeightHooks(() => device),
    imageHooks({
      front_image: { folder: "devicetype-images", prefix: (item) => `${item.values.slug ?? item.current?.slug ?? "type"}-front` },
      rear_image: { folder: "devicetype-images", prefix: (item) => `${item.values.slug ?? item.current?.slug ?? "type"}-rear` },
    }),
  ),
  filters: {
    ...hasComponentFilters("device_type_id", "template"),
    has_front_image: whether((t) => sql`${sql.ref(`${t}.front_image`)} <> ''`),
    has_rear_image: whether((t) => sql`${sql.ref(`${t}.rear_image`)} <> ''`),
  },
});

export const deviceRole = defineModel({
  app: "dcim",
  name: "devicerole",
  verboseName: "device role",
  fields: {
    ...organizational(),
    color,
    vm_role: f.boolean({ default: true }),
    config_template: configTemplateField(),
    description,
    device_count: f.count("dcim.device", "role"),
    virtualmachine_count: f.count("virtualization.virtualmachine", "role"),
  },
  brief: ["name", "slug", "description", "device_count", "virtualmachine_count"],
});

export const platform = defineModel({
  app: "dcim",
  name: "platform",
  fields: {
    ...organizational(),
    manufacturer: f.fk("dcim.manufacturer", { nullable: true, onDelete: "protect" }),
    config_template: configTemplateField(),
    description,
    device_count: f.count("dcim.device", "platform"),
    virtualmachine_count: f.count("virtualization.virtualmachine", "platform"),
  },
  brief: ["name", "slug", "description", "device_count", "virtualmachine_count"],
  filters: {
    // Platforms a device of the type may run: those of its manufacturer, and those of none.
    available_for_device_type: {
      integer: true,
      sql: (values, t) => sql`(${sql.ref(`${t}.manufacturer_id`)} IS NULL OR ${sql.ref(`${t}.manufacturer_id`)} IN
        (SELECT manufacturer_id FROM dcim_devicetype WHERE id IN ${numberSet(values)}))`,
    },
  },
});

export const dcimModels = [region, siteGroup, site, location, manufacturer, deviceType, deviceRole, platform];

import type { FieldOptions } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { contactFilters } from "../tenancy/contacts.ts";
import { comments, description, siteTreeFilters } from "../../schema/common.ts";
import { device } from "./devices.ts";
import { cabled, pathEndpoint } from "./cabling.ts";
import { WEIGHT_UNIT } from "./choices.ts";
import {
  POWERFEED_PHASE,
  POWERFEED_STATUS,
  POWERFEED_SUPPLY,
  POWERFEED_TYPE,
  RACK_AIRFLOW,
  RACK_DIMENSION_UNIT,
  RACK_FORM_FACTOR,
  RACK_STATUS,
  RACK_WIDTH,
} from "./rack-choices.ts";
import { powerFeedHooks, powerPanelHooks, rackHooks, rackTypeHooks, virtualChassisHooks } from "./placement.ts";
import { rackElevationRoute } from "./rack-elevation.ts";
import { traceRoute } from "./trace.ts";

const HEX_COLOR = { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." };

/** The physical attributes racks and rack types share; a rack with a type takes its type's. */
const rackPhysical = (formFactor: FieldOptions): Record<string, FieldOptions> => ({
  form_factor: formFactor,
  width: f.choice(RACK_WIDTH, { default: 19, label: "Width", helpText: "Rail-to-rail width" }),
  u_height: f.integer({ default: 42, min: 1, max: 100, label: "Height (U)", helpText: "Height in rack units" }),
  starting_unit: f.integer({ default: 1, min: 1, max: 32767, helpText: "Starting unit for rack" }),
  desc_units: f.boolean({ default: false, label: "Descending units", helpText: "Units are numbered top-to-bottom" }),
  outer_width: f.integer({ nullable: true, min: 0, max: 32767, helpText: "Outer dimension of rack (width)" }),
  outer_depth: f.integer({ nullable: true, min: 0, max: 32767, helpText: "Outer dimension of rack (depth)" }),
  outer_unit: f.choice(RACK_DIMENSION_UNIT, { nullable: true }),
  mounting_depth: f.integer({
    nullable: true,
    min: 0,
    max: 32767,
    helpText:
      "Maximum depth of a mounted device, in millimeters. For four-post racks, this is the distance between the front and rear rails.",
  }),
  weight: f.float({ nullable: true, min: 0, max: 1_000_000 }),
  max_weight: f.integer({ nullable: true, min: 0, max: 2_147_483_647, helpText: "Maximum load capacity for the rack" }),
  weight_unit: f.choice(WEIGHT_UNIT, { nullable: true }),
});

export const rackRole = defineModel({
  app: "dcim",
  name: "rackrole",
  verboseName: "rack role",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    color: f.string({ maxLength: 6, default: "9e9e9e", pattern: HEX_COLOR }),
    description,
    rack_count: f.count("dcim.rack", "role"),
  },
  brief: ["name", "slug", "description", "rack_count"],
});

export const rackType = defineModel({
  app: "dcim",
  name: "racktype",
  verboseName: "rack type",
  fields: {
    manufacturer: f.fk("dcim.manufacturer", { onDelete: "protect" }),
    model: f.string({ maxLength: 100 }),
    slug: f.slug(),
    description,
    ...rackPhysical(f.choice(RACK_FORM_FACTOR)),
    comments,
  },
  uniqueTogether: [
    { fields: ["manufacturer", "model"], message: "Rack type with this Manufacturer and Model already exists." },
    { fields: ["manufacturer", "slug"], message: "Rack type with this Manufacturer and Slug already exists." },
  ],
  brief: ["manufacturer", "model", "slug", "description"],
  display: "model",
  search: ["model", "slug", "description", "comments"],
  ordering: ["manufacturer", "model"],
  hooks: rackTypeHooks,
});

/** A rack's `str()`: its name, with its facility id when it has one. */
export const rackDisplay = (t: string) => sql`CASE WHEN ${sql.ref(`${t}.facility_id`)} IS NOT NULL AND ${sql.ref(`${t}.facility_id`)} <> ''
  THEN ${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.facility_id`)} || ')' ELSE ${sql.ref(`${t}.name`)} END`;

export const rack = defineModel({
  app: "dcim",
  name: "rack",
  fields: {
    name: f.string({ maxLength: 100 }),
    facility_id: f.string({ maxLength: 50, nullable: true, default: null, label: "Facility ID", helpText: "Locally-assigned identifier" }),
    site: f.fk("dcim.site", { onDelete: "protect" }),
    location: f.fk("dcim.location", { nullable: true, onDelete: "setNull" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    status: f.choice(RACK_STATUS, { default: "active" }),
    role: f.fk("dcim.rackrole", { nullable: true, onDelete: "protect", helpText: "Functional role" }),
    serial: f.string({ maxLength: 50, blank: true, label: "Serial number" }),
    asset_tag: f.string({
      maxLength: 50,
      nullable: true,
      default: null,
      unique: true,
      helpText: "A unique tag used to identify this rack",
    }),
    rack_type: f.fk("dcim.racktype", { nullable: true, onDelete: "protect" }),
    ...rackPhysical(f.choice(RACK_FORM_FACTOR, { nullable: true })),
    airflow: f.choice(RACK_AIRFLOW, { nullable: true }),
    description,
    comments,
    device_count: f.count("dcim.device", "rack"),
    powerfeed_count: f.count("dcim.powerfeed", "rack"),
  },
  // NetBox's constraints: NULL locations never collide (PostgreSQL), nor do NULL facility ids.
  uniqueTogether: [
    { fields: ["location", "name"], nullsDistinct: ["location"], message: "Rack with this Location and Name already exists." },
    {
      fields: ["location", "facility_id"],
      nullsDistinct: ["location", "facility_id"],
      message: "Rack with this Location and Facility ID already exists.",
    },
  ],
  brief: ["name", "description", "device_count"],
  display: rackDisplay,
  search: ["name", "facility_id", "serial", "asset_tag", "description", "comments"],
  ordering: ["site", "location", "name"],
  filters: {
    ...contactFilters("dcim.rack"),
    ...siteTreeFilters("site"),
    manufacturer: "rack_type__manufacturer",
    manufacturer_id: "rack_type__manufacturer__id",
  },
  hooks: rackHooks(() => rack),
  routes: [rackElevationRoute(() => device)],
});

export const virtualChassis = defineModel({
  app: "dcim",
  name: "virtualchassis",
  verboseName: "virtual chassis",
  className: "VirtualChassis",
  path: "virtual-chassis",
  fields: {
    name: f.string({ maxLength: 64 }),
    domain: f.string({ maxLength: 30, blank: true }),
    master: f.fk("dcim.device", { nullable: true, unique: true, onDelete: "setNull", nestedDisplayUrl: true }),
    description,
    comments,
    member_count: { ...f.counter("dcim.device", "virtual_chassis"), notNested: false },
    members: f.reverseList("dcim.device", "dcim_device", "virtual_chassis_id", { nestedDisplayUrl: true }),
  },
  brief: ["name", "master", "description", "member_count"],
  search: ["name", "domain", "description", "comments"],
  filters: {
    site: "master__site",
    site_id: "master__site__id",
    ...siteTreeFilters("master__site"),
    tenant: "master__tenant",
    tenant_id: "master__tenant__id",
  },
  hooks: virtualChassisHooks(() => virtualChassis),
});

export const powerPanel = defineModel({
  app: "dcim",
  name: "powerpanel",
  verboseName: "power panel",
  fields: {
    site: f.fk("dcim.site", { onDelete: "protect" }),
    location: f.fk("dcim.location", { nullable: true, onDelete: "protect" }),
    name: f.string({ maxLength: 100 }),
    description,
    comments,
    powerfeed_count: f.count("dcim.powerfeed", "power_panel"),
  },
  uniqueTogether: [{ fields: ["site", "name"], message: "Power panel with this Site and Name already exists." }],
  brief: ["name", "description", "powerfeed_count"],
  search: ["name", "description", "comments"],
  ordering: ["site", "name"],
  filters: { ...siteTreeFilters("site"), ...contactFilters("dcim.powerpanel") },
  hooks: powerPanelHooks(() => powerPanel),
});

/** A feed's available power in VA, as NetBox stores it: |V| x A x utilisation, times √3 for three phases. */
const availablePower = (
  t: string,
) => sql`CAST(round(abs(${sql.ref(`${t}.voltage`)}) * ${sql.ref(`${t}.amperage`)} * ${sql.ref(`${t}.max_utilization`)} / 100.0
  * CASE ${sql.ref(`${t}.phase`)} WHEN 'three-phase' THEN 1.732 ELSE 1 END) AS INTEGER)`;

export const powerFeed = defineModel({
  app: "dcim",
  name: "powerfeed",
  verboseName: "power feed",
  fields: {
    power_panel: f.fk("dcim.powerpanel", { onDelete: "protect" }),
    rack: f.fk("dcim.rack", { nullable: true, onDelete: "protect" }),
    name: f.string({ maxLength: 100 }),
    status: f.choice(POWERFEED_STATUS, { default: "active" }),
    type: f.choice(POWERFEED_TYPE, { default: "primary" }),
    supply: f.choice(POWERFEED_SUPPLY, { default: "ac" }),
    phase: f.choice(POWERFEED_PHASE, { default: "single-phase" }),
    voltage: f.integer({ default: 120, min: -32768, max: 32767 }),
    amperage: f.integer({ default: 20, min: 1, max: 32767 }),
    max_utilization: f.integer({ default: 80, min: 1, max: 100, helpText: "Maximum permissible draw (percentage)" }),
    ...cabled(),
    ...pathEndpoint(),
    description,
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    comments,
  },
  uniqueTogether: [{ fields: ["power_panel", "name"], message: "Power feed with this Power panel and Name already exists." }],
  brief: ["name", "description", "cable", "_occupied"],
  search: ["name", "description", "comments"],
  ordering: ["power_panel", "name"],
  routes: [traceRoute],
  filters: {
    site: "power_panel__site",
    site_id: "power_panel__site__id",
    ...siteTreeFilters("power_panel__site"),
    available_power: { valuesOf: (t) => sql`SELECT ${availablePower(t)} AS value`, lookups: "number" },
  },
  hooks: powerFeedHooks(() => powerFeed),
});

export const rackModels = [rackRole, rackType, rack, virtualChassis, powerPanel, powerFeed];

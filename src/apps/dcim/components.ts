import type { FieldOptions, FilterDeclaration, UniqueTogether } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description, siteTreeFilters } from "../../schema/common.ts";
import { numberSet, whether } from "../../schema/filter-sql.ts";
import { HEX_COLOR, optionalColor } from "./colors.ts";
import { cabled, pathEndpoint } from "./cabling.ts";
import { pathsRoute, traceRoute } from "./trace.ts";
import { PORT_TYPE } from "./choices.ts";
import {
  CONSOLE_PORT_SPEED,
  CONSOLE_PORT_TYPE,
  INVENTORY_ITEM_STATUS,
  POWER_FEED_LEG,
  POWER_OUTLET_TYPE,
  POWER_PORT_TYPE,
} from "./component-choices.ts";
import { componentChecks, deviceBayChecks, frontPortChecks, inventoryItemChecks, powerOutletChecks } from "./component-checks.ts";

export { optionalColor } from "./colors.ts";

/**
 * What every device component shares: its device (deleted with it), the module it came with (not
 * for device bays, which modules cannot carry), name and physical label.
 */
export const componentFields = ({ modular = true }: { readonly modular?: boolean } = {}): Record<string, FieldOptions> => ({
  device: f.fk("dcim.device", { onDelete: "cascade" }),
  // The module it came with, if any: deleted with it, as NetBox deletes a module's components.
  ...(modular ? { module: f.fk("dcim.module", { nullable: true, onDelete: "cascade" }) } : {}),
  name: f.string({ maxLength: 64 }),
  label: f.string({ maxLength: 64, blank: true, helpText: "Physical label" }),
});

export const componentUnique = (verbose: string): UniqueTogether[] => [
  { fields: ["device", "name"], message: `${verbose} with this Device and Name already exists.` },
];

/** The filters every device component has beyond its fields': its device's site, rack, virtual chassis, type, role and status. */
export const componentFilters: Readonly<Record<string, FilterDeclaration>> = {
  device_type: "device__device_type",
  device_type_id: "device__device_type__id",
  device_role: "device__role",
  device_role_id: "device__role__id",
  role: "device__role",
  role_id: "device__role__id",
  device_status: "device__status",
  site: "device__site",
  site_id: "device__site__id",
  ...siteTreeFilters("device__site"),
  location: { path: "device__location", tree: true },
  location_id: { path: "device__location__id", tree: true },
  rack: "device__rack",
  rack_id: "device__rack__id",
  virtual_chassis: "device__virtual_chassis",
  virtual_chassis_id: "device__virtual_chassis__id",
};

/**
 * NetBox's "has components" filters (`interfaces=true`, `console_ports=false`, ...) of a device
 * (its components, by `device_id`) or a device type (its templates: `device_type_id` and the
 * tables' `template` suffix); pass-through ports are front or rear ports.
 */
export function hasComponentFilters(owner: "device_id" | "device_type_id", suffix: "" | "template"): Record<string, FilterDeclaration> {
  const has = (...kinds: string[]) =>
    whether((t) =>
      sql.join(
        kinds.map(
          (kind) => sql`EXISTS (SELECT 1 FROM ${sql.table(`dcim_${kind}${suffix}`)} c WHERE c.${sql.ref(owner)} = ${sql.ref(`${t}.id`)})`,
        ),
        sql` OR `,
      ),
    );
  return {
    console_ports: has("consoleport"),
    console_server_ports: has("consoleserverport"),
    power_ports: has("powerport"),
    power_outlets: has("poweroutlet"),
    interfaces: has("interface"),
    pass_through_ports: has("frontport", "rearport"),
    device_bays: has("devicebay"),
    module_bays: has("modulebay"),
    ...(suffix ? { inventory_items: has("inventoryitem") } : {}),
  };
}

/** A component's declaration parts shared by every kind: search, ordering, filters. */
const component = { search: ["name", "label", "description"], ordering: ["device", "name"], filters: componentFilters } as const;
const cabledBrief = ["device", "name", "description", "cable", "_occupied"];

/** Console ports and console server ports: the two ends of a console connection, alike but for their role. */
const consoleFields = (): Record<string, FieldOptions> => ({
  ...componentFields(),
  type: f.choice(CONSOLE_PORT_TYPE, { nullable: true }),
  speed: f.choice(CONSOLE_PORT_SPEED, { nullable: true }),
  description,
  ...cabled(),
  ...pathEndpoint(),
});

export const consolePort = defineModel({
  app: "dcim",
  name: "consoleport",
  verboseName: "console port",
  fields: consoleFields(),
  uniqueTogether: componentUnique("Console port"),
  brief: cabledBrief,
  ...component,
  hooks: componentChecks(() => consolePort),
  routes: [traceRoute],
});

export const consoleServerPort = defineModel({
  app: "dcim",
  name: "consoleserverport",
  verboseName: "console server port",
  fields: consoleFields(),
  uniqueTogether: componentUnique("Console server port"),
  brief: cabledBrief,
  ...component,
  hooks: componentChecks(() => consoleServerPort),
  routes: [traceRoute],
});

export const powerPort = defineModel({
  app: "dcim",
  name: "powerport",
  verboseName: "power port",
  fields: {
    ...componentFields(),
    type: f.choice(POWER_PORT_TYPE, { nullable: true }),
    maximum_draw: f.integer({ nullable: true, min: 1, max: 2_147_483_647, helpText: "Maximum power draw (watts)" }),
    allocated_draw: f.integer({ nullable: true, min: 1, max: 2_147_483_647, helpText: "Allocated power draw (watts)" }),
    description,
    ...cabled(),
    ...pathEndpoint(),
  },
  uniqueTogether: componentUnique("Power port"),
  brief: cabledBrief,
  ...component,
  hooks: componentChecks(() => powerPort),
  routes: [traceRoute],
});

export const powerOutlet = defineModel({
  app: "dcim",
  name: "poweroutlet",
  verboseName: "power outlet",
  fields: {
    ...componentFields(),
    type: f.choice(POWER_OUTLET_TYPE, { nullable: true }),
    color: optionalColor(),
    power_port: f.fk("dcim.powerport", { nullable: true, onDelete: "setNull" }),
    feed_leg: f.choice(POWER_FEED_LEG, { nullable: true, helpText: "Phase (for three-phase feeds)" }),
    description,
    ...cabled(),
    ...pathEndpoint(),
  },
  uniqueTogether: componentUnique("Power outlet"),
  brief: cabledBrief,
  ...component,
  routes: [traceRoute],
  hooks: powerOutletChecks(() => powerOutlet),
});

export const rearPort = defineModel({
  app: "dcim",
  name: "rearport",
  verboseName: "rear port",
  fields: {
    ...componentFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    positions: f.integer({ default: 1, min: 1, max: 1024, helpText: "Number of front ports which may be mapped" }),
    description,
    ...cabled(),
  },
  uniqueTogether: componentUnique("Rear port"),
  brief: cabledBrief,
  ...component,
  hooks: componentChecks(() => rearPort),
  routes: [pathsRoute],
});

export const frontPort = defineModel({
  app: "dcim",
  name: "frontport",
  verboseName: "front port",
  fields: {
    ...componentFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    rear_port: f.fk("dcim.rearport", { onDelete: "cascade", nestedDisplayUrl: true }),
    rear_port_position: f.integer({ default: 1, min: 1, max: 1024, helpText: "Mapped position on corresponding rear port" }),
    description,
    ...cabled(),
  },
  uniqueTogether: [
    ...componentUnique("Front port"),
    { fields: ["rear_port", "rear_port_position"], message: "Front port with this Rear port and Rear port position already exists." },
  ],
  brief: cabledBrief,
  ...component,
  hooks: frontPortChecks(() => frontPort),
  routes: [pathsRoute],
});

export const deviceBay = defineModel({
  app: "dcim",
  name: "devicebay",
  verboseName: "device bay",
  fields: {
    ...componentFields({ modular: false }),
    description,
    installed_device: f.fk("dcim.device", { nullable: true, unique: true, onDelete: "setNull" }),
  },
  uniqueTogether: componentUnique("Device bay"),
  brief: ["device", "name", "description"],
  ...component,
  hooks: deviceBayChecks(() => deviceBay),
});

export const moduleBay = defineModel({
  app: "dcim",
  name: "modulebay",
  verboseName: "module bay",
  fields: {
    ...componentFields(),
    // NetBox keeps the link on the module (its `module_bay`); the bay shows the module it holds.
    installed_module: f.related("dcim.module", (t) => sql`(SELECT m.id FROM dcim_module m WHERE m.module_bay_id = ${sql.ref(`${t}.id`)})`, {
      notNested: true,
    }),
    position: f.string({ maxLength: 30, blank: true, helpText: "Identifier to reference when renaming installed components" }),
    description,
  },
  uniqueTogether: componentUnique("Module bay"),
  brief: ["installed_module", "name", "description"],
  ...component,
  filters: {
    ...componentFilters,
    installed_module_id: {
      sql: (values, t) => sql`${sql.ref(`${t}.id`)} IN (SELECT module_bay_id FROM dcim_module
        WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(${JSON.stringify(values)})))`,
      negatable: true,
    },
    // NetBox nests a bay under the bay holding the module it came with (its `parent`).
    parent_id: {
      integer: true,
      negatable: true,
      sql: (values, t) => sql`${sql.ref(`${t}.module_id`)} IN (SELECT id FROM dcim_module WHERE module_bay_id IN ${numberSet(values)})`,
    },
  },
  hooks: componentChecks(() => moduleBay),
});

export const inventoryItemRole = defineModel({
  app: "dcim",
  name: "inventoryitemrole",
  verboseName: "inventory item role",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    color: f.string({ maxLength: 6, default: "9e9e9e", pattern: HEX_COLOR }),
    description,
    inventoryitem_count: f.count("dcim.inventoryitem", "role"),
  },
  brief: ["name", "slug", "description", "inventoryitem_count"],
});

/** The components an inventory item may stand for (NetBox's modular component models). */
const INVENTORY_ITEM_COMPONENTS = [
  "dcim.consoleport",
  "dcim.consoleserverport",
  "dcim.frontport",
  "dcim.interface",
  "dcim.poweroutlet",
  "dcim.powerport",
  "dcim.rearport",
];

export const inventoryItem = defineModel({
  app: "dcim",
  name: "inventoryitem",
  verboseName: "inventory item",
  tree: true,
  fields: {
    device: f.fk("dcim.device", { onDelete: "cascade" }),
    parent: f.fk("dcim.inventoryitem", { nullable: true, onDelete: "cascade", flat: true }),
    name: f.string({ maxLength: 64 }),
    label: f.string({ maxLength: 64, blank: true, helpText: "Physical label" }),
    status: f.choice(INVENTORY_ITEM_STATUS, { default: "active" }),
    role: f.fk("dcim.inventoryitemrole", { nullable: true, onDelete: "setNull" }),
    manufacturer: f.fk("dcim.manufacturer", { nullable: true, onDelete: "protect" }),
    part_id: f.string({ maxLength: 50, blank: true, label: "Part ID", helpText: "Manufacturer-assigned part identifier" }),
    serial: f.string({ maxLength: 50, blank: true, label: "Serial number" }),
    asset_tag: f.string({
      maxLength: 50,
      nullable: true,
      default: null,
      unique: true,
      helpText: "A unique tag used to identify this item",
    }),
    discovered: f.boolean({ default: false, helpText: "This item was automatically discovered" }),
    description,
    component: f.generic(INVENTORY_ITEM_COMPONENTS, { nullable: true }),
  },
  uniqueTogether: [{ fields: ["device", "parent", "name"], message: "Inventory item with this Device, Parent and Name already exists." }],
  brief: ["device", "name", "description", "_depth"],
  search: ["name", "label", "description", "serial", "asset_tag", "part_id"],
  ordering: ["device", "name"],
  filters: componentFilters,
  hooks: inventoryItemChecks(() => inventoryItem),
});

export const componentModels = [
  consolePort,
  consoleServerPort,
  powerPort,
  powerOutlet,
  rearPort,
  frontPort,
  deviceBay,
  moduleBay,
  inventoryItemRole,
  inventoryItem,
];

import type { FieldOptions, UniqueTogether } from "../../schema/shapes.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { optionalColor } from "./colors.ts";
import { INTERFACE_POE_MODE, INTERFACE_POE_TYPE, INTERFACE_RF_ROLE, INTERFACE_TYPE, PORT_TYPE } from "./choices.ts";
import { CONSOLE_PORT_TYPE, POWER_FEED_LEG, POWER_OUTLET_TYPE, POWER_PORT_TYPE } from "./component-choices.ts";
import { deviceBayTemplateChecks, frontPortTemplateChecks, powerOutletTemplateChecks, templateChecks } from "./component-checks.ts";

/**
 * Component templates: what a device type (or a module type) brings with it. Creating a device
 * of the type, or installing a module of the type, creates one component per template
 * (`instantiation.ts`). The modular kinds belong to a device type or a module type; device
 * bays and inventory items only to a device type, as in NetBox.
 */
const templateFields = ({ modular = true }: { readonly modular?: boolean } = {}): Record<string, FieldOptions> => ({
  device_type: f.fk("dcim.devicetype", { nullable: modular, onDelete: "cascade" }),
  ...(modular ? { module_type: f.fk("dcim.moduletype", { nullable: true, onDelete: "cascade" }) } : {}),
  name: f.string({
    maxLength: 64,
    helpText: "{module} is accepted as a substitution for the module bay position when attached to a module type.",
  }),
  label: f.string({ maxLength: 64, blank: true, helpText: "Physical label" }),
});

/** A template's name is unique per device type, and (unless not `modular`) per module type. */
const templateUnique = (verbose: string, { modular = true }: { readonly modular?: boolean } = {}): UniqueTogether[] => [
  { fields: ["device_type", "name"], nullsDistinct: ["device_type"], message: `${verbose} with this Device type and Name already exists.` },
  ...(modular
    ? [
        {
          fields: ["module_type", "name"],
          nullsDistinct: ["module_type"],
          message: `${verbose} with this Module type and Name already exists.`,
        },
      ]
    : []),
];

/** The declaration parts every template shares. */
const template = {
  brief: ["name", "description"],
  search: ["name", "label", "description"],
  ordering: ["device_type", "module_type", "name"],
};
const deviceOnly = { ...template, ordering: ["device_type", "name"] };

export const consolePortTemplate = defineModel({
  app: "dcim",
  name: "consoleporttemplate",
  pageless: true,
  verboseName: "console port template",
  fields: { ...templateFields(), type: f.choice(CONSOLE_PORT_TYPE, { nullable: true }), description },
  uniqueTogether: templateUnique("Console port template"),
  ...template,
  hooks: templateChecks(() => consolePortTemplate),
});

export const consoleServerPortTemplate = defineModel({
  app: "dcim",
  name: "consoleserverporttemplate",
  pageless: true,
  verboseName: "console server port template",
  fields: { ...templateFields(), type: f.choice(CONSOLE_PORT_TYPE, { nullable: true }), description },
  uniqueTogether: templateUnique("Console server port template"),
  ...template,
  hooks: templateChecks(() => consoleServerPortTemplate),
});

export const powerPortTemplate = defineModel({
  app: "dcim",
  name: "powerporttemplate",
  pageless: true,
  verboseName: "power port template",
  fields: {
    ...templateFields(),
    type: f.choice(POWER_PORT_TYPE, { nullable: true }),
    maximum_draw: f.integer({ nullable: true, min: 1, max: 2_147_483_647, helpText: "Maximum power draw (watts)" }),
    allocated_draw: f.integer({ nullable: true, min: 1, max: 2_147_483_647, helpText: "Allocated power draw (watts)" }),
    description,
  },
  uniqueTogether: templateUnique("Power port template"),
  ...template,
  hooks: templateChecks(() => powerPortTemplate),
});

export const powerOutletTemplate = defineModel({
  app: "dcim",
  name: "poweroutlettemplate",
  pageless: true,
  verboseName: "power outlet template",
  fields: {
    ...templateFields(),
    type: f.choice(POWER_OUTLET_TYPE, { nullable: true }),
    power_port: f.fk("dcim.powerporttemplate", { nullable: true, onDelete: "setNull" }),
    feed_leg: f.choice(POWER_FEED_LEG, { nullable: true, helpText: "Phase (for three-phase feeds)" }),
    description,
  },
  uniqueTogether: templateUnique("Power outlet template"),
  ...template,
  hooks: powerOutletTemplateChecks(() => powerOutletTemplate),
});

export const interfaceTemplate = defineModel({
  app: "dcim",
  name: "interfacetemplate",
  pageless: true,
  verboseName: "interface template",
  fields: {
    ...templateFields(),
    type: f.choice(INTERFACE_TYPE),
    enabled: f.boolean({ default: true }),
    mgmt_only: f.boolean({ default: false, label: "Management only" }),
    description,
    bridge: f.fk("dcim.interfacetemplate", { nullable: true, onDelete: "setNull", label: "Bridge interface" }),
    poe_mode: f.choice(INTERFACE_POE_MODE, { nullable: true, label: "PoE mode" }),
    poe_type: f.choice(INTERFACE_POE_TYPE, { nullable: true, label: "PoE type" }),
    rf_role: f.choice(INTERFACE_RF_ROLE, { nullable: true, label: "Wireless role" }),
  },
  uniqueTogether: templateUnique("Interface template"),
  ...template,
  hooks: templateChecks(() => interfaceTemplate),
});

export const rearPortTemplate = defineModel({
  app: "dcim",
  name: "rearporttemplate",
  pageless: true,
  verboseName: "rear port template",
  fields: {
    ...templateFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    positions: f.integer({ default: 1, min: 1, max: 1024, helpText: "Number of front ports which may be mapped" }),
    description,
  },
  uniqueTogether: templateUnique("Rear port template"),
  ...template,
  hooks: templateChecks(() => rearPortTemplate),
});

export const frontPortTemplate = defineModel({
  app: "dcim",
  name: "frontporttemplate",
  pageless: true,
  verboseName: "front port template",
  fields: {
    ...templateFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    rear_port: f.fk("dcim.rearporttemplate", { onDelete: "cascade" }),
    rear_port_position: f.integer({ default: 1, min: 1, max: 1024 }),
    description,
  },
  uniqueTogether: [
    ...templateUnique("Front port template"),
    {
      fields: ["rear_port", "rear_port_position"],
      message: "Front port template with this Rear port and Rear port position already exists.",
    },
  ],
  ...template,
  hooks: frontPortTemplateChecks(() => frontPortTemplate),
});

export const deviceBayTemplate = defineModel({
  app: "dcim",
  name: "devicebaytemplate",
  pageless: true,
  verboseName: "device bay template",
  fields: { ...templateFields({ modular: false }), description },
  uniqueTogether: templateUnique("Device bay template", { modular: false }),
  ...deviceOnly,
  hooks: deviceBayTemplateChecks(() => deviceBayTemplate),
});

export const moduleBayTemplate = defineModel({
  app: "dcim",
  name: "modulebaytemplate",
  pageless: true,
  verboseName: "module bay template",
  fields: {
    ...templateFields(),
    position: f.string({ maxLength: 30, blank: true, helpText: "Identifier to reference when renaming installed components" }),
    description,
  },
  uniqueTogether: templateUnique("Module bay template"),
  ...template,
  hooks: templateChecks(() => moduleBayTemplate),
});

/** The templates an inventory item template may stand for. */
const INVENTORY_ITEM_TEMPLATE_COMPONENTS = [
  "dcim.consoleporttemplate",
  "dcim.consoleserverporttemplate",
  "dcim.frontporttemplate",
  "dcim.interfacetemplate",
  "dcim.poweroutlettemplate",
  "dcim.powerporttemplate",
  "dcim.rearporttemplate",
];

export const inventoryItemTemplate = defineModel({
  app: "dcim",
  name: "inventoryitemtemplate",
  pageless: true,
  verboseName: "inventory item template",
  tree: true,
  fields: {
    device_type: f.fk("dcim.devicetype", { onDelete: "cascade" }),
    parent: f.fk("dcim.inventoryitemtemplate", { nullable: true, onDelete: "cascade", flat: true }),
    name: f.string({ maxLength: 64 }),
    label: f.string({ maxLength: 64, blank: true, helpText: "Physical label" }),
    role: f.fk("dcim.inventoryitemrole", { nullable: true, onDelete: "setNull" }),
    manufacturer: f.fk("dcim.manufacturer", { nullable: true, onDelete: "protect" }),
    part_id: f.string({ maxLength: 50, blank: true, label: "Part ID", helpText: "Manufacturer-assigned part identifier" }),
    description,
    component: f.generic(INVENTORY_ITEM_TEMPLATE_COMPONENTS, { nullable: true }),
  },
  uniqueTogether: [
    {
      fields: ["device_type", "parent", "name"],
      message: "Inventory item template with this Device type, Parent and Name already exists.",
    },
  ],
  ...deviceOnly,
  brief: ["name", "description", "_depth"],
});

export const templateModels = [
  consolePortTemplate,
  consoleServerPortTemplate,
  powerPortTemplate,
  powerOutletTemplate,
  interfaceTemplate,
  rearPortTemplate,
  frontPortTemplate,
  deviceBayTemplate,
  moduleBayTemplate,
  inventoryItemTemplate,
];

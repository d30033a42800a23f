import { f, type FieldOptions } from "./fields.ts";
import { defineModel } from "./model.ts";
import { description } from "./common.ts";
import { device } from "./dcim-devices.ts";
import { cabled } from "./dcim-cabling.ts";
import { pathsRoute } from "./dcim-trace.ts";
import { PORT_TYPE } from "./dcim-choices.ts";

const HEX_COLOR = { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." };

/** A cable's or port's colour: optional, six lower-case hex digits. */
export const optionalColor = (): FieldOptions => f.string({ maxLength: 6, blank: true, pattern: HEX_COLOR });

/** What every device component shares: its device (deleted with it), name and physical label. */
export const componentFields = (): Record<string, FieldOptions> => ({
  device: f.fk(() => device, { onDelete: "cascade" }),
  name: f.string({ maxLength: 64 }),
  label: f.string({ maxLength: 64, blank: true, helpText: "Physical label" }),
});

const componentUnique = (verbose: string) => [{ fields: ["device", "name"], message: `${verbose} with this Device and Name already exists.` }];

export const rearPort = defineModel({
  app: "dcim", name: "rearport", verboseName: "rear port",
  fields: {
    ...componentFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    positions: f.integer({ default: 1, min: 1, max: 1024, helpText: "Number of front ports which may be mapped" }),
    description,
    ...cabled(),
  },
  uniqueTogether: componentUnique("Rear port"),
  brief: ["device", "name", "description", "_occupied"],
  search: ["name", "label", "description"],
  ordering: ["device", "name"],
  routes: [pathsRoute],
});

export const frontPort = defineModel({
  app: "dcim", name: "frontport", verboseName: "front port",
  fields: {
    ...componentFields(),
    type: f.choice(PORT_TYPE),
    color: optionalColor(),
    rear_port: f.fk(() => rearPort, { onDelete: "cascade" }),
    rear_port_position: f.integer({ default: 1, min: 1, max: 1024, helpText: "Mapped position on corresponding rear port" }),
    description,
    ...cabled(),
  },
  uniqueTogether: [
    ...componentUnique("Front port"),
    { fields: ["rear_port", "rear_port_position"], message: "Front port with this Rear port and Rear port position already exists." },
  ],
  brief: ["device", "name", "description", "_occupied"],
  search: ["name", "label", "description"],
  ordering: ["device", "name"],
  routes: [pathsRoute],
});

export const componentModels = [rearPort, frontPort];

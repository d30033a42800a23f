import type { Model } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { combineHooks, type ModelHooks, type WriteItem } from "../../schema/hooks.ts";
import { effective, relatedRowsProbe } from "../../engine/referenced-rows.ts";

/**
 * The validation NetBox applies to device components beyond their fields: what a component points
 * to must be on its own device (a front port's rear port, an outlet's power port, a module), a
 * front port's position must exist on its rear port, and device bays hold only child devices.
 * Each check reads what it compares with in the write's probe round trip, for all items at once.
 */

const fail = (item: WriteItem, key: string, message: string) => void (item.errors[key] ??= [message]);
const typeRole = (r: string) => sql`(SELECT subdevice_role FROM dcim_devicetype WHERE id = ${sql.ref(`${r}.device_type_id`)})`;
const typeName = (r: string) => sql`(SELECT model FROM dcim_devicetype WHERE id = ${sql.ref(`${r}.device_type_id`)})`;

/** The fields (of `names`) whose probed object is on another device than the item. */
function sameDevice(model: Model, item: WriteItem, name: string): boolean {
  const row = item.probed[name];
  return !row || Number(row.device_id) === Number(effective(model, item, "device"));
}

/** Every modular component: the module it belongs to is installed in its own device. */
export function componentChecks(self: () => Model): ModelHooks {
  return {
    writeProbes: (ctx, items) =>
      self().field.module ? relatedRowsProbe(ctx, self(), items, { name: "module", touching: ["module", "device"] }) : [],
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        if (!sameDevice(self(), item, "module")) fail(item, "module", "The module must be installed in the component's device.");
      }
    },
  };
}

/** A front port maps to a position of a rear port on the same device. */
export function frontPortChecks(self: () => Model): ModelHooks {
  return combineHooks(componentChecks(self), {
    writeProbes: (ctx, items) =>
      relatedRowsProbe(ctx, self(), items, { name: "rear_port", touching: ["rear_port", "rear_port_position", "device"] }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const rear = item.probed.rear_port;
        if (!rear) continue;
        if (!sameDevice(self(), item, "rear_port")) {
          fail(item, "rear_port", `Rear port (${rear.name}) must belong to the same device`);
          continue;
        }
        const position = Number(effective(self(), item, "rear_port_position"));
        if (position > Number(rear.positions)) {
          fail(
            item,
            "rear_port_position",
            `Invalid rear port position (${position}): Rear port ${rear.name} has only ${rear.positions} positions.`,
          );
        }
      }
    },
  });
}

/** A power outlet is fed by a power port of its own device. */
export function powerOutletChecks(self: () => Model): ModelHooks {
  return combineHooks(componentChecks(self), {
    writeProbes: (ctx, items) => relatedRowsProbe(ctx, self(), items, { name: "power_port", touching: ["power_port", "device"] }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        if (!sameDevice(self(), item, "power_port")) {
          fail(item, "power_port", `Parent power port (${item.probed.power_port.name}) must belong to the same device`);
        }
      }
    },
  });
}

/**
 * A device bay belongs to a device whose type is a parent type, and holds one child device (of a
 * child type, not itself, in no other bay).
 */
export function deviceBayChecks(self: () => Model): ModelHooks {
  return {
    writeProbes: (ctx, items) => [
      ...relatedRowsProbe(ctx, self(), items, { name: "device", touching: ["device"], extra: { __role: typeRole, __type: typeName } }),
      ...relatedRowsProbe(ctx, self(), items, {
        name: "installed_device",
        touching: ["installed_device", "device"],
        extra: {
          __role: typeRole,
          __type: typeName,
          __bay: (r) => sql`(SELECT b.id FROM dcim_devicebay b WHERE b.installed_device_id = ${sql.ref(`${r}.id`)})`,
          __bay_name: (r) => sql`(SELECT b.name FROM dcim_devicebay b WHERE b.installed_device_id = ${sql.ref(`${r}.id`)})`,
        },
      }),
    ],
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const parent = item.probed.device;
        const child = item.probed.installed_device;
        if (parent && parent.__role !== "parent") {
          fail(item, "non_field_errors", `This type of device (${parent.__type}) does not support device bays.`);
        }
        if (!child) continue;
        if (Number(child.id) === Number(effective(self(), item, "device")))
          fail(item, "non_field_errors", "Cannot install a device into itself.");
        else if (child.__role !== "child") {
          fail(item, "installed_device", `Cannot install the specified device; its type (${child.__type}) is not a child device type.`);
        } else if (child.__bay !== null && Number(child.__bay) !== item.id) {
          fail(item, "installed_device", `Cannot install the specified device; device is already installed in ${child.__bay_name}`);
        }
      }
    },
  };
}

/** An inventory item's parent is an item of the same device. */
export function inventoryItemChecks(self: () => Model): ModelHooks {
  return {
    writeProbes: (ctx, items) => relatedRowsProbe(ctx, self(), items, { name: "parent", touching: ["parent", "device"] }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        if (!sameDevice(self(), item, "parent")) fail(item, "parent", "Parent inventory item does not belong to the same device.");
      }
    },
  };
}

/** The template tables whose names may hold `{module}`, replaced by the bay's position on install. */
const MODULAR_TEMPLATE_TABLES = [
  "dcim_consoleporttemplate",
  "dcim_consoleserverporttemplate",
  "dcim_powerporttemplate",
  "dcim_poweroutlettemplate",
  "dcim_interfacetemplate",
  "dcim_rearporttemplate",
  "dcim_frontporttemplate",
  "dcim_modulebaytemplate",
];
const placeholders = (r: string) =>
  sql`(${sql.join(
    MODULAR_TEMPLATE_TABLES.map(
      (t) => sql`EXISTS (SELECT 1 FROM ${sql.table(t)} x WHERE x.module_type_id = ${sql.ref(`${r}.id`)} AND instr(x.name, '{module}') > 0)`,
    ),
    sql` OR `,
  )})`;

/**
 * A module sits in a module bay of the device it is assigned to; a type whose templates name
 * `{module}` needs a bay with a position to replace it with.
 */
export function moduleChecks(self: () => Model): ModelHooks {
  return {
    writeProbes: (ctx, items) => [
      ...relatedRowsProbe(ctx, self(), items, { name: "module_bay", touching: ["module_bay", "device", "module_type"] }),
      ...relatedRowsProbe(ctx, self(), items, {
        name: "module_type",
        touching: ["module_bay", "module_type"],
        extra: { __placeholders: placeholders },
      }),
    ],
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        if (!sameDevice(self(), item, "module_bay")) {
          fail(item, "module_bay", "Module must be installed within a module bay belonging to the assigned device.");
        } else if (item.id === null && item.probed.module_type?.__placeholders && !item.probed.module_bay?.position) {
          fail(item, "non_field_errors", "Cannot install module with placeholder values in a module bay with no position defined.");
        }
      }
    },
  };
}

/** The parent fields of a template: a device type, or a module type for the modular kinds. */
const parentKeys = (model: Model) => (model.field.module_type ? ["device_type", "module_type"] : ["device_type"]);

/** Whether the probed row `name` of an item has the same device type and module type as the item. */
function sameParent(model: Model, item: WriteItem, name: string): boolean {
  const row = item.probed[name];
  return !row || parentKeys(model).every((k) => Number(row[`${k}_id`] ?? 0) === Number(effective(model, item, k) ?? 0));
}

/** A component template belongs to a device type or a module type, not both. */
export function templateChecks(self: () => Model, ...more: ModelHooks[]): ModelHooks {
  return combineHooks(
    {
      prepareWrite: (_ctx, items) => {
        if (!self().field.module_type) return;
        for (const item of items) {
          const [deviceType, moduleType] = [effective(self(), item, "device_type"), effective(self(), item, "module_type")];
          if (deviceType !== null && moduleType !== null) {
            fail(item, "non_field_errors", "A component template cannot be associated with both a device type and a module type.");
          } else if (deviceType === null && moduleType === null) {
            fail(item, "non_field_errors", "A component template must be associated with either a device type or a module type.");
          }
        }
      },
    },
    ...more,
  );
}

/** A front port template maps to a position of a rear port template of the same type. */
export function frontPortTemplateChecks(self: () => Model): ModelHooks {
  return templateChecks(self, {
    writeProbes: (ctx, items) =>
      relatedRowsProbe(ctx, self(), items, { name: "rear_port", touching: ["rear_port", "rear_port_position", ...parentKeys(self())] }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const rear = item.probed.rear_port;
        if (!rear) continue;
        if (!sameParent(self(), item, "rear_port")) {
          fail(item, "rear_port", `Rear port template (${rear.name}) must belong to the same device or module type`);
          continue;
        }
        const position = Number(effective(self(), item, "rear_port_position"));
        if (position > Number(rear.positions)) {
          fail(
            item,
            "rear_port_position",
            `Invalid rear port position (${position}); rear port ${rear.name} has only ${rear.positions} positions`,
          );
        }
      }
    },
  });
}

/** A power outlet template is fed by a power port template of the same type. */
export function powerOutletTemplateChecks(self: () => Model): ModelHooks {
  return templateChecks(self, {
    writeProbes: (ctx, items) =>
      relatedRowsProbe(ctx, self(), items, { name: "power_port", touching: ["power_port", ...parentKeys(self())] }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        if (!sameParent(self(), item, "power_port")) {
          fail(
            item,
            "power_port",
            `Parent power port template (${item.probed.power_port.name}) must belong to the same device or module type`,
          );
        }
      }
    },
  });
}

/** Device bay templates only on a parent device type: only parents hold child devices. */
export function deviceBayTemplateChecks(self: () => Model): ModelHooks {
  return {
    writeProbes: (ctx, items) => relatedRowsProbe(ctx, self(), items, { name: "device_type" }),
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const type = item.probed.device_type;
        if (type && type.subdevice_role !== "parent") {
          fail(item, "non_field_errors", `Subdevice role of device type (${type.model}) must be set to "parent" to allow device bays.`);
        }
      }
    },
  };
}

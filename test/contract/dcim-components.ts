import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";

const five = [1, 2, 3, 4, 5];

/**
 * A device of a parent type with a module installed in its one module bay, for component rows:
 * everything a component can point to.
 */
async function host(api: Harness) {
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" });
  const device_type = await make(api, "/api/dcim/device-types/", {
    manufacturer,
    model: "Chassis",
    slug: "chassis",
    subdevice_role: "parent",
  });
  const role = await make(api, "/api/dcim/device-roles/", { name: "Role", slug: "role" });
  const site = await make(api, "/api/dcim/sites/", { name: "Site", slug: "site" });
  const device = await make(api, "/api/dcim/devices/", { name: "host", device_type, role, site });
  const bay = await make(api, "/api/dcim/module-bays/", { device, name: "slot", position: "1" });
  const module_type = await make(api, "/api/dcim/module-types/", { manufacturer, model: "Card" });
  const module = await make(api, "/api/dcim/modules/", { device, module_bay: bay, module_type });
  return { manufacturer, device_type, role, site, device, bay, module_type, module };
}

/** A device type and a module type for template rows. */
async function types(api: Harness) {
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" });
  return {
    manufacturer,
    device_type: await make(api, "/api/dcim/device-types/", { manufacturer, model: "Chassis", slug: "chassis", subdevice_role: "parent" }),
    module_type: await make(api, "/api/dcim/module-types/", { manufacturer, model: "Card" }),
  };
}

/** Five templates, the first on the device type and the second on the module type. */
const onTypes = (fx: Record<string, number>, prefix: string, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  five.map((i) => ({
    ...(i === 2 ? { module_type: fx.module_type } : { device_type: fx.device_type }),
    name: `${prefix}${i}`,
    ...extra(i),
  }));

/** Contract rows of device components, modules and component templates. */
export const specs: ContractSpec[] = [
  {
    objectType: "dcim.consoleport",
    fixtures: host,
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        module: i === 1 ? fx.module : null,
        name: `con${i}`,
        type: "rj-45",
        speed: i === 1 ? 9600 : null,
      })),
    patch: { description: "changed", speed: 115200 },
    bulkPatch: { mark_connected: true },
    invalid: { body: { device: 1, name: "bad", speed: 1234 }, field: "speed" },
  },
  {
    objectType: "dcim.consoleserverport",
    fixtures: host,
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        module: i === 1 ? fx.module : null,
        name: `cs${i}`,
        type: i % 2 ? "rj-45" : "usb-c",
        speed: 9600,
      })),
    patch: { description: "changed", label: "L" },
    bulkPatch: { type: "de-9" },
    invalid: { body: { device: 1, name: "bad", type: "serial" }, field: "type" },
  },
  {
    objectType: "dcim.powerport",
    fixtures: host,
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        module: i === 1 ? fx.module : null,
        name: `PSU${i}`,
        type: "iec-60320-c14",
        maximum_draw: 100 * i,
        allocated_draw: 50,
      })),
    patch: { description: "changed", maximum_draw: 900 },
    bulkPatch: { allocated_draw: 75 },
    invalid: { body: { device: 1, name: "bad", maximum_draw: 0 }, field: "maximum_draw" },
  },
  {
    objectType: "dcim.poweroutlet",
    fixtures: async (api) => {
      const fx = await host(api);
      return { ...fx, psu: await make(api, "/api/dcim/power-ports/", { device: fx.device, name: "PSU" }) };
    },
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        module: i === 1 ? fx.module : null,
        name: `out${i}`,
        type: "iec-60320-c13",
        power_port: i <= 2 ? fx.psu : null,
        feed_leg: i === 1 ? "A" : null,
        color: i === 1 ? "ff0000" : "",
      })),
    patch: { description: "changed", feed_leg: "C" },
    bulkPatch: { color: "00ff00" },
    invalid: { body: { device: 1, name: "bad", feed_leg: "D" }, field: "feed_leg" },
  },
  {
    objectType: "dcim.devicebay",
    fixtures: async (api) => {
      const fx = await host(api);
      const blade = await make(api, "/api/dcim/device-types/", {
        manufacturer: fx.manufacturer,
        model: "Blade",
        slug: "blade",
        subdevice_role: "child",
      });
      return { ...fx, child: await make(api, "/api/dcim/devices/", { name: "blade", device_type: blade, role: fx.role, site: fx.site }) };
    },
    create: (fx) => five.map((i) => ({ device: fx.device, name: `bay${i}`, installed_device: i === 1 ? fx.child : null })),
    patch: { description: "changed", label: "Bay" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { device: 1, name: "" }, field: "name" },
  },
  {
    objectType: "dcim.modulebay",
    fixtures: host,
    create: (fx) => five.map((i) => ({ device: fx.device, module: i === 1 ? fx.module : null, name: `bay${i}`, position: String(i) })),
    patch: { description: "changed", position: "9" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device: 1, name: "bad", position: "x".repeat(31) }, field: "position" },
    existing: 1,
  },
  {
    objectType: "dcim.inventoryitemrole",
    create: () => named("Optic", (i) => ({ color: i === 1 ? "aa1409" : "9e9e9e" })),
    patch: { description: "changed", color: "00ff00" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", color: "red" }, field: "color" },
  },
  {
    objectType: "dcim.inventoryitem",
    fixtures: async (api) => {
      const fx = await host(api);
      return {
        ...fx,
        itemRole: await make(api, "/api/dcim/inventory-item-roles/", { name: "Optic", slug: "optic" }),
        parent: await make(api, "/api/dcim/inventory-items/", { device: fx.device, name: "chassis" }),
        iface: await make(api, "/api/dcim/interfaces/", { device: fx.device, name: "eth0", type: "10gbase-x-sfpp" }),
      };
    },
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        parent: i === 1 ? null : fx.parent,
        name: `item${i}`,
        role: i <= 2 ? fx.itemRole : null,
        manufacturer: i === 1 ? fx.manufacturer : null,
        part_id: `P${i}`,
        serial: `S${i}`,
        asset_tag: i === 1 ? "INV-1" : null,
        status: i === 3 ? "planned" : "active",
        ...(i === 1 ? { component_type: "dcim.interface", component_id: fx.iface } : {}),
      })),
    patch: { description: "changed", discovered: true },
    bulkPatch: { status: "offline" },
    invalid: { body: { device: 1, name: "bad", status: "lost" }, field: "status" },
    existing: 1,
  },
  {
    objectType: "dcim.moduletype",
    fixtures: async (api) => ({ manufacturer: await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" }) }),
    create: (fx) =>
      five.map((i) => ({
        manufacturer: fx.manufacturer,
        model: `LC-${i}`,
        part_number: `PN${i}`,
        airflow: i === 1 ? "front-to-rear" : null,
        weight: i === 1 ? 1.5 : null,
        weight_unit: i === 1 ? "kg" : null,
      })),
    patch: { description: "changed", airflow: "passive" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { manufacturer: 1, model: "bad", airflow: "sideways" }, field: "airflow" },
  },
  {
    objectType: "dcim.module",
    fixtures: async (api) => {
      const fx = await host(api);
      const bays = await Promise.all(
        five.map((i) => make(api, "/api/dcim/module-bays/", { device: fx.device, name: `bay${i}`, position: String(i) })),
      );
      return { ...fx, ...Object.fromEntries(bays.map((id, i) => [`bay${i + 1}`, id])) };
    },
    create: (fx) =>
      five.map((i) => ({
        device: fx.device,
        module_bay: fx[`bay${i}`],
        module_type: fx.module_type,
        serial: `SN${i}`,
        asset_tag: i === 1 ? "MOD-1" : null,
        status: i === 2 ? "planned" : "active",
      })),
    patch: { description: "changed", status: "failed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { device: 1, module_bay: 1, module_type: 1, status: "gone" }, field: "status" },
    existing: 1,
  },
  {
    objectType: "dcim.consoleporttemplate",
    fixtures: types,
    create: (fx) => onTypes(fx, "con", (i) => ({ type: i === 1 ? "rj-45" : null })),
    patch: { description: "changed", type: "usb-c" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", type: "serial" }, field: "type" },
  },
  {
    objectType: "dcim.consoleserverporttemplate",
    fixtures: types,
    create: (fx) => onTypes(fx, "cs", () => ({ type: "rj-45" })),
    patch: { description: "changed" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", type: "serial" }, field: "type" },
  },
  {
    objectType: "dcim.powerporttemplate",
    fixtures: types,
    create: (fx) => onTypes(fx, "PSU", (i) => ({ type: "iec-60320-c14", maximum_draw: 100 * i })),
    patch: { description: "changed", allocated_draw: 80 },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", maximum_draw: -1 }, field: "maximum_draw" },
  },
  {
    objectType: "dcim.poweroutlettemplate",
    fixtures: async (api) => {
      const fx = await types(api);
      return { ...fx, psu: await make(api, "/api/dcim/power-port-templates/", { device_type: fx.device_type, name: "PSU" }) };
    },
    create: (fx) =>
      onTypes(fx, "out", (i) => ({ type: "iec-60320-c13", power_port: i === 1 ? fx.psu : null, feed_leg: i === 1 ? "B" : null })),
    patch: { description: "changed" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", feed_leg: "Z" }, field: "feed_leg" },
  },
  {
    objectType: "dcim.interfacetemplate",
    fixtures: async (api) => {
      const fx = await types(api);
      return {
        ...fx,
        bridge: await make(api, "/api/dcim/interface-templates/", { device_type: fx.device_type, name: "br0", type: "bridge" }),
      };
    },
    create: (fx) =>
      onTypes(fx, "eth", (i) => ({
        type: "1000base-t",
        mgmt_only: i === 3,
        bridge: i === 1 ? fx.bridge : null,
        poe_mode: i === 1 ? "pse" : null,
        poe_type: i === 1 ? "type2-ieee802.3at" : null,
        rf_role: null,
      })),
    patch: { description: "changed", enabled: false },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", type: "warp" }, field: "type" },
    existing: 1,
  },
  {
    objectType: "dcim.rearporttemplate",
    fixtures: types,
    create: (fx) => onTypes(fx, "R", (i) => ({ type: "mpo", positions: i, color: i === 1 ? "aa00ff" : "" })),
    patch: { description: "changed", positions: 12 },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", type: "mpo", positions: 0 }, field: "positions" },
  },
  {
    objectType: "dcim.frontporttemplate",
    fixtures: async (api) => {
      const fx = await types(api);
      return {
        ...fx,
        rear: await make(api, "/api/dcim/rear-port-templates/", { device_type: fx.device_type, name: "R", type: "mpo", positions: 8 }),
      };
    },
    // All on the device type: a front port template maps to a rear port template of its own type.
    create: (fx) =>
      five.map((i) => ({ device_type: fx.device_type, name: `F${i}`, type: "lc", rear_port: fx.rear, rear_port_position: i })),
    patch: { description: "changed", color: "00ff00" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", type: "lc", rear_port: 1, rear_port_position: 2000 }, field: "rear_port_position" },
  },
  {
    objectType: "dcim.devicebaytemplate",
    fixtures: types,
    create: (fx) => five.map((i) => ({ device_type: fx.device_type, name: `bay${i}`, label: `B${i}` })),
    patch: { description: "changed" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "" }, field: "name" },
  },
  {
    objectType: "dcim.modulebaytemplate",
    fixtures: types,
    create: (fx) => onTypes(fx, "slot", (i) => ({ position: String(i) })),
    patch: { description: "changed", position: "{module}/1" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", position: "x".repeat(31) }, field: "position" },
  },
  {
    objectType: "dcim.inventoryitemtemplate",
    fixtures: async (api) => {
      const fx = await types(api);
      return {
        ...fx,
        itemRole: await make(api, "/api/dcim/inventory-item-roles/", { name: "Optic", slug: "optic" }),
        parent: await make(api, "/api/dcim/inventory-item-templates/", { device_type: fx.device_type, name: "chassis" }),
        iface: await make(api, "/api/dcim/interface-templates/", { device_type: fx.device_type, name: "eth0", type: "10gbase-x-sfpp" }),
      };
    },
    create: (fx) =>
      five.map((i) => ({
        device_type: fx.device_type,
        parent: i === 1 ? null : fx.parent,
        name: `item${i}`,
        role: i === 1 ? fx.itemRole : null,
        manufacturer: i === 1 ? fx.manufacturer : null,
        part_id: `P${i}`,
        ...(i === 1 ? { component_type: "dcim.interfacetemplate", component_id: fx.iface } : {}),
      })),
    patch: { description: "changed", label: "L" },
    bulkPatch: { part_id: "bulk" },
    invalid: { body: { device_type: 1, name: "bad", component_type: "dcim.site", component_id: 1 }, field: "component_type" },
    existing: 1,
  },
];

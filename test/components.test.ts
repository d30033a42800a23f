import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const list = async (path: string) => {
  const reply = await api.get(`${path}${path.includes("?") ? "&" : "?"}limit=0`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.results as any[];
};

/** A device type with one template of every kind, and front ports mapped to a rear port. */
async function fullType(slug: string) {
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model: slug, slug, subdevice_role: "parent" });
  await make(api, "/api/dcim/console-port-templates/", { device_type, name: "con0", type: "rj-45" });
  await make(api, "/api/dcim/console-server-port-templates/", { device_type, name: "cs1", type: "rj-45" });
  const psu = await make(api, "/api/dcim/power-port-templates/", { device_type, name: "PSU1", type: "iec-60320-c14", maximum_draw: 500 });
  await make(api, "/api/dcim/power-outlet-templates/", {
    device_type,
    name: "out1",
    type: "iec-60320-c13",
    power_port: psu,
    feed_leg: "A",
  });
  const br = await make(api, "/api/dcim/interface-templates/", { device_type, name: "br0", type: "bridge" });
  await make(api, "/api/dcim/interface-templates/", { device_type, name: "eth0", type: "1000base-t", mgmt_only: true, bridge: br });
  const rear = await make(api, "/api/dcim/rear-port-templates/", { device_type, name: "R1", type: "mpo", positions: 2 });
  await make(api, "/api/dcim/front-port-templates/", { device_type, name: "F1", type: "lc", rear_port: rear, rear_port_position: 1 });
  await make(api, "/api/dcim/front-port-templates/", { device_type, name: "F2", type: "lc", rear_port: rear, rear_port_position: 2 });
  await make(api, "/api/dcim/device-bay-templates/", { device_type, name: "bay1" });
  await make(api, "/api/dcim/module-bay-templates/", { device_type, name: "slot1", position: "1" });
  const chassis = await make(api, "/api/dcim/inventory-item-templates/", { device_type, name: "chassis", manufacturer: ids.maker });
  await make(api, "/api/dcim/inventory-item-templates/", {
    device_type,
    name: "optic",
    parent: chassis,
    component_type: "dcim.interfacetemplate",
    component_id: br,
  });
  return device_type;
}

beforeAll(async () => {
  api = await createHarness();
  ids.maker = await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" });
  ids.site = await make(api, "/api/dcim/sites/", { name: "DC1", slug: "dc1" });
  ids.role = await make(api, "/api/dcim/device-roles/", { name: "Core", slug: "core" });
  ids.full = await fullType("full");
});
afterAll(() => api.close());

describe("instantiation from device type templates", () => {
  it("creates every kind of component with the device, front ports mapped to the new rear ports", async () => {
    const reply = await api.post("/api/dcim/devices/", { name: "sw1", device_type: ids.full, role: ids.role, site: ids.site });
    expect(reply.status, reply.text).toBe(201);
    const device = reply.body.id;
    expect(reply.body).toMatchObject({
      console_port_count: 1,
      console_server_port_count: 1,
      power_port_count: 1,
      power_outlet_count: 1,
      interface_count: 2,
      front_port_count: 2,
      rear_port_count: 1,
      device_bay_count: 1,
      module_bay_count: 1,
      inventory_item_count: 2,
    });
    const [rear] = await list(`/api/dcim/rear-ports/?device_id=${device}`);
    expect(rear).toMatchObject({ name: "R1", positions: 2, type: { value: "mpo" } });
    const fronts = await list(`/api/dcim/front-ports/?device_id=${device}`);
    expect(fronts.map((f) => [f.name, f.rear_port.id, f.rear_port_position])).toEqual([
      ["F1", rear.id, 1],
      ["F2", rear.id, 2],
    ]);
    const [psu] = await list(`/api/dcim/power-ports/?device_id=${device}`);
    expect(psu).toMatchObject({ name: "PSU1", maximum_draw: 500 });
    const [outlet] = await list(`/api/dcim/power-outlets/?device_id=${device}`);
    expect(outlet).toMatchObject({ name: "out1", power_port: { id: psu.id }, feed_leg: { value: "A" } });
    const ifaces = await list(`/api/dcim/interfaces/?device_id=${device}`);
    const br = ifaces.find((i) => i.name === "br0");
    expect(ifaces.find((i) => i.name === "eth0")).toMatchObject({ mgmt_only: true, bridge: { id: br.id }, module: null });
    expect((await list(`/api/dcim/console-ports/?device_id=${device}`)).map((c) => c.name)).toEqual(["con0"]);
    expect((await list(`/api/dcim/console-server-ports/?device_id=${device}`)).map((c) => c.name)).toEqual(["cs1"]);
    expect((await list(`/api/dcim/device-bays/?device_id=${device}`)).map((c) => c.name)).toEqual(["bay1"]);
    expect((await list(`/api/dcim/module-bays/?device_id=${device}`))[0]).toMatchObject({
      name: "slot1",
      position: "1",
      installed_module: null,
    });
    const items = await list(`/api/dcim/inventory-items/?device_id=${device}`);
    const chassis = items.find((i) => i.name === "chassis");
    expect(chassis).toMatchObject({ parent: null, _depth: 0, manufacturer: { id: ids.maker } });
    expect(items.find((i) => i.name === "optic")).toMatchObject({
      parent: chassis.id,
      _depth: 1,
      component_type: "dcim.interface",
      component_id: br.id,
      component: { id: br.id, name: "br0" },
    });
  });

  it("records a change for every created component, in the device's request", async () => {
    const reply = await api.post("/api/dcim/devices/", { name: "sw2", device_type: ids.full, role: ids.role, site: ids.site });
    const request = reply.headers.get("x-request-id");
    const changes = (await api.db.kysely.selectFrom("core_objectchange").selectAll().where("request_id", "=", request!).execute()) as any[];
    const types = changes.map((c) => c.changed_object_type).sort();
    expect(types).toEqual([
      "dcim.consoleport",
      "dcim.consoleserverport",
      "dcim.device",
      "dcim.devicebay",
      "dcim.frontport",
      "dcim.frontport",
      "dcim.interface",
      "dcim.interface",
      "dcim.inventoryitem",
      "dcim.inventoryitem",
      "dcim.modulebay",
      "dcim.poweroutlet",
      "dcim.powerport",
      "dcim.rearport",
    ]);
    const front = changes.find((c) => c.changed_object_type === "dcim.frontport");
    const post = JSON.parse(front.postchange_data);
    expect(front).toMatchObject({ action: "create", object_repr: "F1" });
    expect(post).toMatchObject({ name: "F1", device: reply.body.id, module: null });
    expect(typeof post.rear_port).toBe("number");
  });

  it("keeps a bulk create one transaction with a fixed number of statements per template kind, whatever the number of devices", async () => {
    const bare = await make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model: "bare", slug: "bare" });
    const create = (n: number, prefix: string, device_type: number) =>
      api.cost(async () => {
        const body = Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, device_type, role: ids.role, site: ids.site }));
        expect((await api.post("/api/dcim/devices/", body)).status).toBe(201);
      });
    const [full10, full100] = [await create(10, "a", ids.full), await create(100, "b", ids.full)];
    const [bare10, bare100] = [await create(10, "c", bare), await create(100, "d", bare)];
    expect([full10.roundTrips, full100.roundTrips]).toEqual([bare10.roundTrips, bare100.roundTrips]);
    // Ninety more devices cost only their own rows and records: the components of every template
    // kind come from the same fixed set of statements (INSERT ... SELECT and change records).
    expect(full100.statements - full10.statements).toBe(bare100.statements - bare10.statements);
    expect(full10.statements).toBe(bare10.statements);
    expect((await list("/api/dcim/front-ports/?name=F2")).length).toBe(112);
  });
});

describe("modules", () => {
  it("installing a module creates its type's components on the device, {module} replaced by the bay position", async () => {
    const device = await make(api, "/api/dcim/devices/", { name: "chassis1", device_type: ids.full, role: ids.role, site: ids.site });
    const [bay] = await list(`/api/dcim/module-bays/?device_id=${device}`);
    const module_type = await make(api, "/api/dcim/module-types/", { manufacturer: ids.maker, model: "LC-8" });
    await make(api, "/api/dcim/interface-templates/", {
      module_type,
      name: "et-{module}/0",
      type: "10gbase-x-sfpp",
      label: "port {module}",
    });
    const rear = await make(api, "/api/dcim/rear-port-templates/", { module_type, name: "MR{module}", type: "mpo", positions: 4 });
    await make(api, "/api/dcim/front-port-templates/", {
      module_type,
      name: "MF{module}",
      type: "lc",
      rear_port: rear,
      rear_port_position: 3,
    });
    await make(api, "/api/dcim/power-port-templates/", { module_type, name: "PSU-{module}" });
    await make(api, "/api/dcim/module-bay-templates/", { module_type, name: "sub{module}", position: "{module}.1" });

    const reply = await api.post("/api/dcim/modules/", { device, module_bay: bay.id, module_type, serial: "X1" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      display: `slot1: LC-8 (${reply.body.id})`,
      module_bay: { id: bay.id, name: "slot1" },
      status: { value: "active" },
    });
    const module = reply.body.id;
    const iface = (await list(`/api/dcim/interfaces/?module_id=${module}`))[0];
    expect(iface).toMatchObject({ name: "et-1/0", label: "port 1", device: { id: device }, module: { id: module } });
    const [newRear] = await list(`/api/dcim/rear-ports/?module_id=${module}`);
    expect(newRear).toMatchObject({ name: "MR1", positions: 4 });
    expect((await list(`/api/dcim/front-ports/?module_id=${module}`))[0]).toMatchObject({
      name: "MF1",
      rear_port: { id: newRear.id },
      rear_port_position: 3,
    });
    expect((await list(`/api/dcim/power-ports/?module_id=${module}`)).map((p) => p.name)).toEqual(["PSU-1"]);
    expect((await list(`/api/dcim/module-bays/?module_id=${module}`))[0]).toMatchObject({ name: "sub1", position: "1.1" });
    expect((await api.get(`/api/dcim/module-bays/${bay.id}/`)).body.installed_module).toMatchObject({ id: module });
    expect((await list(`/api/dcim/module-bays/?installed_module_id=${module}`)).map((b) => b.id)).toEqual([bay.id]);
    expect((await api.get(`/api/dcim/devices/${device}/`)).body.interface_count).toBe(3);

    // Removing the module removes what it brought.
    expect((await api.delete(`/api/dcim/modules/${module}/`)).status).toBe(204);
    expect(await list(`/api/dcim/interfaces/?device_id=${device}&name=et-1/0`)).toEqual([]);
    expect((await api.get(`/api/dcim/module-bays/${bay.id}/`)).body.installed_module).toBeNull();
  });

  it("sits in a bay of its own device, one module per bay", async () => {
    const a = await make(api, "/api/dcim/devices/", { name: "ma", device_type: ids.full, role: ids.role, site: ids.site });
    const b = await make(api, "/api/dcim/devices/", { name: "mb", device_type: ids.full, role: ids.role, site: ids.site });
    const [bayB] = await list(`/api/dcim/module-bays/?device_id=${b}`);
    const module_type = await make(api, "/api/dcim/module-types/", { manufacturer: ids.maker, model: "Blank" });
    const wrong = await api.post("/api/dcim/modules/", { device: a, module_bay: bayB.id, module_type });
    expect(wrong).toMatchObject({
      status: 400,
      body: { module_bay: ["Module must be installed within a module bay belonging to the assigned device."] },
    });
    const unnamed = await make(api, "/api/dcim/module-bays/", { device: b, name: "unnumbered" });
    const numbered = await make(api, "/api/dcim/module-types/", { manufacturer: ids.maker, model: "Numbered" });
    await make(api, "/api/dcim/console-port-templates/", { module_type: numbered, name: "con{module}" });
    const noPosition = await api.post("/api/dcim/modules/", { device: b, module_bay: unnamed, module_type: numbered });
    expect(noPosition.body).toEqual({
      non_field_errors: ["Cannot install module with placeholder values in a module bay with no position defined."],
    });
    expect((await api.post("/api/dcim/modules/", { device: b, module_bay: unnamed, module_type })).status).toBe(201);
    expect((await api.post("/api/dcim/modules/", { device: b, module_bay: bayB.id, module_type })).status).toBe(201);
    const twice = await api.post("/api/dcim/modules/", { device: b, module_bay: bayB.id, module_type });
    expect(twice.status).toBe(400);
    expect(twice.body.module_bay).toBeDefined();
  });
});

describe("device bays", () => {
  it("hold one child device, which shows its parent", async () => {
    const child = await make(api, "/api/dcim/device-types/", {
      manufacturer: ids.maker,
      model: "blade",
      slug: "blade",
      subdevice_role: "child",
    });
    const plain = await make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model: "plain", slug: "plain" });
    const parent = await make(api, "/api/dcim/devices/", { name: "enclosure", device_type: ids.full, role: ids.role, site: ids.site });
    const blade = await make(api, "/api/dcim/devices/", { name: "blade1", device_type: child, role: ids.role, site: ids.site });
    const box = await make(api, "/api/dcim/devices/", { name: "box", device_type: plain, role: ids.role, site: ids.site });
    const [bay] = await list(`/api/dcim/device-bays/?device_id=${parent}`);

    const notChild = await api.patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: box });
    expect(notChild.status).toBe(400);
    expect(notChild.body.installed_device[0]).toContain("not a child device type");
    const self = await api.patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: parent });
    expect(self.status).toBe(400);
    const noTemplates = await api.post("/api/dcim/device-bay-templates/", { device_type: plain, name: "bay" });
    expect(noTemplates.body).toEqual({
      non_field_errors: ['Subdevice role of device type (plain) must be set to "parent" to allow device bays.'],
    });
    const noBays = await api.post("/api/dcim/device-bays/", { device: box, name: "bay" });
    expect(noBays).toMatchObject({
      status: 400,
      body: { non_field_errors: ["This type of device (plain) does not support device bays."] },
    });

    const installed = await api.patch(`/api/dcim/device-bays/${bay.id}/`, { installed_device: blade });
    expect(installed.status, installed.text).toBe(200);
    expect(installed.body.installed_device).toMatchObject({ id: blade, name: "blade1" });
    expect((await api.get(`/api/dcim/devices/${blade}/`)).body.parent_device).toMatchObject({ id: parent, name: "enclosure" });
    expect((await api.get(`/api/dcim/devices/${parent}/`)).body.parent_device).toBeNull();
    expect((await list(`/api/dcim/device-bays/?installed_device_id=${blade}`)).map((b) => b.id)).toEqual([bay.id]);

    const second = await api.post("/api/dcim/device-bays/", { device: parent, name: "bay2", installed_device: blade });
    expect(second.status).toBe(400);
    expect(second.body.installed_device).toEqual(["Cannot install the specified device; device is already installed in bay1"]);
    // Re-saving the bay that holds it is no conflict.
    expect((await api.put(`/api/dcim/device-bays/${bay.id}/`, { device: parent, name: "bay1", installed_device: blade })).status).toBe(200);
  });
});

describe("port validation", () => {
  it("maps a front port to a position of a rear port on the same device", async () => {
    const a = await make(api, "/api/dcim/devices/", { name: "pa", device_type: ids.full, role: ids.role, site: ids.site });
    const b = await make(api, "/api/dcim/devices/", { name: "pb", device_type: ids.full, role: ids.role, site: ids.site });
    const rearA = await make(api, "/api/dcim/rear-ports/", { device: a, name: "R8", type: "mpo", positions: 4 });
    const rearB = await make(api, "/api/dcim/rear-ports/", { device: b, name: "R9", type: "mpo", positions: 4 });
    const other = await api.post("/api/dcim/front-ports/", { device: a, name: "X", type: "lc", rear_port: rearB });
    expect(other).toMatchObject({ status: 400, body: { rear_port: ["Rear port (R9) must belong to the same device"] } });
    const beyond = await api.post("/api/dcim/front-ports/", {
      device: a,
      name: "X",
      type: "lc",
      rear_port: { device: a, name: "R1" },
      rear_port_position: 3,
    });
    expect(beyond).toMatchObject({
      status: 400,
      body: { rear_port_position: ["Invalid rear port position (3): Rear port R1 has only 2 positions."] },
    });
    // A PATCH is checked against what the port keeps.
    const [f1] = await list(`/api/dcim/front-ports/?device_id=${a}&name=F1`);
    const moved = await api.patch(`/api/dcim/front-ports/${f1.id}/`, { rear_port_position: 5 });
    expect(moved.body).toEqual({ rear_port_position: ["Invalid rear port position (5): Rear port R1 has only 2 positions."] });
    const [bulkOk, bulkBad] = [
      { device: a, name: "Y", type: "lc", rear_port: rearA, rear_port_position: 4 },
      { device: a, name: "Z", type: "lc", rear_port: rearB },
    ];
    const bulk = await api.post("/api/dcim/front-ports/", [bulkOk, bulkBad]);
    expect(bulk.status).toBe(400);
    expect(bulk.body).toEqual([{}, { rear_port: ["Rear port (R9) must belong to the same device"] }]);
    expect(await list(`/api/dcim/front-ports/?device_id=${a}&name=Y`)).toEqual([]);
    expect((await api.post("/api/dcim/front-ports/", bulkOk)).status).toBe(201);
  });

  it("feeds a power outlet from a power port of its own device", async () => {
    const a = await make(api, "/api/dcim/devices/", { name: "qa", device_type: ids.full, role: ids.role, site: ids.site });
    const b = await make(api, "/api/dcim/devices/", { name: "qb", device_type: ids.full, role: ids.role, site: ids.site });
    const [psuB] = await list(`/api/dcim/power-ports/?device_id=${b}`);
    const reply = await api.post("/api/dcim/power-outlets/", { device: a, name: "out9", power_port: psuB.id });
    expect(reply).toMatchObject({ status: 400, body: { power_port: ["Parent power port (PSU1) must belong to the same device"] } });
  });

  it("nests an inventory item only under an item of the same device", async () => {
    const a = await make(api, "/api/dcim/devices/", { name: "ia", device_type: ids.full, role: ids.role, site: ids.site });
    const b = await make(api, "/api/dcim/devices/", { name: "ib", device_type: ids.full, role: ids.role, site: ids.site });
    const [chassisB] = await list(`/api/dcim/inventory-items/?device_id=${b}&name=chassis`);
    const reply = await api.post("/api/dcim/inventory-items/", { device: a, name: "psu", parent: chassisB.id });
    expect(reply).toMatchObject({ status: 400, body: { parent: ["Parent inventory item does not belong to the same device."] } });
    const [chassisA] = await list(`/api/dcim/inventory-items/?device_id=${a}&name=chassis`);
    const ok = await api.post("/api/dcim/inventory-items/", { device: a, name: "psu", parent: chassisA.id });
    expect(ok.body).toMatchObject({ parent: chassisA.id, _depth: 1 });
    expect((await list(`/api/dcim/inventory-items/?parent_id=${chassisA.id}`)).map((i) => i.name).sort()).toEqual(["optic", "psu"]);
  });

  it("attaches a template to a device type or a module type, not both, nor neither", async () => {
    const module_type = await make(api, "/api/dcim/module-types/", { manufacturer: ids.maker, model: "Both" });
    const both = await api.post("/api/dcim/console-port-templates/", { device_type: ids.full, module_type, name: "c9" });
    expect(both.body).toEqual({
      non_field_errors: ["A component template cannot be associated with both a device type and a module type."],
    });
    const neither = await api.post("/api/dcim/console-port-templates/", { name: "c9" });
    expect(neither.body).toEqual({
      non_field_errors: ["A component template must be associated with either a device type or a module type."],
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

/**
 * The inventory as a user builds it, through HTTP only: a region, a site, a location, a rack, a
 * device type with interface templates, two racked devices (their interfaces appear), a cable
 * between them, its trace, and a config context that reaches the devices by role.
 */
let api: Harness;
const ids: Record<string, number> = {};

const create = async (path: string, body: Record<string, unknown>) => {
  const reply = await api.post(path, body);
  expect(reply.status, `${path}: ${reply.text}`).toBe(201);
  return reply.body as Record<string, any>;
};

beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

describe("building the inventory from scratch", () => {
  it("places a site in a region and a location in the site", async () => {
    ids.region = (await create("/api/dcim/regions/", { name: "Europe", slug: "europe" })).id;
    const site = await create("/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.region, status: "active" });
    ids.site = site.id;
    expect(site.region).toMatchObject({ id: ids.region, slug: "europe" });
    const location = await create("/api/dcim/locations/", { name: "Hall 1", slug: "hall-1", site: ids.site });
    ids.location = location.id;
    expect(location.site).toMatchObject({ id: ids.site, name: "FRA1" });
  });

  it("racks in the location", async () => {
    const rack = await create("/api/dcim/racks/", { name: "R01", site: ids.site, location: ids.location, u_height: 42 });
    ids.rack = rack.id;
    expect(rack.location).toMatchObject({ id: ids.location });
    const site = await api.get(`/api/dcim/sites/${ids.site}/`);
    expect(site.body.rack_count).toBe(1);
  });

  it("describes a device type with its interfaces", async () => {
    ids.manufacturer = (await create("/api/dcim/manufacturers/", { name: "Juniper", slug: "juniper" })).id;
    ids.type = (
      await create("/api/dcim/device-types/", { manufacturer: ids.manufacturer, model: "QFX5120", slug: "qfx5120", u_height: 1 })
    ).id;
    const templates = await api.post("/api/dcim/interface-templates/", [
      { device_type: ids.type, name: "et-0/0/0", type: "100gbase-x-qsfp28" },
      { device_type: ids.type, name: "et-0/0/1", type: "100gbase-x-qsfp28" },
      { device_type: ids.type, name: "em0", type: "1000base-t", mgmt_only: true },
    ]);
    expect(templates.status, templates.text).toBe(201);
    ids.role = (await create("/api/dcim/device-roles/", { name: "Leaf", slug: "leaf", color: "00aa00" })).id;
  });

  it("racks two devices whose interfaces come from the type", async () => {
    const common = { device_type: ids.type, role: ids.role, site: ids.site, location: ids.location, rack: ids.rack, face: "front" };
    ids.leaf1 = (await create("/api/dcim/devices/", { ...common, name: "leaf1", position: 10 })).id;
    ids.leaf2 = (await create("/api/dcim/devices/", { ...common, name: "leaf2", position: 11 })).id;
    const clash = await api.post("/api/dcim/devices/", { ...common, name: "leaf3", position: 10 });
    expect(clash.status).toBe(400);
    for (const device of [ids.leaf1, ids.leaf2]) {
      const interfaces = await api.get(`/api/dcim/interfaces/?device_id=${device}&ordering=name`);
      expect(interfaces.body.results.map((i: { name: string }) => i.name)).toEqual(["em0", "et-0/0/0", "et-0/0/1"]);
    }
    const device = await api.get(`/api/dcim/devices/${ids.leaf1}/`);
    expect(device.body).toMatchObject({ interface_count: 3, rack: { id: ids.rack }, position: 10, face: { value: "front" } });
  });

  it("cables the two devices and traces the link", async () => {
    const port = async (device: number) =>
      (await api.get(`/api/dcim/interfaces/?device_id=${device}&name=et-0/0/0`)).body.results[0].id as number;
    ids.a = await port(ids.leaf1);
    ids.b = await port(ids.leaf2);
    const cable = await create("/api/dcim/cables/", {
      a_terminations: [{ object_type: "dcim.interface", object_id: ids.a }],
      b_terminations: [{ object_type: "dcim.interface", object_id: ids.b }],
      type: "smf",
      label: "leaf1-leaf2",
    });
    expect(cable.a_terminations[0]).toMatchObject({
      object_type: "dcim.interface",
      object_id: ids.a,
      object: { id: ids.a, name: "et-0/0/0" },
    });

    const a = (await api.get(`/api/dcim/interfaces/${ids.a}/`)).body;
    expect(a).toMatchObject({
      cable: { id: cable.id },
      _occupied: true,
      link_peers_type: "dcim.interface",
      connected_endpoints_type: "dcim.interface",
    });
    expect(a.link_peers.map((p: { id: number }) => p.id)).toEqual([ids.b]);
    expect(a.connected_endpoints.map((p: { id: number }) => p.id)).toEqual([ids.b]);

    const again = await api.post("/api/dcim/cables/", {
      a_terminations: [{ object_type: "dcim.interface", object_id: ids.a }],
      b_terminations: [{ object_type: "dcim.interface", object_id: ids.b }],
    });
    expect(again.status).toBe(400);

    const trace = await api.get(`/api/dcim/interfaces/${ids.a}/trace/`);
    expect(trace.status, trace.text).toBe(200);
    expect(trace.body).toHaveLength(1);
    const [[near, through, far]] = trace.body;
    expect(near.map((x: { id: number }) => x.id)).toEqual([ids.a]);
    expect(through).toMatchObject({ id: cable.id });
    expect(far.map((x: { id: number }) => x.id)).toEqual([ids.b]);
  });

  it("hands the devices a config context by role, local data on top", async () => {
    await create("/api/extras/config-contexts/", {
      name: "leaf-base",
      weight: 1000,
      roles: [ids.role],
      data: { ntp: ["10.0.0.1"], snmp: { community: "public" } },
    });
    await create("/api/extras/config-contexts/", {
      name: "everyone",
      weight: 100,
      data: { dns: ["10.0.0.53"], snmp: { location: "FRA1" } },
    });
    await api.patch(`/api/dcim/devices/${ids.leaf1}/`, { local_context_data: { snmp: { community: "private" } } });

    const leaf1 = (await api.get(`/api/dcim/devices/${ids.leaf1}/`)).body;
    expect(leaf1.config_context).toEqual({ dns: ["10.0.0.53"], ntp: ["10.0.0.1"], snmp: { community: "private", location: "FRA1" } });
    const leaf2 = (await api.get(`/api/dcim/devices/${ids.leaf2}/`)).body;
    expect(leaf2.config_context.snmp).toEqual({ community: "public", location: "FRA1" });

    const lean = await api.get(`/api/dcim/devices/?exclude=config_context`);
    expect(lean.body.results.every((d: Record<string, unknown>) => !("config_context" in d))).toBe(true);
  });

  it("lists every app's models at the roots", async () => {
    const root = (await api.get("/api/")).body;
    for (const app of ["circuits", "dcim", "extras", "tenancy", "users", "virtualization"]) expect(root[app]).toBeDefined();
    const dcim = (await api.get("/api/dcim/")).body;
    for (const path of ["locations", "racks", "cables", "interface-templates", "front-ports", "power-feeds", "virtual-chassis"]) {
      expect(Object.keys(dcim)).toContain(path);
    }
  });
});

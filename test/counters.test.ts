import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

/*
 * The counts NetBox stores in the counting row (a device's component counts, a virtual chassis'
 * members, a virtual machine's interfaces and disks): kept by triggers, whatever path adds,
 * removes or moves a counted row, and read as columns.
 */

let api: Harness;
const ids: Record<string, number> = {};
const DEVICES = "/api/dcim/devices/";
const IFACES = "/api/dcim/interfaces/";

const counts = async (id: number) => {
  const { body } = await api.get(`${DEVICES}${id}/`);
  return { interfaces: body.interface_count, consoles: body.console_port_count, bays: body.module_bay_count };
};

beforeAll(async () => {
  api = await createHarness();
  ids.site = await make(api, "/api/dcim/sites/", { name: "S", slug: "s" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "M", slug: "m" });
  ids.type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "T", slug: "t" });
  ids.role = await make(api, "/api/dcim/device-roles/", { name: "R", slug: "r" });
  await make(api, "/api/dcim/interface-templates/", { device_type: ids.type, name: "eth0", type: "1000base-t" });
  await make(api, "/api/dcim/interface-templates/", { device_type: ids.type, name: "eth1", type: "1000base-t" });
  await make(api, "/api/dcim/console-port-templates/", { device_type: ids.type, name: "con" });
  const device = (name: string) => ({ name, device_type: ids.type, role: ids.role, site: ids.site });
  ids.a = await make(api, DEVICES, device("a"));
  ids.b = await make(api, DEVICES, device("b"));
  ids.c = await make(api, DEVICES, device("c"));
});
afterAll(() => api.close());

describe("stored counts", () => {
  it("count the components a device type's templates gave a new device", async () => {
    expect(await counts(ids.a)).toEqual({ interfaces: 2, consoles: 1, bays: 0 });
    const created = await api.post(DEVICES, { name: "d", device_type: ids.type, role: ids.role, site: ids.site });
    expect(created.body).toMatchObject({ interface_count: 2, console_port_count: 1, power_port_count: 0 });
    expect((await api.delete(`${DEVICES}${created.body.id}/`)).status).toBe(204);
  });

  it("follow bulk creates, moves to another device, and deletes, one or in bulk", async () => {
    const made = await api.post(
      IFACES,
      ["x0", "x1", "x2"].map((name) => ({ device: ids.b, name, type: "virtual" })),
    );
    expect(made.status, made.text).toBe(201);
    expect((await counts(ids.b)).interfaces).toBe(5);
    const [x0, x1, x2] = made.body.map((i: { id: number }) => i.id);
    expect((await api.patch(`${IFACES}${x0}/`, { device: ids.c })).status).toBe(200);
    expect([(await counts(ids.b)).interfaces, (await counts(ids.c)).interfaces]).toEqual([4, 3]);
    expect(
      (
        await api.patch(IFACES, [
          { id: x1, device: ids.c },
          { id: x2, description: "same device" },
        ])
      ).status,
    ).toBe(200);
    expect([(await counts(ids.b)).interfaces, (await counts(ids.c)).interfaces]).toEqual([3, 4]);
    expect((await api.delete(`${IFACES}${x0}/`)).status).toBe(204);
    expect((await api.delete(IFACES, [{ id: x1 }, { id: x2 }])).status).toBe(204);
    expect([(await counts(ids.b)).interfaces, (await counts(ids.c)).interfaces]).toEqual([2, 2]);
  });

  it("are left as they were by a write that fails", async () => {
    const bad = await api.post(IFACES, [
      { device: ids.b, name: "ok", type: "virtual" },
      { device: ids.b, name: "bad", type: "no-such-type" },
    ]);
    expect(bad.status).toBe(400);
    expect((await counts(ids.b)).interfaces).toBe(2);
  });

  it("filter and order lists as the columns they are", async () => {
    await make(api, IFACES, { device: ids.c, name: "extra", type: "virtual" });
    const names = async (q: string) => (await api.get(`${DEVICES}?${q}`)).body.results.map((d: { name: string }) => d.name);
    expect(await names("interface_count__gte=3")).toEqual(["c"]);
    expect(await names("interface_count=2&ordering=name")).toEqual(["a", "b"]);
    expect(await names("ordering=-interface_count,name")).toEqual(["c", "a", "b"]);
    const { body } = await api.post("/graphql/", { query: `{ device_list(filters: {name: {exact: "c"}}) { interface_count } }` });
    expect(body).toEqual({ data: { device_list: [{ interface_count: 3 }] } });
  });

  it("are part of a device's change records, as NetBox's are", async () => {
    await api.patch(`${DEVICES}${ids.c}/`, { serial: "S-1" });
    const { body } = await api.get(`/api/core/object-changes/?changed_object_type=dcim.device&changed_object_id=${ids.c}&action=update`);
    expect(body.results[0].postchange_data).toMatchObject({ interface_count: 3, console_port_count: 1, serial: "S-1" });
  });

  it("count a virtual chassis' members and a virtual machine's interfaces and disks", async () => {
    const vc = await make(api, "/api/dcim/virtual-chassis/", { name: "stack" });
    await api.patch(DEVICES, [
      { id: ids.a, virtual_chassis: vc, vc_position: 1 },
      { id: ids.b, virtual_chassis: vc, vc_position: 2 },
    ]);
    expect((await api.get(`/api/dcim/virtual-chassis/${vc}/`)).body.member_count).toBe(2);
    await api.patch(`${DEVICES}${ids.b}/`, { virtual_chassis: null, vc_position: null });
    expect((await api.get(`/api/dcim/virtual-chassis/${vc}/`)).body.member_count).toBe(1);

    const vm = await make(api, "/api/virtualization/virtual-machines/", { name: "vm", site: ids.site });
    await api.post("/api/virtualization/interfaces/", [
      { virtual_machine: vm, name: "v0" },
      { virtual_machine: vm, name: "v1" },
    ]);
    await make(api, "/api/virtualization/virtual-disks/", { virtual_machine: vm, name: "root", size: 10 });
    expect((await api.get(`/api/virtualization/virtual-machines/${vm}/`)).body).toMatchObject({
      interface_count: 2,
      virtual_disk_count: 1,
    });
  });

  it("are filled in for the rows already there by the migration that adds them", async () => {
    const before = await counts(ids.c);
    const statements = readFileSync("migrations/0034_counter_caches.sql", "utf8")
      .split("\n")
      .filter((line) => line.startsWith("UPDATE") && line.includes("count(*)"));
    expect(statements).toHaveLength(13);
    await api.db.batch(
      [
        { sql: "UPDATE dcim_device SET interface_count = 0, console_port_count = 0", parameters: [] },
        ...statements.map((sql) => ({ sql, parameters: [] })),
      ],
      "write",
    );
    expect(await counts(ids.c)).toEqual(before);
    expect(before).toEqual({ interfaces: 3, consoles: 1, bays: 0 });
  });
});

/*
 * A site's counts of its racks, devices, virtual machines, prefixes and VLANs: NetBox computes them
 * as it reads, here they are kept in columns by the same triggers, and left out of change records.
 */
describe("a site's kept counts", () => {
  const SITES = "/api/dcim/sites/";
  const siteCounts = async (id: number) => {
    const { body } = await api.get(`${SITES}${id}/`);
    const listed = (await api.get(`${SITES}?id=${id}`)).body.results[0];
    const pick = (s: Record<string, unknown>) => ({
      racks: s.rack_count,
      devices: s.device_count,
      vms: s.virtualmachine_count,
      prefixes: s.prefix_count,
      vlans: s.vlan_count,
    });
    expect(pick(listed)).toEqual(pick(body));
    return pick(body);
  };

  it("follow creates, moves between sites, scope changes and deletes, one or in bulk", async () => {
    const t = await make(api, SITES, { name: "T", slug: "t" });
    const u = await make(api, SITES, { name: "U", slug: "u" });
    const racks = await api.post("/api/dcim/racks/", [
      { name: "r1", site: t },
      { name: "r2", site: t },
    ]);
    expect(racks.status, racks.text).toBe(201);
    const devices = await api.post(
      DEVICES,
      ["t1", "t2", "t3"].map((name) => ({ name, device_type: ids.type, role: ids.role, site: t })),
    );
    expect(devices.status, devices.text).toBe(201);
    await make(api, "/api/virtualization/virtual-machines/", { name: "tvm", site: t });
    const prefixes = await api.post("/api/ipam/prefixes/", [
      { prefix: "10.70.0.0/24", site: t },
      { prefix: "10.70.1.0/24", scope_type: "dcim.site", scope_id: t },
    ]);
    expect(prefixes.status, prefixes.text).toBe(201);
    await make(api, "/api/ipam/vlans/", { vid: 70, name: "v70", site: t });
    expect(await siteCounts(t)).toEqual({ racks: 2, devices: 3, vms: 1, prefixes: 2, vlans: 1 });

    const [d1, d2, d3] = devices.body.map((d: { id: number }) => d.id);
    const [p1, p2] = prefixes.body.map((p: { id: number }) => p.id);
    expect((await api.patch(`${DEVICES}${d1}/`, { site: u })).status).toBe(200);
    expect((await api.patch(`/api/ipam/prefixes/${p1}/`, { scope_type: "dcim.site", scope_id: u })).status).toBe(200);
    expect((await api.patch(`/api/ipam/prefixes/${p2}/`, { scope_type: null, scope_id: null })).status).toBe(200);
    expect((await api.delete(`/api/dcim/racks/${racks.body[0].id}/`)).status).toBe(204);
    expect(await siteCounts(t)).toEqual({ racks: 1, devices: 2, vms: 1, prefixes: 0, vlans: 1 });
    expect(await siteCounts(u)).toEqual({ racks: 0, devices: 1, vms: 0, prefixes: 1, vlans: 0 });

    expect((await api.delete(DEVICES, [{ id: d2 }, { id: d3 }])).status).toBe(204);
    expect((await siteCounts(t)).devices).toBe(0);
    const names = async (q: string) => (await api.get(`${SITES}?${q}`)).body.results.map((s: { slug: string }) => s.slug);
    expect(await names("slug=t&slug=u&ordering=-device_count")).toEqual(["u", "t"]);
  });

  it("are left out of a site's change records, as NetBox's are", async () => {
    const v = await make(api, SITES, { name: "V", slug: "v" });
    await make(api, DEVICES, { name: "v1", device_type: ids.type, role: ids.role, site: v });
    await api.patch(`${SITES}${v}/`, { description: "edited" });
    const { body } = await api.get(`/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${v}&action=update`);
    expect(body.results[0].postchange_data.description).toBe("edited");
    for (const key of ["device_count", "rack_count", "virtualmachine_count", "prefix_count", "vlan_count"])
      expect(body.results[0].postchange_data).not.toHaveProperty(key);
  });

  it("are filled in for the rows already there by the migration that adds them", async () => {
    const w = await make(api, SITES, { name: "W", slug: "w" });
    await make(api, DEVICES, { name: "w1", device_type: ids.type, role: ids.role, site: w });
    await make(api, "/api/dcim/racks/", { name: "wr", site: w });
    const before = await siteCounts(w);
    const fill = readFileSync("migrations/0037_site_counters.sql", "utf8");
    const update = fill.slice(fill.indexOf("UPDATE dcim_site SET virtualmachine_count = (SELECT"));
    await api.db.batch(
      [
        { sql: "UPDATE dcim_site SET device_count = 0, rack_count = 0, prefix_count = 0", parameters: [] },
        { sql: update, parameters: [] },
      ],
      "write",
    );
    expect(await siteCounts(w)).toEqual(before);
    expect(before).toMatchObject({ racks: 1, devices: 1 });
  });
});

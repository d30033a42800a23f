import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
let serial = 0;
const rack = (name: string, extra: Record<string, unknown> = {}) => make(api, "/api/dcim/racks/", { name, site: ids.a, ...extra });
/** A device body of type `type` in site A; `extra` places it. */
const dev = (type: string, extra: Record<string, unknown> = {}) => ({
  name: `d${++serial}`,
  device_type: ids[type],
  role: ids.role,
  site: ids.a,
  ...extra,
});
const post = (body: unknown) => api.post("/api/dcim/devices/", body);

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.a = await make(api, "/api/dcim/sites/", { name: "Alpha", slug: "alpha", region: ids.eu });
  ids.b = await make(api, "/api/dcim/sites/", { name: "Bravo", slug: "bravo" });
  ids.building = await make(api, "/api/dcim/locations/", { name: "Building", slug: "building", site: ids.a });
  ids.room = await make(api, "/api/dcim/locations/", { name: "Room", slug: "room", site: ids.a, parent: ids.building });
  ids.remote = await make(api, "/api/dcim/locations/", { name: "Remote", slug: "remote", site: ids.b });
  ids.maker = await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" });
  const type = (model: string, extra: Record<string, unknown>) =>
    make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model, slug: model.toLowerCase(), ...extra });
  ids.full1 = await type("Full1", { u_height: 1, is_full_depth: true });
  ids.full2 = await type("Full2", { u_height: 2, is_full_depth: true });
  ids.half1 = await type("Half1", { u_height: 1, is_full_depth: false });
  ids.half05 = await type("Half05", { u_height: 0.5, is_full_depth: false });
  ids.zero = await type("Zero", { u_height: 0 });
  ids.child = await type("Blade", { u_height: 0, subdevice_role: "child" });
  ids.role = await make(api, "/api/dcim/device-roles/", { name: "Server", slug: "server" });
});
afterAll(() => api.close());

describe("device placement in racks", () => {
  it("refuses a unit taken on the same face, and any face against a full-depth device", async () => {
    ids.r1 = await rack("R1", { u_height: 10 });
    expect((await post(dev("full1", { rack: ids.r1, position: 1, face: "front" }))).status).toBe(201);
    const rear = await post(dev("half1", { rack: ids.r1, position: 1, face: "rear" }));
    expect(rear).toMatchObject({
      status: 400,
      body: { position: ["U1.0 is already occupied or does not have sufficient space to accommodate this device type: Half1 (1.0U)"] },
    });
    // Half-depth devices share a unit from opposite faces, not from the same one.
    expect((await post(dev("half1", { rack: ids.r1, position: 3, face: "front" }))).status).toBe(201);
    expect((await post(dev("half1", { rack: ids.r1, position: 3, face: "rear" }))).status).toBe(201);
    expect((await post(dev("half1", { rack: ids.r1, position: 3, face: "front" }))).status).toBe(400);
    expect((await post(dev("full1", { rack: ids.r1, position: 3, face: "rear" }))).status).toBe(400);
    // A 2U device overlapping by one unit is refused too.
    expect((await post(dev("full2", { rack: ids.r1, position: 2, face: "front" }))).status).toBe(400);
  });

  it("places devices in half units and refuses positions between them", async () => {
    const r = await rack("Half", { u_height: 6 });
    expect((await post(dev("full1", { rack: r, position: 2.5, face: "front" }))).status).toBe(201);
    expect((await post(dev("full1", { rack: r, position: 3, face: "front" }))).status).toBe(400);
    expect((await post(dev("full1", { rack: r, position: 1.5, face: "front" }))).status).toBe(201);
    expect((await post(dev("half05", { rack: r, position: 3.5, face: "rear" }))).status).toBe(201);
    const between = await post(dev("full1", { rack: r, position: 5.25, face: "front" }));
    expect(between).toMatchObject({ status: 400, body: { position: ["Position must be in increments of 0.5 rack units."] } });
  });

  it("keeps devices within the rack's units, whatever its starting unit", async () => {
    const r = await rack("Short", { u_height: 5, starting_unit: 10 });
    expect((await post(dev("full1", { rack: r, position: 9, face: "front" }))).status).toBe(400);
    expect((await post(dev("full2", { rack: r, position: 14, face: "front" }))).status).toBe(400);
    expect((await post(dev("full1", { rack: r, position: 14, face: "front" }))).status).toBe(201);
    expect((await post(dev("full1", { rack: r, position: 10, face: "front" }))).status).toBe(201);
    expect((await post(dev("full2", { rack: r, position: 13.5, face: "rear" }))).status).toBe(400);
  });

  it("refuses a position for 0U and child device types, and a face for child types", async () => {
    const r = await rack("Zero", { u_height: 4 });
    expect(await post(dev("zero", { rack: r, position: 1, face: "front" }))).toMatchObject({
      status: 400,
      body: { position: ["A 0U device type (Zero) cannot be assigned to a rack position."] },
    });
    expect((await post(dev("zero", { rack: r, face: "rear" }))).status).toBe(201);
    expect(await post(dev("child", { rack: r, face: "front" }))).toMatchObject({
      status: 400,
      body: { face: ["Child device types cannot be assigned to a rack face. This is an attribute of the parent device."] },
    });
    expect((await post(dev("child", { rack: r }))).status).toBe(201);
  });

  it("needs a rack for a position or face, and a face for a position", async () => {
    expect(await post(dev("full1", { position: 1 }))).toMatchObject({
      status: 400,
      body: { position: ["Cannot select a rack position without assigning a rack."] },
    });
    expect(await post(dev("full1", { face: "front" }))).toMatchObject({
      status: 400,
      body: { face: ["Cannot select a rack face without assigning a rack."] },
    });
    expect(await post(dev("full1", { rack: ids.r1, position: 8 }))).toMatchObject({
      status: 400,
      body: { face: ["Must specify rack face when defining rack position."] },
    });
  });

  it("checks the objects of one bulk request against each other, all or none", async () => {
    const r = await rack("Bulk", { u_height: 4 });
    const before = (await api.get(`/api/dcim/devices/?rack_id=${r}`)).body.count;
    const clash = await post([dev("full1", { rack: r, position: 1, face: "front" }), dev("half1", { rack: r, position: 1, face: "rear" })]);
    expect(clash.status).toBe(400);
    expect(clash.body[0]).toEqual({});
    expect(clash.body[1].position[0]).toMatch(/^U1\.0 is already occupied/);
    expect((await api.get(`/api/dcim/devices/?rack_id=${r}`)).body.count).toBe(before);
    // Half-depth devices back to back in one request are fine.
    const pair = await post([dev("half1", { rack: r, position: 1, face: "front" }), dev("half1", { rack: r, position: 1, face: "rear" })]);
    expect(pair.status, pair.text).toBe(201);
    // A bulk update sees the earlier items' new places: the second moves into the unit the first left.
    const [x, y] = pair.body;
    const moved = await api.patch("/api/dcim/devices/", [
      { id: x.id, position: 3 },
      { id: y.id, face: "front" },
    ]);
    expect(moved.status, moved.text).toBe(200);
    const stacked = await api.patch("/api/dcim/devices/", [
      { id: x.id, position: 2 },
      { id: y.id, position: 2 },
    ]);
    expect(stacked.status).toBe(400);
    expect(stacked.body[1].position).toBeDefined();
    expect((await api.get(`/api/dcim/devices/${x.id}/`)).body.position).toBe(3);
  });

  it("moves a device within its rack without colliding with itself", async () => {
    const r = await rack("Self", { u_height: 4 });
    const d = (await post(dev("full2", { rack: r, position: 1, face: "front" }))).body;
    const up = await api.patch(`/api/dcim/devices/${d.id}/`, { position: 2 });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ position: 2, face: { value: "front", label: "Front" }, rack: { id: r, name: "Self" } });
  });
});

describe("site, location and rack consistency", () => {
  it("keeps a device's rack and location in its site, and its rack in its location", async () => {
    expect(await post(dev("full1", { site: ids.b, rack: ids.r1 }))).toMatchObject({
      status: 400,
      body: { rack: ["Rack R1 does not belong to site Bravo."] },
    });
    expect(await post(dev("full1", { location: ids.remote }))).toMatchObject({
      status: 400,
      body: { location: ["Location Remote does not belong to site Alpha."] },
    });
    const inRoom = await rack("Roomed", { location: ids.room });
    expect(await post(dev("full1", { location: ids.building, rack: inRoom }))).toMatchObject({
      status: 400,
      body: { rack: ["Rack Roomed does not belong to location Building."] },
    });
    // A racked device without a location stands in its rack's.
    const racked = await post(dev("full1", { rack: inRoom }));
    expect(racked.status, racked.text).toBe(201);
    expect(racked.body.location).toMatchObject({ id: ids.room, name: "Room" });
  });

  it("keeps a location's parent and a rack's location in the same site", async () => {
    const stray = await api.post("/api/dcim/locations/", { name: "Stray", slug: "stray", site: ids.b, parent: ids.building });
    expect(stray).toMatchObject({ status: 400, body: { __all__: ["Parent location (Building) must belong to the same site (Bravo)."] } });
    const r = await api.post("/api/dcim/racks/", { name: "Astray", site: ids.a, location: ids.remote });
    expect(r).toMatchObject({ status: 400, body: { location: ["Location must be from the same site, Alpha."] } });
  });

  it("moves a rack's devices along when the rack moves", async () => {
    const r = await rack("Mover");
    const d = (await post(dev("full1", { rack: r, position: 1, face: "front" }))).body;
    const moved = await api.patch(`/api/dcim/racks/${r}/`, { location: ids.building });
    expect(moved.status, moved.text).toBe(200);
    expect((await api.get(`/api/dcim/devices/${d.id}/`)).body.location).toMatchObject({ id: ids.building });
  });

  it("moves everything inside a location along when it moves to another site", async () => {
    const site = await make(api, "/api/dcim/sites/", { name: "Charlie", slug: "charlie" });
    const wing = await make(api, "/api/dcim/locations/", { name: "Wing", slug: "wing", site: ids.a });
    const bay = await make(api, "/api/dcim/locations/", { name: "Bay", slug: "bay", site: ids.a, parent: wing });
    const r = await rack("Bay rack", { location: bay });
    const d = (await post(dev("full1", { rack: r }))).body;
    const panel = await make(api, "/api/dcim/power-panels/", { site: ids.a, name: "Bay panel", location: bay });
    const moved = await api.patch(`/api/dcim/locations/${wing}/`, { site });
    expect(moved.status, moved.text).toBe(200);
    expect((await api.get(`/api/dcim/locations/${bay}/`)).body.site.id).toBe(site);
    expect((await api.get(`/api/dcim/racks/${r}/`)).body.site.id).toBe(site);
    expect((await api.get(`/api/dcim/devices/${d.id}/`)).body.site.id).toBe(site);
    expect((await api.get(`/api/dcim/power-panels/${panel}/`)).body.site.id).toBe(site);
    expect((await api.get(`/api/dcim/sites/${site}/`)).body).toMatchObject({ rack_count: 1, device_count: 1 });
  });

  it("refuses to shrink a rack or raise its first unit below its devices", async () => {
    const r = await rack("Tall", { u_height: 10 });
    await make(api, "/api/dcim/devices/", dev("full2", { rack: r, position: 8, face: "front" }));
    await make(api, "/api/dcim/devices/", dev("full1", { rack: r, position: 2, face: "rear" }));
    expect(await api.patch(`/api/dcim/racks/${r}/`, { u_height: 8 })).toMatchObject({
      status: 400,
      body: { u_height: ["Rack must be at least 9.0U tall to house currently installed devices."] },
    });
    expect((await api.patch(`/api/dcim/racks/${r}/`, { u_height: 9 })).status).toBe(200);
    expect(await api.patch(`/api/dcim/racks/${r}/`, { starting_unit: 3 })).toMatchObject({
      status: 400,
      body: { starting_unit: ["Rack unit numbering must begin at 2.0 or less to house currently installed devices."] },
    });
  });

  it("refuses a taller device type where a mounted instance has no room, and 0U while mounted", async () => {
    const type = await make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model: "Grow", slug: "grow", u_height: 1 });
    const r = await rack("Grow", { u_height: 4 });
    const grower = (await post(dev("full1", { device_type: type, rack: r, position: 1, face: "front" }))).body;
    await make(api, "/api/dcim/devices/", dev("full1", { rack: r, position: 2, face: "front" }));
    expect(await api.patch(`/api/dcim/device-types/${type}/`, { u_height: 2 })).toMatchObject({
      status: 400,
      body: { u_height: [`Device ${grower.name} in rack Grow does not have sufficient space to accommodate a height of 2.0U`] },
    });
    expect(await api.patch(`/api/dcim/device-types/${type}/`, { u_height: 0 })).toMatchObject({
      status: 400,
      body: { u_height: ["Unable to set 0U height: Found 1 instances already mounted within racks."] },
    });
    expect((await api.patch(`/api/dcim/device-types/${type}/`, { description: "unchanged height" })).status).toBe(200);
  });

  it("copies a rack type's physical attributes to its racks", async () => {
    const type = await make(api, "/api/dcim/rack-types/", {
      manufacturer: ids.maker,
      model: "Cab",
      slug: "cab",
      form_factor: "4-post-cabinet",
      u_height: 24,
      width: 23,
      desc_units: true,
    });
    const r = await api.post("/api/dcim/racks/", { name: "Typed", site: ids.a, rack_type: type, u_height: 48 });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      u_height: 24,
      width: { value: 23, label: "23 inches" },
      desc_units: true,
      form_factor: { value: "4-post-cabinet" },
    });
    expect(await api.post("/api/dcim/racks/", { name: "Heavy", site: ids.a, max_weight: 100 })).toMatchObject({
      status: 400,
      body: { __all__: ["Must specify a unit when setting a maximum weight"] },
    });
  });
});

describe("counts", () => {
  it("come from SQL: sites, locations (with sub-locations), racks, roles, panels", async () => {
    const role = await make(api, "/api/dcim/rack-roles/", { name: "Counted", slug: "counted" });
    const site = await make(api, "/api/dcim/sites/", { name: "Count site", slug: "count-site" });
    const top = await make(api, "/api/dcim/locations/", { name: "Top", slug: "top", site });
    const sub = await make(api, "/api/dcim/locations/", { name: "Sub", slug: "sub", site, parent: top });
    const r1 = await make(api, "/api/dcim/racks/", { name: "C1", site, location: sub, role });
    await make(api, "/api/dcim/racks/", { name: "C2", site, role });
    await make(api, "/api/dcim/devices/", dev("full1", { site, rack: r1 }));
    await make(api, "/api/dcim/devices/", dev("full1", { site, location: top }));
    await make(api, "/api/dcim/devices/", dev("full1", { site }));
    const panel = await make(api, "/api/dcim/power-panels/", { site, name: "Panel" });
    await make(api, "/api/dcim/power-feeds/", { power_panel: panel, name: "A", rack: r1 });
    await make(api, "/api/dcim/power-feeds/", { power_panel: panel, name: "B" });
    expect((await api.get(`/api/dcim/sites/${site}/`)).body).toMatchObject({ rack_count: 2, device_count: 3 });
    expect((await api.get(`/api/dcim/locations/${top}/`)).body).toMatchObject({ rack_count: 1, device_count: 2 });
    expect((await api.get(`/api/dcim/locations/${sub}/?brief=1`)).body).toMatchObject({ rack_count: 1, _depth: 1 });
    expect((await api.get(`/api/dcim/racks/${r1}/`)).body).toMatchObject({ device_count: 1, powerfeed_count: 1 });
    expect((await api.get(`/api/dcim/rack-roles/${role}/`)).body.rack_count).toBe(2);
    expect((await api.get(`/api/dcim/power-panels/${panel}/`)).body.powerfeed_count).toBe(2);
    expect((await api.get(`/api/dcim/racks/?site_id=${site}&ordering=-device_count`)).body.results.map((x: any) => x.name)).toEqual([
      "C1",
      "C2",
    ]);
  });
});

describe("virtual chassis", () => {
  it("take their master in as member 1 and list their members", async () => {
    const master = (await post(dev("full1"))).body;
    const vc = await api.post("/api/dcim/virtual-chassis/", { name: "stack", master: master.id });
    expect(vc.status, vc.text).toBe(201);
    const joined = (await api.get(`/api/dcim/devices/${master.id}/`)).body;
    expect(joined).toMatchObject({ virtual_chassis: { id: vc.body.id, name: "stack" }, vc_position: 1 });
    const second = await post(dev("full1", { virtual_chassis: vc.body.id, vc_position: 2, vc_priority: 10 }));
    expect(second.status, second.text).toBe(201);
    const read = (await api.get(`/api/dcim/virtual-chassis/${vc.body.id}/`)).body;
    expect(read.member_count).toBe(2);
    expect(read.members.map((m: any) => m.id).sort()).toEqual([master.id, second.body.id].sort());
    expect(read.master).toMatchObject({ id: master.id, name: master.name });
    expect((await api.get(`/api/dcim/devices/?virtual_chassis_id=${vc.body.id}`)).body.count).toBe(2);
    expect((await api.get(`/api/dcim/devices/?vc_position=2&virtual_chassis_member=true`)).body.results.map((d: any) => d.id)).toEqual([
      second.body.id,
    ]);
    ids.vc = vc.body.id;
    ids.master = master.id;
    ids.member = second.body.id;
  });

  it("refuse a taken or missing position, removing the master, and a master from outside", async () => {
    expect(await post(dev("full1", { virtual_chassis: ids.vc, vc_position: 2 }))).toMatchObject({
      status: 400,
      body: { __all__: ["Device with this Virtual chassis and VC position already exists."] },
    });
    const twins = await post([
      dev("full1", { virtual_chassis: ids.vc, vc_position: 5 }),
      dev("full1", { virtual_chassis: ids.vc, vc_position: 5 }),
    ]);
    expect(twins.status).toBe(400);
    expect(twins.body[1]).toEqual({ __all__: ["Device with this Virtual chassis and VC position already exists."] });
    expect(await post(dev("full1", { virtual_chassis: ids.vc }))).toMatchObject({
      status: 400,
      body: { vc_position: ["A device assigned to a virtual chassis must have its position defined."] },
    });
    expect(await api.patch(`/api/dcim/devices/${ids.master}/`, { virtual_chassis: null })).toMatchObject({
      status: 400,
      body: { virtual_chassis: ["Device cannot be removed from virtual chassis stack because it is currently designated as its master."] },
    });
    const outsider = (await post(dev("full1"))).body;
    expect(await api.patch(`/api/dcim/virtual-chassis/${ids.vc}/`, { master: outsider.id })).toMatchObject({
      status: 400,
      body: { master: [`The selected master (${outsider.name}) is not assigned to this virtual chassis.`] },
    });
    expect((await api.patch(`/api/dcim/virtual-chassis/${ids.vc}/`, { master: ids.member })).status).toBe(200);
  });
});

describe("rack reservations", () => {
  it("reserve units the rack has, once", async () => {
    const r = await rack("Reserved", { u_height: 10 });
    const user = (await api.get("/api/users/users/?limit=1")).body.results[0].id;
    const reserve = (units: unknown, extra: Record<string, unknown> = {}) =>
      api.post("/api/dcim/rack-reservations/", { rack: r, units, user, description: "maintenance", ...extra });
    expect(await reserve([9, 10, 11, 12])).toMatchObject({ status: 400, body: { units: ["Invalid unit(s) for 10U rack: 11, 12"] } });
    const first = await reserve([1, 2]);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ units: [1, 2], display: "Reservation for rack Reserved", user: { id: user } });
    expect(await reserve([2, 3])).toMatchObject({ status: 400, body: { units: ["The following units have already been reserved: 2"] } });
    const bulk = await api.post("/api/dcim/rack-reservations/", [
      { rack: r, units: [4], user, description: "a" },
      { rack: r, units: [4, 5], user, description: "b" },
    ]);
    expect(bulk.status).toBe(400);
    expect(bulk.body[1]).toEqual({ units: ["The following units have already been reserved: 4"] });
    expect((await api.patch(`/api/dcim/rack-reservations/${first.body.id}/`, { units: [1, 2, 3] })).status).toBe(200);
    expect((await api.get(`/api/dcim/rack-reservations/?unit=3&rack_id=${r}`)).body.count).toBe(1);
    expect((await api.get(`/api/dcim/rack-reservations/?unit=7&rack_id=${r}`)).body.count).toBe(0);
    expect(await reserve(["x"])).toMatchObject({ status: 400, body: { units: ["A valid integer is required."] } });
  });
});

describe("power", () => {
  it("keeps a feed's rack in its panel's site, and AC voltage positive", async () => {
    const panel = await make(api, "/api/dcim/power-panels/", { site: ids.b, name: "Bravo panel" });
    const feed = await api.post("/api/dcim/power-feeds/", { power_panel: panel, name: "X", rack: ids.r1 });
    expect(feed).toMatchObject({
      status: 400,
      body: { __all__: ["Rack R1 (Alpha) and power panel Bravo panel (Bravo) are in different sites."] },
    });
    expect(await api.post("/api/dcim/power-feeds/", { power_panel: panel, name: "Y", voltage: -48 })).toMatchObject({
      status: 400,
      body: { voltage: ["Voltage cannot be negative for AC supply"] },
    });
    const dc = await api.post("/api/dcim/power-feeds/", {
      power_panel: panel,
      name: "Z",
      voltage: -48,
      supply: "dc",
      amperage: 10,
      max_utilization: 50,
    });
    expect(dc.status, dc.text).toBe(201);
    expect(dc.body).toMatchObject({
      status: { value: "active" },
      type: { value: "primary" },
      phase: { value: "single-phase" },
      mark_connected: false,
    });
    expect((await api.get("/api/dcim/power-feeds/?available_power=240")).body.results.map((f: any) => f.id)).toEqual([dc.body.id]);
    expect(await api.post("/api/dcim/power-panels/", { site: ids.a, name: "Far", location: ids.remote })).toMatchObject({
      status: 400,
      body: { __all__: ["Location Remote (Bravo) is in a different site than Alpha"] },
    });
  });
});

describe("filters", () => {
  it("find devices and racks by placement, location trees and regions", async () => {
    const names = async (q: string) => (await api.get(`${q}&limit=0`)).body.results.map((x: any) => x.name).sort();
    expect(await names(`/api/dcim/devices/?rack_id=${ids.r1}&face=rear`)).toHaveLength(1);
    expect((await names(`/api/dcim/devices/?rack_id=${ids.r1}&position__gte=3`)).length).toBe(2);
    expect(await names(`/api/dcim/racks/?location=building`)).toEqual(expect.arrayContaining(["Mover", "Roomed"]));
    expect(await names(`/api/dcim/racks/?location_id=${ids.room}`)).toEqual(["Roomed"]);
    expect((await names(`/api/dcim/devices/?location_id=${ids.building}`)).length).toBeGreaterThanOrEqual(2);
    expect(await names(`/api/dcim/racks/?region=eu&name=R1`)).toEqual(["R1"]);
    expect((await api.get("/api/dcim/racks/?location=nowhere")).status).toBe(400);
  });
});

describe("rack elevation", () => {
  it("lists the units top down with the device on each, by face", async () => {
    const r = await rack("Elevated", { u_height: 3 });
    const full = (await post(dev("full2", { rack: r, position: 1, face: "front" }))).body;
    const half = (await post(dev("half1", { rack: r, position: 3, face: "rear" }))).body;
    const front = await api.get(`/api/dcim/racks/${r}/elevation/?face=front`);
    expect(front.status, front.text).toBe(200);
    expect(front.body.count).toBe(6);
    expect(front.body.results.map((u: any) => u.name)).toEqual(["U3.5", "U3", "U2.5", "U2", "U1.5", "U1"]);
    expect(front.body.results.map((u: any) => u.occupied)).toEqual([false, false, true, true, true, true]);
    expect(front.body.results[5]).toMatchObject({
      id: 1,
      face: { value: "front", label: "Front" },
      device: { id: full.id, name: full.name },
    });
    const rear = await api.get(`/api/dcim/racks/${r}/elevation/?face=rear&expand_devices=false`);
    // Collapsed: one entry per device at its lowest unit; the half units it covers are left out.
    expect(rear.body.results.map((u: any) => [u.name, u.device?.id ?? null])).toEqual([
      ["U3", half.id],
      ["U1", full.id],
    ]);
    expect((await api.get(`/api/dcim/racks/${r}/elevation/?face=side`)).body).toEqual({ face: ['"side" is not a valid choice.'] });
    expect((await api.get(`/api/dcim/racks/999999/elevation/`)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Driver, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
let seq = 0;
const ids: Record<string, number> = {};

/** A device with `n` interfaces; returns the device id and the interface ids. */
async function deviceWithInterfaces(name: string, n: number, site = ids.site) {
  const device = await make(api, "/api/dcim/devices/", { name, device_type: ids.type, role: ids.role, site });
  const made = await api.post(
    "/api/dcim/interfaces/",
    Array.from({ length: n }, (_, i) => ({ device, name: `eth${i}`, type: "1000base-t" })),
  );
  expect(made.status, made.text).toBe(201);
  return { device, ifaces: made.body.map((o: any) => o.id as number) as number[] };
}

const ends = (type: string, ...objectIds: number[]) => objectIds.map((object_id) => ({ object_type: type, object_id }));
const cable = (a: ReturnType<typeof ends>, b: ReturnType<typeof ends>, extra: Record<string, unknown> = {}) => ({
  a_terminations: a,
  b_terminations: b,
  ...extra,
});

beforeAll(async () => {
  api = await createHarness();
  ids.site = await make(api, "/api/dcim/sites/", { name: "DC1", slug: "dc1" });
  ids.site2 = await make(api, "/api/dcim/sites/", { name: "DC2", slug: "dc2" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
  ids.type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Box", slug: "box" });
  ids.role = await make(api, "/api/dcim/device-roles/", { name: "Switch", slug: "switch" });
});
afterAll(() => api.close());

describe("cables between interfaces", () => {
  it("connect two interfaces: cable, link peers, _occupied and connected endpoints on both", async () => {
    const a = await deviceWithInterfaces(`a${++seq}`, 1);
    const b = await deviceWithInterfaces(`b${seq}`, 1);
    const created = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", b.ifaces[0]), { type: "cat6", label: "X1" }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ type: "cat6", label: "X1", display: "X1", status: { value: "connected", label: "Connected" } });
    expect(created.body.a_terminations).toEqual([
      {
        object_type: "dcim.interface",
        object_id: a.ifaces[0],
        object: expect.objectContaining({ id: a.ifaces[0], name: "eth0", url: `${ORIGIN}/api/dcim/interfaces/${a.ifaces[0]}/` }),
      },
    ]);
    expect(created.body.b_terminations[0].object.device).toMatchObject({ id: b.device, name: `b${seq}` });

    const near = (await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`)).body;
    const far = (await api.get(`/api/dcim/interfaces/${b.ifaces[0]}/`)).body;
    expect(near.cable).toEqual({
      id: created.body.id,
      url: `${ORIGIN}/api/dcim/cables/${created.body.id}/`,
      display: "X1",
      label: "X1",
      description: "",
    });
    expect([near.cable_end, far.cable_end]).toEqual(["A", "B"]);
    expect([near._occupied, far._occupied]).toEqual([true, true]);
    expect(near.link_peers_type).toBe("dcim.interface");
    expect(near.link_peers).toEqual([
      expect.objectContaining({ id: b.ifaces[0], name: "eth0", device: expect.objectContaining({ id: b.device }) }),
    ]);
    expect(far.link_peers.map((p: any) => p.id)).toEqual([a.ifaces[0]]);
    expect(near.connected_endpoints_type).toBe("dcim.interface");
    expect(near.connected_endpoints.map((p: any) => p.id)).toEqual([b.ifaces[0]]);
    expect(far.connected_endpoints.map((p: any) => p.id)).toEqual([a.ifaces[0]]);
    expect([near.connected_endpoints_reachable, far.connected_endpoints_reachable]).toEqual([true, true]);
    // The three path fields share one computation, whichever of them a client selects.
    const only = await api.get(`/api/dcim/interfaces/?id=${a.ifaces[0]}&fields=connected_endpoints_type`);
    expect(only.body.results).toEqual([{ connected_endpoints_type: "dcim.interface" }]);
  });

  it("leave an uncabled interface with empty cable fields", async () => {
    const a = await deviceWithInterfaces(`lone${++seq}`, 1);
    const reply = await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`);
    expect(reply.body).toMatchObject({
      cable: null,
      cable_end: null,
      link_peers: [],
      link_peers_type: null,
      _occupied: false,
      connected_endpoints: null,
      connected_endpoints_type: null,
      connected_endpoints_reachable: null,
    });
    expect((await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/trace/`)).body).toEqual([]);
  });

  it("show a planned cable's far end as connected but not reachable", async () => {
    const a = await deviceWithInterfaces(`p${++seq}`, 1);
    const b = await deviceWithInterfaces(`q${seq}`, 1);
    const reply = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", b.ifaces[0]), { status: "planned" }),
    );
    expect(reply.status, reply.text).toBe(201);
    const near = (await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`)).body;
    expect(near.connected_endpoints.map((p: any) => p.id)).toEqual([b.ifaces[0]]);
    expect(near.connected_endpoints_reachable).toBe(false);
    const connected = async (v: string) => (await api.get(`/api/dcim/interfaces/?device_id=${a.device}&connected=${v}`)).body.count;
    expect([await connected("true"), await connected("false")]).toEqual([0, 1]);
  });
});

describe("cable validation", () => {
  it("refuses an occupied endpoint, as NetBox words it for the whole cable, and changes nothing", async () => {
    const a = await deviceWithInterfaces(`occ${++seq}`, 3);
    const first = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1])));
    expect(first.status, first.text).toBe(201);
    const before = (await api.get("/api/dcim/cables/")).body.count;
    const second = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[2]), ends("dcim.interface", a.ifaces[1])));
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ __all__: [`Duplicate termination found for dcim.interface ${a.ifaces[1]}: cable ${first.body.id}`] });
    expect((await api.get("/api/dcim/cables/")).body.count).toBe(before);
    expect((await api.get(`/api/dcim/interfaces/${a.ifaces[2]}/`)).body._occupied).toBe(false);
  });

  it("refuses an endpoint marked as connected", async () => {
    const a = await deviceWithInterfaces(`mk${++seq}`, 2);
    await api.patch(`/api/dcim/interfaces/${a.ifaces[0]}/`, { mark_connected: true });
    expect((await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`)).body._occupied).toBe(true);
    const reply = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1])));
    expect(reply.status).toBe(400);
    expect(reply.body.__all__[0]).toContain("marked as connected");
  });

  it("refuses two cables to one endpoint in one bulk request, all or none", async () => {
    const a = await deviceWithInterfaces(`bulk${++seq}`, 3);
    const before = (await api.get("/api/dcim/cables/")).body.count;
    const reply = await api.post("/api/dcim/cables/", [
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1])),
      cable(ends("dcim.interface", a.ifaces[2]), ends("dcim.interface", a.ifaces[1])),
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body[0]).toEqual({});
    expect(Object.keys(reply.body[1])).toEqual(["__all__"]);
    expect((await api.get("/api/dcim/cables/")).body.count).toBe(before);
  });

  it("refuses incompatible types, mixed types on one end, empty ends and unknown objects", async () => {
    const a = await deviceWithInterfaces(`ty${++seq}`, 2);
    const rear = await make(api, "/api/dcim/rear-ports/", { device: a.device, name: "r1", type: "lc", positions: 1 });
    const power = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.powerport", 1)));
    expect(power.status).toBe(400);
    expect(power.body.b_terminations).toBeDefined();
    const mixed = await api.post(
      "/api/dcim/cables/",
      cable([...ends("dcim.interface", a.ifaces[0]), ...ends("dcim.rearport", rear)], ends("dcim.interface", a.ifaces[1])),
    );
    expect(mixed).toMatchObject({
      status: 400,
      body: { __all__: ["Cannot connect different termination types to the same end of a cable."] },
    });
    const empty = await api.post("/api/dcim/cables/", cable([], ends("dcim.interface", a.ifaces[1])));
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ __all__: ["Must define A and B terminations when creating a new cable."] });
    const missing = await api.post("/api/dcim/cables/", { b_terminations: ends("dcim.interface", a.ifaces[1]) });
    expect(missing.body.__all__).toEqual(["Must define A and B terminations when creating a new cable."]);
    const unknown = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", 999999), ends("dcim.interface", a.ifaces[1])));
    expect(unknown.status).toBe(400);
    expect(unknown.body.a_terminations[0]).toContain("999999");
    const badType = await api.post(
      "/api/dcim/cables/",
      cable([{ object_type: "dcim.site", object_id: ids.site }], ends("dcim.interface", a.ifaces[1])),
    );
    expect(badType.status).toBe(400);
    const self = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[0])));
    expect(self.status).toBe(400);
    const virtual = await make(api, "/api/dcim/interfaces/", { device: a.device, name: "vlan10", type: "virtual" });
    const toVirtual = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", virtual), ends("dcim.interface", a.ifaces[1])));
    expect(toVirtual.status).toBe(400);
    const badChoice = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1]), { type: "string" }),
    );
    expect(badChoice.body).toEqual({ type: ['"string" is not a valid choice.'] });
    const noUnit = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1]), { length: 3 }),
    );
    expect(noUnit.body).toEqual({ length_unit: ["Must specify a unit when setting a cable length."] });
    // A rear port can take an interface.
    expect((await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.rearport", rear)))).status).toBe(201);
  });
});

describe("changing and deleting cables", () => {
  it("moves one end on PATCH, freeing the old endpoint", async () => {
    const a = await deviceWithInterfaces(`mv${++seq}`, 3);
    const made = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1])));
    const moved = await api.patch(`/api/dcim/cables/${made.body.id}/`, { b_terminations: ends("dcim.interface", a.ifaces[2]) });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.a_terminations.map((t: any) => t.object_id)).toEqual([a.ifaces[0]]);
    expect(moved.body.b_terminations.map((t: any) => t.object_id)).toEqual([a.ifaces[2]]);
    expect((await api.get(`/api/dcim/interfaces/${a.ifaces[1]}/`)).body.cable).toBeNull();
    expect((await api.get(`/api/dcim/interfaces/${a.ifaces[2]}/`)).body.cable.id).toBe(made.body.id);
    // Keeping an end it already holds is no conflict.
    const same = await api.patch(`/api/dcim/cables/${made.body.id}/`, {
      a_terminations: ends("dcim.interface", a.ifaces[0]),
      label: "kept",
    });
    expect(same.status, same.text).toBe(200);
  });

  it("deleting a cable frees both endpoints", async () => {
    const a = await deviceWithInterfaces(`del${++seq}`, 2);
    const made = await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", a.ifaces[1])));
    expect((await api.delete(`/api/dcim/cables/${made.body.id}/`)).status).toBe(204);
    const list = (await api.get(`/api/dcim/interfaces/?device_id=${a.device}`)).body.results;
    expect(list.map((i: any) => [i.cable, i._occupied, i.link_peers])).toEqual([
      [null, false, []],
      [null, false, []],
    ]);
    expect((await api.get(`/api/dcim/interfaces/?device_id=${a.device}&cabled=true`)).body.count).toBe(0);
  });

  it("deleting an endpoint removes its termination, and a cable left with an empty end", async () => {
    const a = await deviceWithInterfaces(`ep${++seq}`, 3);
    const b = await deviceWithInterfaces(`eq${seq}`, 1);
    const two = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0], a.ifaces[1]), ends("dcim.interface", b.ifaces[0])),
    );
    expect(two.status, two.text).toBe(201);
    expect((await api.delete(`/api/dcim/interfaces/${a.ifaces[0]}/`)).status).toBe(204);
    const kept = await api.get(`/api/dcim/cables/${two.body.id}/`);
    expect(kept.body.a_terminations.map((t: any) => t.object_id)).toEqual([a.ifaces[1]]);
    // The device goes with its interfaces: the cable loses its only A end and goes too.
    expect((await api.delete(`/api/dcim/devices/${a.device}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/cables/${two.body.id}/`)).status).toBe(404);
    const far = (await api.get(`/api/dcim/interfaces/${b.ifaces[0]}/`)).body;
    expect([far.cable, far._occupied]).toEqual([null, false]);
  });
});

describe("filters", () => {
  it("filter endpoints by cabled, occupied and cable, and cables by device, site and termination", async () => {
    const a = await deviceWithInterfaces(`fa${++seq}`, 3, ids.site2);
    const b = await deviceWithInterfaces(`fb${seq}`, 1);
    const made = await api.post(
      "/api/dcim/cables/",
      cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.interface", b.ifaces[0]), { color: "aa0000" }),
    );
    await api.patch(`/api/dcim/interfaces/${a.ifaces[1]}/`, { mark_connected: true });
    const names = async (q: string) =>
      (await api.get(`/api/dcim/interfaces/?device_id=${a.device}&${q}`)).body.results.map((i: any) => i.id);
    expect(await names("cabled=true")).toEqual([a.ifaces[0]]);
    expect(await names("cabled=false")).toEqual([a.ifaces[1], a.ifaces[2]]);
    expect(await names("occupied=true")).toEqual([a.ifaces[0], a.ifaces[1]]);
    expect(await names(`cable_id=${made.body.id}`)).toEqual([a.ifaces[0]]);
    expect(await names("cable_end=A")).toEqual([a.ifaces[0]]);
    const cables = async (q: string) => (await api.get(`/api/dcim/cables/?${q}`)).body.results.map((c: any) => c.id);
    expect(await cables(`device_id=${a.device}`)).toEqual([made.body.id]);
    expect(await cables(`device=fa${seq}`)).toEqual([made.body.id]);
    expect(await cables("site=dc2")).toEqual([made.body.id]);
    expect(await cables(`site_id=${ids.site2}`)).toEqual([made.body.id]);
    expect(await cables(`interface_id=${b.ifaces[0]}`)).toEqual([made.body.id]);
    expect(await cables(`termination_a_type=dcim.interface&termination_a_id=${a.ifaces[0]}`)).toEqual([made.body.id]);
    expect(await cables(`termination_b_id=${a.ifaces[0]}`)).toEqual([]);
    expect(await cables("color=aa0000")).toEqual([made.body.id]);
  });
});

describe("trace", () => {
  it("follows interface -> front -> rear == cable == rear -> front -> interface", async () => {
    const a = await deviceWithInterfaces(`ta${++seq}`, 1);
    const z = await deviceWithInterfaces(`tz${seq}`, 1);
    const panelA = await make(api, "/api/dcim/devices/", { name: `panel-a${seq}`, device_type: ids.type, role: ids.role, site: ids.site });
    const panelZ = await make(api, "/api/dcim/devices/", { name: `panel-z${seq}`, device_type: ids.type, role: ids.role, site: ids.site });
    // Trunk rear ports with four positions; the path uses position 3 on both sides.
    const rearA = await make(api, "/api/dcim/rear-ports/", { device: panelA, name: "trunk", type: "mpo", positions: 4 });
    const rearZ = await make(api, "/api/dcim/rear-ports/", { device: panelZ, name: "trunk", type: "mpo", positions: 4 });
    const fronts = async (device: number, rear: number) =>
      (
        await api.post(
          "/api/dcim/front-ports/",
          [1, 2, 3, 4].map((p) => ({
            device,
            name: `f${p}`,
            type: "lc",
            rear_port: rear,
            rear_port_position: p,
          })),
        )
      ).body.map((o: any) => o.id as number);
    const frontA = await fronts(panelA, rearA);
    const frontZ = await fronts(panelZ, rearZ);
    const c1 = (await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.frontport", frontA[2])))).body;
    const trunk = (
      await api.post(
        "/api/dcim/cables/",
        cable(ends("dcim.rearport", rearA), ends("dcim.rearport", rearZ), { type: "smf", label: "trunk" }),
      )
    ).body;
    // Before the last cable the path stops at the far front port: incomplete, nothing connected.
    const partial = (await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`)).body;
    expect([partial.connected_endpoints, partial.connected_endpoints_reachable]).toEqual([null, false]);
    const c3 = (await api.post("/api/dcim/cables/", cable(ends("dcim.frontport", frontZ[2]), ends("dcim.interface", z.ifaces[0])))).body;
    expect([c1.id, trunk.id, c3.id].every(Boolean)).toBe(true);

    const reply = await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/trace/`);
    expect(reply.status, reply.text).toBe(200);
    const ids_ = reply.body.map(([near, c, far]: any[]) => [near.map((o: any) => o.id), c?.id ?? null, far.map((o: any) => o.id)]);
    expect(ids_).toEqual([
      [[a.ifaces[0]], c1.id, [frontA[2]]],
      [[rearA], trunk.id, [rearZ]],
      [[frontZ[2]], c3.id, [z.ifaces[0]]],
    ]);
    expect(reply.body[1][1]).toMatchObject({
      id: trunk.id,
      url: `${ORIGIN}/api/dcim/cables/${trunk.id}/`,
      type: "smf",
      status: "connected",
      label: "trunk",
    });
    expect(reply.body[0][2][0]).toMatchObject({ name: "f3", device: expect.objectContaining({ id: panelA }) });

    const near = (await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/`)).body;
    expect(near.link_peers_type).toBe("dcim.frontport");
    expect(near.connected_endpoints.map((o: any) => o.id)).toEqual([z.ifaces[0]]);
    expect(near.connected_endpoints_reachable).toBe(true);
    const back = (await api.get(`/api/dcim/interfaces/${z.ifaces[0]}/trace/`)).body;
    expect(back.map(([n, c, f]: any[]) => [n[0].id, c.id, f[0].id])).toEqual([
      [z.ifaces[0], c3.id, frontZ[2]],
      [rearZ, trunk.id, rearA],
      [frontA[2], c1.id, a.ifaces[0]],
    ]);
    // Front ports show their link peers too.
    const front = (await api.get(`/api/dcim/front-ports/${frontA[2]}/`)).body;
    expect([front.cable.id, front.cable_end, front.link_peers_type, front._occupied]).toEqual([c1.id, "B", "dcim.interface", true]);
    expect((await api.get(`/api/dcim/interfaces/999999/trace/`)).status).toBe(404);

    // The paths through a front port and through the trunk's rear port: one from each end.
    for (const port of [`front-ports/${frontA[2]}`, `rear-ports/${rearZ}`]) {
      const through = await api.get(`/api/dcim/${port}/paths/`);
      expect(through.status, through.text).toBe(200);
      expect(
        through.body.map((p: any) => [p.path[0][0].id, p.path[p.path.length - 1][0].id, p.is_complete, p.is_active, p.is_split]),
      ).toEqual([
        [a.ifaces[0], z.ifaces[0], true, true, false],
        [z.ifaces[0], a.ifaces[0], true, true, false],
      ]);
    }
    const [first] = (await api.get(`/api/dcim/front-ports/${frontA[2]}/paths/`)).body;
    expect(first.path.map((nodes: any[]) => nodes.map((n) => n.id))).toEqual([
      [a.ifaces[0]],
      [c1.id],
      [frontA[2]],
      [rearA],
      [trunk.id],
      [rearZ],
      [frontZ[2]],
      [c3.id],
      [z.ifaces[0]],
    ]);
    expect(first.path[1][0].url).toBe(`${ORIGIN}/api/dcim/cables/${c1.id}/`);
    // An unused position of the same panel carries no path.
    expect((await api.get(`/api/dcim/front-ports/${frontA[0]}/paths/`)).body).toEqual([]);
  });

  it("pads a path that stops at an unconnected pass-through port", async () => {
    const a = await deviceWithInterfaces(`pad${++seq}`, 1);
    const rear = await make(api, "/api/dcim/rear-ports/", { device: a.device, name: "r", type: "lc", positions: 1 });
    const front = await make(api, "/api/dcim/front-ports/", {
      device: a.device,
      name: "f",
      type: "lc",
      rear_port: rear,
      rear_port_position: 1,
    });
    const c = (await api.post("/api/dcim/cables/", cable(ends("dcim.interface", a.ifaces[0]), ends("dcim.frontport", front)))).body;
    const reply = (await api.get(`/api/dcim/interfaces/${a.ifaces[0]}/trace/`)).body;
    expect(reply.map(([n, cb, f]: any[]) => [n.map((o: any) => o.id), cb?.id ?? null, f.map((o: any) => o.id)])).toEqual([
      [[a.ifaces[0]], c.id, [front]],
      [[rear], null, []],
    ]);
  });
});

describe("cost", () => {
  it("lists interfaces with cables in one round trip and the same statements for any page size", async () => {
    const a = await deviceWithInterfaces(`cost${++seq}`, 6);
    const b = await deviceWithInterfaces(`cosu${seq}`, 6);
    const made = await api.post(
      "/api/dcim/cables/",
      a.ifaces.map((x, i) => cable(ends("dcim.interface", x), ends("dcim.interface", b.ifaces[i]))),
    );
    expect(made.status, made.text).toBe(201);
    const one = await api.cost(() => api.get(`/api/dcim/interfaces/?limit=1`));
    const all = await api.cost(() => api.get(`/api/dcim/interfaces/?limit=0`));
    expect(one).toEqual({ statements: one.statements, roundTrips: 1 });
    expect(all).toEqual(one);
    const cables = await api.cost(() => api.get("/api/dcim/cables/?limit=0"));
    expect(cables.roundTrips).toBe(1);
    expect(cables.statements).toBe(one.statements);
    const bulk = await api.cost(() =>
      api.patch(
        "/api/dcim/cables/",
        made.body.map((c: any) => ({
          id: c.id,
          b_terminations: c.a_terminations.map((t: any) => ({ object_type: t.object_type, object_id: t.object_id })),
          a_terminations: c.b_terminations.map((t: any) => ({ object_type: t.object_type, object_id: t.object_id })),
        })),
      ),
    );
    expect(bulk.roundTrips).toBe(2);
  });
});

for (const driver of ["native", "client"] as Driver[]) {
  describe(`concurrent cables on one endpoint (${driver} driver)`, () => {
    it("let exactly one request take the endpoint; the others get a 400, never a 500", async () => {
      const own = await createHarness({}, driver);
      try {
        const mk = async (path: string, body: Record<string, unknown>) => (await own.post(path, body)).body.id as number;
        const manufacturer = await mk("/api/dcim/manufacturers/", { name: "M", slug: "m" });
        const device = await mk("/api/dcim/devices/", {
          name: "race",
          site: await mk("/api/dcim/sites/", { name: "S", slug: "s" }),
          device_type: await mk("/api/dcim/device-types/", { manufacturer, model: "T", slug: "t" }),
          role: await mk("/api/dcim/device-roles/", { name: "R", slug: "r" }),
        });
        const ifaces = (
          await own.post(
            "/api/dcim/interfaces/",
            Array.from({ length: 11 }, (_, i) => ({ device, name: `e${i}`, type: "1000base-t" })),
          )
        ).body.map((o: any) => o.id);
        const replies = await Promise.all(
          ifaces
            .slice(1)
            .map((x: number) => own.post("/api/dcim/cables/", cable(ends("dcim.interface", x), ends("dcim.interface", ifaces[0])))),
        );
        expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
        for (const r of replies.filter((r) => r.status !== 201)) expect(r.status, r.text).toBe(400);
        expect((await own.get("/api/dcim/cables/")).body.count).toBe(1);
        expect((await own.get("/api/dcim/interfaces/?cabled=true")).body.count).toBe(2);
        // Should requests interleave so that both pass the probes, the table itself refuses the second end.
        const taken = own.db.batch(
          [
            {
              sql: "INSERT INTO dcim_cabletermination (cable_id, cable_end, termination_type, termination_id) VALUES (1, 'A', 'dcim.interface', ?)",
              parameters: [ifaces[0]],
            },
          ],
          "write",
        );
        await expect(taken).rejects.toThrow(/UNIQUE/);
      } finally {
        own.close();
      }
    });
  });
}

describe("power outlets", () => {
  it("trace their cable to the power port it feeds, as NetBox's power-outlets/<id>/trace/", async () => {
    const pdu = await deviceWithInterfaces("pdu1", 0);
    const server = await deviceWithInterfaces("server1", 0);
    const outlet = await make(api, "/api/dcim/power-outlets/", { device: pdu.device, name: "out1" });
    const port = await make(api, "/api/dcim/power-ports/", { device: server.device, name: "psu1" });
    expect((await api.get(`/api/dcim/power-outlets/${outlet}/trace/`)).body).toEqual([]);
    const made = await api.post("/api/dcim/cables/", cable(ends("dcim.poweroutlet", outlet), ends("dcim.powerport", port)));
    expect(made.status, made.text).toBe(201);
    const trace = await api.get(`/api/dcim/power-outlets/${outlet}/trace/`);
    expect(trace.status, trace.text).toBe(200);
    expect(trace.body).toHaveLength(1);
    const [near, via, far] = trace.body[0];
    expect(near.map((e: any) => e.id)).toEqual([outlet]);
    expect(via.id).toBe(made.body.id);
    expect(far.map((e: any) => e.id)).toEqual([port]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

/**
 * The `generic` field kind end to end, through its first model: a MAC address's
 * `assigned_object`, written as `assigned_object_type` + `assigned_object_id` and read back with
 * the nested interface (which carries its own nested device).
 */

const BASE = "/api/dcim/mac-addresses/";
let api: Harness;
let device: number;
let eth0: number;
let eth1: number;

const assigned = (id: number) => ({ assigned_object_type: "dcim.interface", assigned_object_id: id });
const idsOf = async (query: string) => {
  const reply = await api.get(`${BASE}?${query}&limit=0`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.results.map((o: any) => o.id).sort((a: number, b: number) => a - b);
};

beforeAll(async () => {
  api = await createHarness();
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Dell", slug: "dell" });
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "R640", slug: "r640" });
  const role = await make(api, "/api/dcim/device-roles/", { name: "Server", slug: "server" });
  const site = await make(api, "/api/dcim/sites/", { name: "DC1", slug: "dc1" });
  device = await make(api, "/api/dcim/devices/", { name: "srv1", device_type, role, site });
  eth0 = await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" });
  eth1 = await make(api, "/api/dcim/interfaces/", { device, name: "eth1", type: "1000base-t", description: "backup" });
});
afterAll(() => api.close());

describe("MAC address values", () => {
  it("accepts NetBox's spellings and stores the upper-case colon form", async () => {
    const spellings = [
      "aa:bb:cc:dd:ee:01",
      "aa-bb-cc-dd-ee-02",
      "aabb.ccdd.ee03",
      "aabbccddee04",
      "aabbcc-ddee05",
      "a:b:c:d:e:6",
      " AA:BB:CC:DD:EE:07 ",
    ];
    const reply = await api.post(
      BASE,
      spellings.map((mac_address) => ({ mac_address })),
    );
    expect(reply.status, reply.text).toBe(201);
    const expected = [
      "AA:BB:CC:DD:EE:01",
      "AA:BB:CC:DD:EE:02",
      "AA:BB:CC:DD:EE:03",
      "AA:BB:CC:DD:EE:04",
      "AA:BB:CC:DD:EE:05",
      "0A:0B:0C:0D:0E:06",
      "AA:BB:CC:DD:EE:07",
    ];
    expect(reply.body.map((o: any) => o.mac_address)).toEqual(expected);
    expect(reply.body.map((o: any) => o.display)).toEqual(expected);
    const patched = await api.patch(`${BASE}${reply.body[0].id}/`, { mac_address: "0000.0000.00ff" });
    expect(patched.body.mac_address).toBe("00:00:00:00:00:FF");
    // Stored normalised, so the exact filter finds the stored form and iexact any case of it.
    expect(await idsOf("mac_address=AA:BB:CC:DD:EE:02")).toEqual([reply.body[1].id]);
    expect(await idsOf("mac_address__ie=aa:bb:cc:dd:ee:03")).toEqual([reply.body[2].id]);
    await api.delete(
      BASE,
      reply.body.map((o: any) => ({ id: o.id })),
    );
  });

  it("refuses anything else with 400 naming mac_address, in NetBox's words", async () => {
    for (const bad of ["aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:00", "gg:bb:cc:dd:ee:ff", "aa:bb-cc:dd:ee:ff", "aabbccddeeff0", "not a mac"]) {
      const reply = await api.post(BASE, { mac_address: bad });
      expect(reply.status, bad).toBe(400);
      // NetBox drops spaces before parsing, and names the value without them.
      expect(reply.body, bad).toEqual({ mac_address: [`Invalid MAC address format: ${bad.replace(/ /g, "")}`] });
    }
    expect((await api.post(BASE, { mac_address: "" })).body).toEqual({ mac_address: ["This field may not be blank."] });
    expect((await api.post(BASE, {})).body).toEqual({ mac_address: ["This field is required."] });
  });
});

describe("a generic relation (assigned_object)", () => {
  it("is written as type + id and read back with the nested object and its own nested device", async () => {
    const reply = await api.post(BASE, { mac_address: "00:11:22:33:44:55", ...assigned(eth1) });
    expect(reply.status, reply.text).toBe(201);
    const interfaceUrl = `${ORIGIN}/api/dcim/interfaces/${eth1}/`;
    const deviceUrl = `${ORIGIN}/api/dcim/devices/${device}/`;
    expect(reply.body).toMatchObject({
      mac_address: "00:11:22:33:44:55",
      assigned_object_type: "dcim.interface",
      assigned_object_id: eth1,
      assigned_object: {
        id: eth1,
        url: interfaceUrl,
        display: "eth1",
        name: "eth1",
        description: "backup",
        _occupied: false,
        device: { id: device, url: deviceUrl, display: "srv1", name: "srv1" },
      },
    });
    expect(Object.keys(reply.body.assigned_object).sort()).toEqual([
      "_occupied",
      "cable",
      "description",
      "device",
      "display",
      "id",
      "name",
      "url",
    ]);
    expect((await api.get(`${BASE}${reply.body.id}/`)).body).toEqual(reply.body);
    // The brief form leaves the relation out, as NetBox's brief_fields do.
    expect(Object.keys((await api.get(`${BASE}${reply.body.id}/?brief=1`)).body).sort()).toEqual([
      "description",
      "display",
      "id",
      "mac_address",
      "url",
    ]);
    await api.delete(`${BASE}${reply.body.id}/`);
  });

  it("is optional: an unassigned MAC reads null for all three keys", async () => {
    const reply = await api.post(BASE, { mac_address: "00:11:22:33:44:56" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ assigned_object_type: null, assigned_object_id: null, assigned_object: null });
    await api.delete(`${BASE}${reply.body.id}/`);
  });

  it("refuses a type the field does not allow with 400 naming assigned_object_type", async () => {
    for (const type of ["dcim.site", "nope", 7]) {
      const reply = await api.post(BASE, { mac_address: "00:11:22:33:44:57", assigned_object_type: type, assigned_object_id: eth0 });
      expect(reply.status, String(type)).toBe(400);
      expect(Object.keys(reply.body), String(type)).toEqual(["assigned_object_type"]);
    }
  });

  it("refuses an id that names no object of the type with 400 naming assigned_object_id", async () => {
    const reply = await api.post(BASE, { mac_address: "00:11:22:33:44:58", ...assigned(424242) });
    expect(reply).toMatchObject({
      status: 400,
      body: { assigned_object_id: ["Related object not found using the provided numeric ID: 424242"] },
    });
    const bad = await api.post(BASE, { mac_address: "00:11:22:33:44:58", ...assigned(-1) });
    expect(bad).toMatchObject({ status: 400, body: { assigned_object_id: ["A valid integer is required."] } });
  });

  it("needs both keys: only one of them is 400 naming the missing one", async () => {
    const noId = await api.post(BASE, { mac_address: "00:11:22:33:44:59", assigned_object_type: "dcim.interface" });
    expect(noId).toMatchObject({ status: 400, body: { assigned_object_id: ["This field is required."] } });
    const noType = await api.post(BASE, { mac_address: "00:11:22:33:44:59", assigned_object_id: eth0 });
    expect(noType).toMatchObject({ status: 400, body: { assigned_object_type: ["This field is required."] } });
    const halfNull = await api.post(BASE, {
      mac_address: "00:11:22:33:44:59",
      assigned_object_type: "dcim.interface",
      assigned_object_id: null,
    });
    expect(halfNull).toMatchObject({ status: 400, body: { assigned_object_id: ["This field may not be null."] } });
  });

  it("is moved by PATCH, cleared by both keys null, and recorded in the change log", async () => {
    const made = await api.post(BASE, { mac_address: "00:11:22:33:44:60", ...assigned(eth0) });
    const moved = await api.patch(`${BASE}${made.body.id}/`, assigned(eth1));
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.assigned_object).toMatchObject({ id: eth1, name: "eth1" });
    const untouched = await api.patch(`${BASE}${made.body.id}/`, { description: "kept" });
    expect(untouched.body.assigned_object_id).toBe(eth1);
    const cleared = await api.patch(`${BASE}${made.body.id}/`, { assigned_object_type: null, assigned_object_id: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      assigned_object_type: null,
      assigned_object_id: null,
      assigned_object: null,
      description: "kept",
    });
    const [change] = (await api.db.kysely
      .selectFrom("core_objectchange")
      .selectAll()
      .where("request_id", "=", cleared.headers.get("X-Request-ID")!)
      .execute()) as any[];
    expect(JSON.parse(change.prechange_data)).toMatchObject({ assigned_object_type: "dcim.interface", assigned_object_id: eth1 });
    expect(JSON.parse(change.postchange_data)).toMatchObject({ assigned_object_type: null, assigned_object_id: null });
    await api.delete(`${BASE}${made.body.id}/`);
  });

  it("describes both keys on OPTIONS, the type with its allowed choices", async () => {
    const post = (await api.request("OPTIONS", BASE)).body.actions.POST;
    expect(post.assigned_object_type).toMatchObject({
      required: false,
      read_only: false,
      choices: [
        { value: "dcim.interface", display_name: "interface" },
        { value: "virtualization.vminterface", display_name: "interface" },
      ],
    });
    expect(post.assigned_object_id).toMatchObject({ type: "integer", required: false, read_only: false });
    expect(post.assigned_object).toMatchObject({ read_only: true });
  });

  it("filters by assigned_object_type and assigned_object_id", async () => {
    const made = await api.post(BASE, [
      { mac_address: "00:11:22:33:44:61", ...assigned(eth0) },
      { mac_address: "00:11:22:33:44:62", ...assigned(eth1) },
      { mac_address: "00:11:22:33:44:63" },
    ]);
    const [a, b, c] = made.body.map((o: any) => o.id);
    expect(await idsOf(`assigned_object_type=dcim.interface&assigned_object_id=${eth0}`)).toEqual([a]);
    expect(await idsOf(`assigned_object_type=dcim.interface&assigned_object_id=${eth0}&assigned_object_id=${eth1}`)).toEqual([a, b]);
    expect(await idsOf("assigned_object_type=dcim.interface")).toEqual([a, b]);
    expect(await idsOf("assigned_object_type=dcim.site")).toEqual([]);
    expect(await idsOf("assigned_object_id__empty=true")).toEqual([c]);
    expect(await idsOf(`assigned_object_id__n=${eth0}`)).toEqual([b, c]);
    const bad = await api.get(`${BASE}?assigned_object_id=eth0`);
    expect(bad).toMatchObject({ status: 400, body: { assigned_object_id: ["Enter a whole number."] } });
    await api.delete(
      BASE,
      made.body.map((o: any) => ({ id: o.id })),
    );
  });

  it("costs the same statements for a page of 50 as for a page of 1, in one round trip", async () => {
    const hex = (i: number) => i.toString(16).padStart(2, "0").toUpperCase();
    const made = await api.post(
      BASE,
      Array.from({ length: 50 }, (_, i) => ({
        mac_address: `02:00:00:00:00:${hex(i)}`,
        ...(i % 5 === 4 ? {} : assigned(i % 2 ? eth1 : eth0)),
      })),
    );
    expect(made.status, made.text).toBe(201);
    await api.get(`${BASE}?limit=1`);
    const one = await api.cost(() => api.get(`${BASE}?mac_address__isw=02:&limit=1`));
    let page: any;
    const fifty = await api.cost(async () => (page = await api.get(`${BASE}?mac_address__isw=02:&limit=50`)));
    expect(page.body.results).toHaveLength(50);
    expect(page.body.results.filter((o: any) => o.assigned_object?.device?.id === device)).toHaveLength(40);
    expect(fifty).toEqual(one);
    expect(fifty.roundTrips).toBe(1);
    await api.delete(
      BASE,
      made.body.map((o: any) => ({ id: o.id })),
    );
  });
});

describe("deleting the assigned object", () => {
  let mac: number;
  let doomed: number;

  beforeAll(async () => {
    doomed = await make(api, "/api/dcim/interfaces/", { device, name: "eth9", type: "1000base-t" });
    mac = await make(api, BASE, { mac_address: "00:11:22:33:44:99", ...assigned(doomed) });
    const deleted = await api.delete(`/api/dcim/interfaces/${doomed}/`);
    expect(deleted.status, deleted.text).toBe(204);
  });

  it("leaves the MAC readable: 200, with no nested object, in lists and alone", async () => {
    const one = await api.get(`${BASE}${mac}/`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.assigned_object).toBeNull();
    const list = await api.get(`${BASE}?id=${mac}`);
    expect(list.status).toBe(200);
    expect(list.body.results[0].assigned_object).toBeNull();
    const patched = await api.patch(`${BASE}${mac}/`, { description: "orphan" });
    expect(patched.status, patched.text).toBe(200);
  });

  // NetBox nulls the assignment when the interface goes; the engine clears generic references to
  // every row a delete removes, directly or through cascading foreign keys, in the same transaction.
  it("clears assigned_object_type and assigned_object_id, as NetBox does", async () => {
    const one = await api.get(`${BASE}${mac}/`);
    expect(one.body).toMatchObject({ assigned_object_type: null, assigned_object_id: null });
  });
});

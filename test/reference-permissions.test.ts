import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

/**
 * A write names related objects by id, by attributes, as a generic pair (`*_type`/`*_id`), in
 * m2m lists and tags, in cable terminations and in custom fields of object type. Each resolves
 * only among the objects the writer may view: one outside is the same 400 as a missing one, with
 * the same message, so a write neither links to hidden objects nor tells which ids exist.
 * Superusers and EXEMPT_VIEW_PERMISSIONS models are unaffected.
 */
let api: Harness;
let alice: string;
const ids: Record<string, number> = {};
const MISSING = 987654;

/** The reply with the id it names replaced, to compare a forbidden reference with a missing one. */
const shape = (reply: { status: number; text: string }, id: number) => ({
  status: reply.status,
  text: reply.text.split(String(id)).join("<id>"),
});

async function setUp(env: Record<string, string> = {}) {
  const h = await createHarness(env);
  const mk = (path: string, body: Record<string, unknown>) => make(h, path, body);
  ids.a = await mk("/api/dcim/sites/", { name: "Site A", slug: "a" });
  ids.b = await mk("/api/dcim/sites/", { name: "Site B", slug: "b" });
  const manufacturer = await mk("/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
  ids.type = await mk("/api/dcim/device-types/", { manufacturer, model: "Box", slug: "box" });
  ids.role = await mk("/api/dcim/device-roles/", { name: "Switch", slug: "switch" });
  ids.da = await mk("/api/dcim/devices/", { name: "dev-a", site: ids.a, device_type: ids.type, role: ids.role });
  ids.db = await mk("/api/dcim/devices/", { name: "dev-b", site: ids.b, device_type: ids.type, role: ids.role });
  ids.ia = await mk("/api/dcim/interfaces/", { device: ids.da, name: "eth-a", type: "1000base-t" });
  ids.ia2 = await mk("/api/dcim/interfaces/", { device: ids.da, name: "eth-a2", type: "1000base-t" });
  ids.ib = await mk("/api/dcim/interfaces/", { device: ids.db, name: "eth-b", type: "1000base-t" });
  ids.visible = await mk("/api/tenancy/tenants/", { name: "Visible", slug: "visible" });
  ids.hidden = await mk("/api/tenancy/tenants/", { name: "Hidden", slug: "hidden" });
  ids.public = await mk("/api/extras/tags/", { name: "Public", slug: "public" });
  ids.secret = await mk("/api/extras/tags/", { name: "Secret", slug: "secret" });
  await mk("/api/extras/custom-fields/", {
    name: "owner",
    type: "object",
    object_types: ["dcim.device"],
    related_object_type: "tenancy.tenant",
  });
  await mk("/api/extras/custom-fields/", {
    name: "owners",
    type: "multiobject",
    object_types: ["dcim.device"],
    related_object_type: "tenancy.tenant",
  });
  alice = await h.token({ superuser: false, username: "alice" });
  const aliceId = (await h.get("/api/users/users/?username=alice")).body.results[0].id;
  const grant = (object_types: string[], actions: string[], constraints: unknown = null) =>
    mk("/api/users/permissions/", { name: `p${Math.random()}`, object_types, actions, constraints, users: [aliceId] });
  await grant(["dcim.site"], ["view"], { slug: "a" });
  await grant(["dcim.device"], ["view", "add", "change"], { site__slug: "a" });
  await grant(["dcim.interface"], ["view"], { device__site__slug: "a" });
  await grant(["dcim.devicetype", "dcim.devicerole", "dcim.manufacturer"], ["view"]);
  await grant(["dcim.cable"], ["view", "add"]);
  await grant(["ipam.ipaddress"], ["view", "add", "change"]);
  await grant(["tenancy.tenant"], ["view"], { slug: "visible" });
  await grant(["extras.tag"], ["view"], { slug: "public" });
  return h;
}

beforeAll(async () => {
  api = await setUp();
});
afterAll(() => api.close());

const asAlice = () => ({ token: alice });
const device = (extra: Record<string, unknown>) => ({
  name: `d${Math.random()}`,
  site: ids.a,
  device_type: ids.type,
  role: ids.role,
  ...extra,
});

describe("references resolve only within what the writer may view", () => {
  it("an interface of another site, as a generic pair, is not found, as a missing one", async () => {
    const ip = (id: number) => ({ address: "10.0.0.1/24", assigned_object_type: "dcim.interface", assigned_object_id: id });
    const forbidden = await api.post("/api/ipam/ip-addresses/", ip(ids.ib), asAlice());
    expect(forbidden.status, forbidden.text).toBe(400);
    expect(forbidden.body).toEqual({ assigned_object_id: [`Related object not found using the provided numeric ID: ${ids.ib}`] });
    expect(forbidden.text).not.toContain("eth-b");
    expect(shape(forbidden, ids.ib)).toEqual(shape(await api.post("/api/ipam/ip-addresses/", ip(MISSING), asAlice()), MISSING));
    expect((await api.get("/api/ipam/ip-addresses/")).body.count).toBe(0);
    const allowed = await api.post("/api/ipam/ip-addresses/", ip(ids.ia), asAlice());
    expect(allowed.status, allowed.text).toBe(201);
  });

  it("a tenant the writer may not view, by id or by attributes, is not found, as a missing one", async () => {
    for (const [hidden, missing, id] of [
      [ids.hidden, MISSING, true],
      [{ slug: "hidden" }, { slug: "nothing" }, false],
    ] as const) {
      const forbidden = await api.post("/api/dcim/devices/", device({ tenant: hidden }), asAlice());
      expect(forbidden.status, forbidden.text).toBe(400);
      expect(Object.keys(forbidden.body)).toEqual(["tenant"]);
      const absent = await api.post("/api/dcim/devices/", device({ tenant: missing }), asAlice());
      if (id) expect(shape(forbidden, ids.hidden)).toEqual(shape(absent, MISSING));
      else expect(forbidden.text.replace("hidden", "nothing")).toEqual(absent.text);
    }
    const patched = await api.patch(`/api/dcim/devices/${ids.da}/`, { tenant: ids.hidden }, asAlice());
    expect(patched.status).toBe(400);
    expect((await api.get(`/api/dcim/devices/${ids.da}/`)).body.tenant).toBeNull();
    expect((await api.post("/api/dcim/devices/", device({ tenant: ids.visible }), asAlice())).status).toBe(201);
  });

  it("tags (ids, slugs, names) resolve only among the tags the writer may view", async () => {
    for (const tags of [[ids.secret], [{ slug: "secret" }], [{ name: "Secret" }]]) {
      const reply = await api.post("/api/dcim/devices/", device({ tags }), asAlice());
      expect(reply.status, reply.text).toBe(400);
      expect(Object.keys(reply.body)).toEqual(["tags"]);
    }
    const missing = await api.post("/api/dcim/devices/", device({ tags: [MISSING] }), asAlice());
    const forbidden = await api.post("/api/dcim/devices/", device({ tags: [ids.secret] }), asAlice());
    expect(shape(forbidden, ids.secret)).toEqual(shape(missing, MISSING));
    expect((await api.post("/api/dcim/devices/", device({ tags: [ids.public] }), asAlice())).status).toBe(201);
  });

  it("custom fields of object type resolve only among the objects the writer may view", async () => {
    for (const custom_fields of [{ owner: ids.hidden }, { owner: { slug: "hidden" } }, { owners: [ids.visible, ids.hidden] }]) {
      const reply = await api.post("/api/dcim/devices/", device({ custom_fields }), asAlice());
      expect(reply.status, reply.text).toBe(400);
      expect(reply.text).not.toContain("Hidden");
    }
    const forbidden = await api.post("/api/dcim/devices/", device({ custom_fields: { owner: ids.hidden } }), asAlice());
    const missing = await api.post("/api/dcim/devices/", device({ custom_fields: { owner: MISSING } }), asAlice());
    expect(shape(forbidden, ids.hidden)).toEqual(shape(missing, MISSING));
    const ok = await api.post("/api/dcim/devices/", device({ custom_fields: { owner: ids.visible } }), asAlice());
    expect(ok.status, ok.text).toBe(201);
  });

  it("cable terminations resolve only among the endpoints the writer may view", async () => {
    const cable = (id: number) => ({
      a_terminations: [{ object_type: "dcim.interface", object_id: ids.ia }],
      b_terminations: [{ object_type: "dcim.interface", object_id: id }],
    });
    const forbidden = await api.post("/api/dcim/cables/", cable(ids.ib), asAlice());
    expect(forbidden.status, forbidden.text).toBe(400);
    expect(shape(forbidden, ids.ib)).toEqual(shape(await api.post("/api/dcim/cables/", cable(MISSING), asAlice()), MISSING));
    expect((await api.get("/api/dcim/cables/")).body.count).toBe(0);
  });

  it("superusers reach every object", async () => {
    const reply = await api.post("/api/ipam/ip-addresses/", {
      address: "10.0.9.1/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: ids.ib,
    });
    expect(reply.status, reply.text).toBe(201);
    expect((await api.post("/api/dcim/devices/", device({ tenant: ids.hidden, tags: [ids.secret] }))).status).toBe(201);
  });

  it("costs what any write costs: two round trips", async () => {
    await api.post("/api/dcim/devices/", device({ tenant: ids.visible }), asAlice());
    const cost = await api.cost(() => api.post("/api/dcim/devices/", device({ tenant: ids.visible, tags: [ids.public] }), asAlice()));
    expect(cost.roundTrips).toBe(2);
  });
});

describe("models in EXEMPT_VIEW_PERMISSIONS", () => {
  it("are referenced by anyone who may write the referring object", async () => {
    const exempt = await setUp({ EXEMPT_VIEW_PERMISSIONS: "tenancy.tenant" });
    try {
      const reply = await exempt.post("/api/dcim/devices/", device({ tenant: ids.hidden }), { token: alice });
      expect(reply.status, reply.text).toBe(201);
    } finally {
      exempt.close();
    }
  });
});

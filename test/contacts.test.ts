import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const assignments = "/api/tenancy/contact-assignments/";
const journal = "/api/extras/journal-entries/";

beforeAll(async () => {
  api = await createHarness();
  ids.site = await make(api, "/api/dcim/sites/", { name: "HQ", slug: "hq" });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Customer", slug: "customer" });
  ids.provider = await make(api, "/api/circuits/providers/", { name: "Telco", slug: "telco" });
  ids.other = await make(api, "/api/circuits/providers/", { name: "Other", slug: "other" });
  ids.type = await make(api, "/api/circuits/circuit-types/", { name: "Transit", slug: "transit" });
  ids.circuit = await make(api, "/api/circuits/circuits/", { cid: "C1", provider: ids.provider, type: ids.type });
  ids.ops = await make(api, "/api/tenancy/contact-groups/", { name: "Operations", slug: "ops" });
  ids.noc = await make(api, "/api/tenancy/contact-groups/", { name: "NOC", slug: "noc", parent: ids.ops });
  ids.alice = await make(api, "/api/tenancy/contacts/", { name: "Alice", group: ids.noc, email: "alice@example.com" });
  ids.bob = await make(api, "/api/tenancy/contacts/", { name: "Bob" });
  ids.admin = await make(api, "/api/tenancy/contact-roles/", { name: "Admin", slug: "admin" });
  ids.billing = await make(api, "/api/tenancy/contact-roles/", { name: "Billing", slug: "billing" });
});
afterAll(() => api.close());

describe("contact assignments", () => {
  it("attach a contact to models of several apps, showing the object", async () => {
    const site = await api.post(assignments, {
      object_type: "dcim.site",
      object_id: ids.site,
      contact: ids.alice,
      role: ids.admin,
      priority: "primary",
    });
    expect(site.status, site.text).toBe(201);
    expect(site.body.object).toMatchObject({ id: ids.site, name: "HQ", slug: "hq" });
    expect(site.body.display).toBe("Alice (Primary) -> HQ");
    expect(site.body.priority).toEqual({ value: "primary", label: "Primary" });
    ids.a1 = site.body.id;
    ids.a2 = await make(api, assignments, {
      object_type: "tenancy.tenant",
      object_id: ids.tenant,
      contact: ids.bob,
      role: { slug: "billing" },
    });
    ids.a3 = await make(api, assignments, {
      object_type: "circuits.provider",
      object_id: ids.provider,
      contact: ids.alice,
      role: ids.billing,
      priority: "secondary",
    });
    ids.a4 = await make(api, assignments, { object_type: "circuits.circuit", object_id: ids.circuit, contact: ids.bob, role: ids.admin });
    const tenant = (await api.get(`${assignments}${ids.a2}/`)).body;
    expect([tenant.priority, tenant.display, tenant.object.slug]).toEqual([null, "Bob -> Customer", "customer"]);
    const brief = (await api.get(`${assignments}${ids.a4}/?brief=1`)).body;
    expect(Object.keys(brief).sort()).toEqual(["contact", "display", "id", "priority", "role", "url"]);
  });

  it("refuse objects contacts cannot be assigned to, missing objects and duplicates", async () => {
    const role = await api.post(assignments, { object_type: "dcim.devicerole", object_id: 1, contact: ids.bob });
    expect(role.status).toBe(400);
    expect(role.body.object_type[0]).toMatch(/^Object type must be one of: .*dcim\.site/);
    const user = await api.post(assignments, { object_type: "users.user", object_id: 1, contact: ids.bob });
    expect(user.status).toBe(400);
    const missing = await api.post(assignments, { object_type: "dcim.site", object_id: 999999, contact: ids.bob });
    expect(missing).toMatchObject({ status: 400, body: { object_id: ["Related object not found using the provided numeric ID: 999999"] } });
    const twin = await api.post(assignments, { object_type: "dcim.site", object_id: ids.site, contact: ids.alice, role: ids.admin });
    expect(twin).toMatchObject({
      status: 400,
      body: { __all__: ["Contact assignment with this Object type, Object ID, Contact and Role already exists."] },
    });
    expect(
      (await api.post(assignments, { object_type: "dcim.site", object_id: ids.site, contact: ids.alice, role: ids.billing })).status,
    ).toBe(201);
  });

  it("filter by object, contact, role, priority and contact group (with sub-groups)", async () => {
    const found = async (query: string) => (await api.get(`${assignments}?${query}&limit=0`)).body.results.map((a: any) => a.id).sort();
    const sorted = (...xs: number[]) => xs.sort();
    const atSite = await found(`object_type=dcim.site&object_id=${ids.site}`);
    expect(atSite).toHaveLength(2);
    expect(atSite).toContain(ids.a1);
    expect(await found(`contact_id=${ids.bob}`)).toEqual(sorted(ids.a2, ids.a4));
    expect(await found("role=admin&priority=primary")).toEqual([ids.a1]);
    expect(await found(`role_id=${ids.admin}&contact_id=${ids.bob}`)).toEqual([ids.a4]);
    expect(await found("object_type=circuits.circuit")).toEqual([ids.a4]);
    expect((await found("group=ops")).length).toBe(3);
    expect(await found(`group_id=${ids.noc}&object_type=circuits.provider`)).toEqual([ids.a3]);
    expect((await api.get(`${assignments}?priority=urgent`)).status).toBe(400);
  });

  it("give the models they attach to contact, contact_role and contact_group filters", async () => {
    const providers = async (query: string) => (await api.get(`/api/circuits/providers/?${query}`)).body.results.map((p: any) => p.slug);
    expect(await providers(`contact=${ids.alice}`)).toEqual(["telco"]);
    expect(await providers(`contact_role=${ids.billing}`)).toEqual(["telco"]);
    expect(await providers(`contact_group=${ids.ops}`)).toEqual(["telco"]);
    expect(await providers(`contact=${ids.bob}`)).toEqual([]);
    expect(await providers(`contact__n=${ids.alice}`)).toEqual(["other"]);
    const circuits = (await api.get(`/api/circuits/circuits/?contact=${ids.bob}&contact_role=${ids.admin}`)).body.results;
    expect(circuits.map((c: any) => c.cid)).toEqual(["C1"]);
    expect((await api.get("/api/circuits/providers/?contact=999999")).body).toEqual({
      contact: ["Select a valid choice. 999999 is not one of the available choices."],
    });
    // Sites and tenants (and every model NetBox gives contacts) filter the same way.
    expect((await api.get(`/api/dcim/sites/?contact=${ids.alice}&contact_role=${ids.admin}`)).body.results.map((x: any) => x.slug)).toEqual(
      ["hq"],
    );
    expect((await api.get(`/api/dcim/sites/?contact=${ids.bob}`)).body.results).toEqual([]);
    expect((await api.get(`/api/tenancy/tenants/?contact_group=${ids.ops}`)).body.results).toEqual([]);
    expect((await api.get(`/api/tenancy/tenants/?contact=${ids.bob}`)).body.results.map((x: any) => x.slug)).toEqual(["customer"]);
  });

  it("keep a contact while assigned, and go with the object they attach to", async () => {
    const blocked = await api.delete(`/api/tenancy/contacts/${ids.bob}/`);
    expect(blocked.status).toBe(409);
    const site = await make(api, "/api/dcim/sites/", { name: "Temp", slug: "temp" });
    const assignment = await make(api, assignments, { object_type: "dcim.site", object_id: site, contact: ids.bob });
    expect((await api.delete(`/api/dcim/sites/${site}/`)).status).toBe(204);
    expect((await api.get(`${assignments}${assignment}/`)).status).toBe(404);
    expect((await api.get(`${assignments}${ids.a1}/`)).status).toBe(200);
  });
});

describe("contacts and contact groups", () => {
  it("count contacts in a group and its sub-groups, and filter contacts by group tree", async () => {
    const ops = (await api.get(`/api/tenancy/contact-groups/${ids.ops}/`)).body;
    expect([ops.contact_count, ops._depth]).toEqual([1, 0]);
    expect((await api.get(`/api/tenancy/contact-groups/${ids.noc}/`)).body).toMatchObject({ contact_count: 1, _depth: 1 });
    const names = (await api.get("/api/tenancy/contacts/?group=ops")).body.results.map((c: any) => c.name);
    expect(names).toEqual(["Alice"]);
    const bad = await api.post("/api/tenancy/contacts/", { name: "Carol", email: "carol", link: "not a url" });
    expect(bad).toMatchObject({ status: 400, body: { email: ["Enter a valid email address."], link: ["Enter a valid URL."] } });
    // Names are unique within a group; contacts without a group may share one.
    const twin = await api.post("/api/tenancy/contacts/", { name: "Alice", group: ids.noc });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["A contact with this name already exists within the group."] } });
    expect((await api.post("/api/tenancy/contacts/", { name: "Bob" })).status).toBe(201);
  });
});

describe("journal entries", () => {
  it("record the requesting user as created_by, whatever the client sends", async () => {
    const token = await api.token({ superuser: true, username: "writer" });
    const writer = (await api.get("/api/users/users/?username=writer")).body.results[0].id;
    const entry = await api.post(
      journal,
      { assigned_object_type: "circuits.circuit", assigned_object_id: ids.circuit, comments: "Turned up", created_by: 1 },
      { token },
    );
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body.created_by).toBe(writer);
    expect(entry.body.kind).toEqual({ value: "info", label: "Info" });
    expect(entry.body.assigned_object).toMatchObject({ id: ids.circuit, cid: "C1" });
    expect(entry.body.display).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Info\)$/);
    // Another user editing it leaves the author alone.
    const edited = await api.patch(`${journal}${entry.body.id}/`, { kind: "warning", created_by: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body.created_by).toBe(writer);
    ids.entry = entry.body.id;
    ids.writer = writer;
  });

  it("attach to models of every inventory app, filter, and go with their object", async () => {
    ids.siteEntry = await make(api, journal, {
      assigned_object_type: "dcim.site",
      assigned_object_id: ids.site,
      comments: "Power work",
      kind: "danger",
    });
    const group = await make(api, journal, {
      assigned_object_type: "tenancy.contactgroup",
      assigned_object_id: ids.ops,
      comments: "Reorganised",
    });
    const refused = await api.post(journal, { assigned_object_type: "users.user", assigned_object_id: 1, comments: "no" });
    expect(refused.status).toBe(400);
    expect((await api.post(journal, { assigned_object_type: "dcim.site", assigned_object_id: ids.site, comments: "" })).body).toEqual({
      comments: ["This field may not be blank."],
    });
    const found = async (query: string) => (await api.get(`${journal}?${query}&limit=0`)).body.results.map((e: any) => e.id).sort();
    expect(await found("created_by=writer")).toEqual([ids.entry]);
    expect(await found(`created_by_id=${ids.writer}`)).toEqual([ids.entry]);
    expect(await found("kind=danger")).toEqual([ids.siteEntry]);
    expect(await found(`assigned_object_type=dcim.site&assigned_object_id=${ids.site}`)).toEqual([ids.siteEntry]);
    expect(await found("created_after=2000-01-01")).toHaveLength(3);
    expect(await found("created_before=2000-01-01")).toEqual([]);
    expect((await api.get(`${journal}?q=power`)).body.results.map((e: any) => e.id)).toEqual([ids.siteEntry]);
    // Deleting a group (and its sub-group) leaves its contacts ungrouped and removes its journal.
    expect((await api.delete(`/api/tenancy/contact-groups/${ids.ops}/`)).status).toBe(204);
    expect((await api.get(`${journal}${group}/`)).status).toBe(404);
    expect((await api.get(`/api/tenancy/contacts/${ids.alice}/`)).body.group).toBeNull();
    expect((await api.get(`${journal}${ids.siteEntry}/`)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

/**
 * Object permissions as a constrained user meets them: what a list shows and counts, what a
 * detail hides, and which writes go through, before and after the change.
 */
let api: Harness;
const ids: Record<string, number> = {};
let alice: string;
let aliceId: number;

/** Grants a permission to alice; returns its id. */
const grant = (object_types: string[], actions: string[], constraints: unknown = null, extra: Record<string, unknown> = {}) =>
  make(api, "/api/users/permissions/", { name: `p-${Math.random()}`, object_types, actions, constraints, users: [aliceId], ...extra });

const as = (token: string) => ({ token });

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.us = await make(api, "/api/dcim/regions/", { name: "Americas", slug: "us" });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de, status: "active" });
  ids.ams = await make(api, "/api/dcim/sites/", { name: "AMS1", slug: "ams1", region: ids.eu, status: "planned" });
  ids.nyc = await make(api, "/api/dcim/sites/", { name: "NYC1", slug: "nyc1", region: ids.us, status: "active" });
  ids.visible = await make(api, "/api/tenancy/tenants/", { name: "Visible", slug: "visible" });
  ids.hidden = await make(api, "/api/tenancy/tenants/", { name: "Hidden", slug: "hidden" });
  alice = await api.token({ superuser: false, username: "alice" });
  aliceId = (await api.get("/api/users/users/?username=alice")).body.results[0].id;
  // Regions are referenced and filtered on below: a writer names only objects they may view.
  await grant(["dcim.region"], ["view"]);
});
afterAll(() => api.close());

describe("object permissions", () => {
  it("refuse a model the user holds no permission on, with a clear detail", async () => {
    const reply = await api.get("/api/dcim/sites/", as(alice));
    expect(reply.status).toBe(403);
    expect(reply.body.detail).toBe("You do not have permission to perform this action.");
  });

  it("show only the objects a view constraint matches, in the page and the count, and hide the rest as 404", async () => {
    ids.viewEu = await grant(["dcim.site"], ["view"], { region__parent__slug: "eu" });
    await grant(["dcim.site"], ["view"], { slug: "ams1" });
    const list = await api.get("/api/dcim/sites/?ordering=name", as(alice));
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.results.map((s: { name: string }) => s.name)).toEqual(["AMS1", "FRA1"]);
    expect((await api.get(`/api/dcim/sites/${ids.fra}/`, as(alice))).status).toBe(200);
    const hidden = await api.get(`/api/dcim/sites/${ids.nyc}/`, as(alice));
    expect(hidden).toMatchObject({ status: 404, body: { detail: "No Site matches the given query." } });
    // Filters work within the permitted set only.
    expect((await api.get("/api/dcim/sites/?region=us", as(alice))).body.count).toBe(0);
  });

  it("cost no extra round trip for a constrained list", async () => {
    await api.get("/api/dcim/sites/");
    await api.get("/api/dcim/sites/", as(alice));
    const superuser = await api.cost(() => api.get("/api/dcim/sites/"));
    const constrained = await api.cost(() => api.get("/api/dcim/sites/", as(alice)));
    expect(constrained).toEqual(superuser);
    expect(constrained.roundTrips).toBe(1);
  });

  it("refuse a create outside the add constraint, and write nothing", async () => {
    await grant(["dcim.site"], ["add"], { status: "planned" });
    const refused = await api.post("/api/dcim/sites/", { name: "LON1", slug: "lon1", status: "active", region: ids.eu }, as(alice));
    expect(refused.status).toBe(403);
    expect((await api.get("/api/dcim/sites/?slug=lon1")).body.count).toBe(0);
    const bulk = await api.post(
      "/api/dcim/sites/",
      [
        { name: "LON1", slug: "lon1", status: "planned", region: ids.eu },
        { name: "LON2", slug: "lon2", status: "active", region: ids.eu },
      ],
      as(alice),
    );
    expect(bulk.status).toBe(403);
    expect((await api.get("/api/dcim/sites/?slug=lon1")).body.count).toBe(0);
    const created = await api.post("/api/dcim/sites/", { name: "LON1", slug: "lon1", status: "planned", region: ids.eu }, as(alice));
    expect(created.status, created.text).toBe(201);
    ids.lon = created.body.id;
  });

  it("need the object inside the change constraint before and after the change", async () => {
    await grant(["dcim.site"], ["change"], { region__slug__in: ["eu", "de"] });
    const outside = await api.patch(`/api/dcim/sites/${ids.nyc}/`, { description: "x" }, as(alice));
    expect(outside.status, outside.text).toBe(404);
    const leaving = await api.patch(`/api/dcim/sites/${ids.fra}/`, { region: ids.us }, as(alice));
    expect(leaving.status).toBe(403);
    // Clearing the relation the constraint follows leaves it too (NULL is not a match).
    expect((await api.patch(`/api/dcim/sites/${ids.fra}/`, { region: null }, as(alice))).status).toBe(403);
    expect((await api.get(`/api/dcim/sites/${ids.fra}/`)).body.region.id).toBe(ids.de);
    const ok = await api.patch(`/api/dcim/sites/${ids.fra}/`, { description: "changed" }, as(alice));
    expect(ok.status, ok.text).toBe(200);
    // A constrained bulk write costs what any write costs: two round trips.
    const bulkCost = await api.cost(() =>
      api.patch(
        "/api/dcim/sites/",
        [
          { id: ids.fra, comments: "a" },
          { id: ids.ams, comments: "b" },
        ],
        as(alice),
      ),
    );
    expect(bulkCost.roundTrips).toBe(2);
    // A bulk update is all or none: one object leaving the constraint refuses the whole request.
    const bulk = await api.patch(
      "/api/dcim/sites/",
      [
        { id: ids.fra, description: "bulk" },
        { id: ids.ams, region: ids.us },
      ],
      as(alice),
    );
    expect(bulk.status).toBe(403);
    expect((await api.get(`/api/dcim/sites/${ids.fra}/`)).body.description).toBe("changed");
  });

  it("delete only inside the delete constraint", async () => {
    await grant(["dcim.site"], ["delete"], { status: "planned" });
    expect((await api.delete(`/api/dcim/sites/${ids.fra}/`, undefined, as(alice))).status).toBe(404);
    expect((await api.delete(`/api/dcim/sites/${ids.lon}/`, undefined, as(alice))).status).toBe(204);
  });

  it("resolve references by attributes only within what the user may view", async () => {
    await grant(["tenancy.tenant"], ["view"], { slug: "visible" });
    const hidden = await api.post(
      "/api/dcim/sites/",
      { name: "PAR1", slug: "par1", status: "planned", region: ids.eu, tenant: { slug: "hidden" } },
      as(alice),
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.tenant[0]).toContain("Related object not found");
    const visible = await api.post(
      "/api/dcim/sites/",
      { name: "PAR1", slug: "par1", status: "planned", region: ids.eu, tenant: { slug: "visible" } },
      as(alice),
    );
    expect(visible.status, visible.text).toBe(201);
    // Nested objects show whatever the user may view of their model.
    expect(visible.body.tenant).toMatchObject({ id: ids.visible, slug: "visible" });
  });

  it("reach members of a group, and take effect at once when changed", async () => {
    const team = await make(api, "/api/users/groups/", { name: "Readers" });
    const bob = await api.token({ superuser: false, username: "bob" });
    expect((await api.get("/api/tenancy/tenants/", as(bob))).status).toBe(403);
    const bobId = (await api.get("/api/users/users/?username=bob")).body.results[0].id;
    await api.patch(`/api/users/users/${bobId}/`, { groups: [team] });
    const perm = await make(api, "/api/users/permissions/", {
      name: "readers",
      object_types: ["tenancy.tenant"],
      actions: ["view"],
      groups: [team],
    });
    expect((await api.get("/api/tenancy/tenants/", as(bob))).body.count).toBe(2);
    await api.patch(`/api/users/permissions/${perm}/`, { constraints: { slug: "hidden" } });
    expect((await api.get("/api/tenancy/tenants/", as(bob))).body.results.map((t: { slug: string }) => t.slug)).toEqual(["hidden"]);
    await api.patch(`/api/users/permissions/${perm}/`, { enabled: false });
    expect((await api.get("/api/tenancy/tenants/", as(bob))).status).toBe(403);
  });

  it("are checked when saved: unknown object types, no actions, and constraints naming unknown fields", async () => {
    const bad = await api.post("/api/users/permissions/", { name: "bad", object_types: ["dcim.nothing"], actions: ["view"] });
    expect(bad).toMatchObject({ status: 400, body: { object_types: ["Invalid object type: dcim.nothing"] } });
    const noActions = await api.post("/api/users/permissions/", { name: "bad", object_types: ["dcim.site"], actions: [] });
    expect(noActions.status).toBe(400);
    expect(noActions.body.actions).toBeDefined();
    const field = await api.post("/api/users/permissions/", {
      name: "bad",
      object_types: ["dcim.site"],
      actions: ["view"],
      constraints: { colour: "red" },
    });
    expect(field.status).toBe(400);
    expect(field.body.constraints[0]).toContain("colour");
    const shape = await api.post("/api/users/permissions/", {
      name: "bad",
      object_types: ["dcim.site"],
      actions: ["view"],
      constraints: ["x"],
    });
    expect(shape.status).toBe(400);
  });

  it("resolve $user to the requester", async () => {
    await grant(["tenancy.tenant"], ["view"], [{ slug: "visible" }, { id: "$user" }]);
    // The OR of two alternatives; `$user` is alice's id, which may or may not be a tenant id.
    const list = await api.get("/api/tenancy/tenants/", as(alice));
    expect(list.status).toBe(200);
    const expected = [ids.visible, ...(aliceId === ids.hidden ? [ids.hidden] : [])].sort();
    expect(list.body.results.map((t: { id: number }) => t.id).sort()).toEqual(expected);
  });
});

describe("tokens for other users", () => {
  it("need users.grant_token, and the granter reads what they created", async () => {
    const carol = await api.token({ superuser: false, username: "carol" });
    const daveId = await make(api, "/api/users/users/", { username: "dave", password: "Dave-password-1" });
    const refused = await api.post("/api/users/tokens/", { user: daveId }, as(carol));
    expect(refused).toMatchObject({
      status: 403,
      body: { detail: "This user does not have permission to create tokens for other users." },
    });
    const carolId = (await api.get("/api/users/users/?username=carol")).body.results[0].id;
    await make(api, "/api/users/permissions/", { name: "granter", object_types: ["users.token"], actions: ["grant"], users: [carolId] });
    const granted = await api.post("/api/users/tokens/", { user: daveId, description: "for dave" }, as(carol));
    expect(granted.status, granted.text).toBe(201);
    expect(granted.body).toMatchObject({ user: { id: daveId }, description: "for dave" });
    expect(granted.body.key).toMatch(/^[0-9a-f]{40}$/);
    // Her own tokens stay hers alone to list, by the default permissions.
    const mine = await api.get("/api/users/tokens/", as(carol));
    expect(mine.body.results.every((t: { user: { id: number } }) => t.user.id === carolId)).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

let api: Harness;
beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

describe("related objects on write", () => {
  it("accepts an id, a numeric string, {id}, or attributes matching exactly one object", async () => {
    const eu = await api.post("/api/dcim/regions/", { name: "Europe", slug: "europe" });
    for (const [i, region] of [eu.body.id, String(eu.body.id), { id: eu.body.id }, { slug: "europe" }, { name: "Europe" }].entries()) {
      const reply = await api.post("/api/dcim/sites/", { name: `S${i}`, slug: `s${i}`, region });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.region).toMatchObject({ id: eu.body.id, slug: "europe", display: "Europe" });
    }
  });

  it("resolves nested attributes (a tenant by its group's slug)", async () => {
    const group = await api.post("/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" });
    await api.post("/api/tenancy/tenants/", [
      { name: "Acme", slug: "acme", group: group.body.id },
      { name: "Acme", slug: "acme-2" },
    ]);
    const reply = await api.post("/api/dcim/sites/", {
      name: "Nested",
      slug: "nested",
      tenant: { name: "Acme", group: { slug: "customers" } },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.tenant.slug).toBe("acme");
  });

  it("refuses zero or several matches with 400 naming the field, writing nothing", async () => {
    const before = (await api.get("/api/dcim/sites/")).body.count;
    const none = await api.post("/api/dcim/sites/", { name: "X", slug: "x", region: { slug: "atlantis" } });
    expect(none).toMatchObject({
      status: 400,
      body: { region: ["Related object not found using the provided attributes: {'slug': 'atlantis'}"] },
    });
    const many = await api.post("/api/dcim/sites/", { name: "X", slug: "x", tenant: { name: "Acme" } });
    expect(many).toMatchObject({ status: 400, body: { tenant: ["Multiple objects match the provided attributes: {'name': 'Acme'}"] } });
    const missing = await api.post("/api/dcim/sites/", { name: "X", slug: "x", region: 424242 });
    expect(missing.body).toEqual({ region: ["Related object not found using the provided numeric ID: 424242"] });
    const nested = await api.post("/api/dcim/sites/", { name: "X", slug: "x", tenant: { group: { slug: "nope" } } });
    expect(nested.body.tenant[0]).toContain("{'group__slug': 'nope'}");
    const odd = await api.post("/api/dcim/sites/", { name: "X", slug: "x", region: "europe" });
    expect(odd.body.region[0]).toMatch(/^Related objects must be referenced by numeric ID or by dictionary of attributes/);
    expect((await api.get("/api/dcim/sites/")).body.count).toBe(before);
  });

  it("clears a nullable relation with null and refuses null for a required one", async () => {
    const site = await api.post("/api/dcim/sites/", { name: "Clear", slug: "clear", region: { slug: "europe" } });
    const cleared = await api.patch(`/api/dcim/sites/${site.body.id}/`, { region: null });
    expect(cleared.body.region).toBeNull();
    expect((await api.patch(`/api/dcim/sites/${site.body.id}/`, { name: null })).body).toEqual({ name: ["This field may not be null."] });
  });
});

describe("tags", () => {
  it("are written as ids or {name}/{slug}, replace the whole set, and [] clears it", async () => {
    await api.post("/api/extras/tags/", [
      { name: "Alpha", slug: "alpha" },
      { name: "Beta", slug: "beta" },
    ]);
    const site = await api.post("/api/dcim/sites/", { name: "Tagged", slug: "tagged", tags: [{ name: "Alpha" }, { slug: "beta" }] });
    expect(site.body.tags.map((t: any) => t.slug)).toEqual(["alpha", "beta"]);
    expect(Object.keys(site.body.tags[0]).sort()).toEqual(["color", "display", "display_url", "id", "name", "slug", "url"]); // NetBox's NestedTag: no description.
    const untouched = await api.patch(`/api/dcim/sites/${site.body.id}/`, { description: "x" });
    expect(untouched.body.tags).toHaveLength(2);
    const replaced = await api.patch(`/api/dcim/sites/${site.body.id}/`, { tags: [site.body.tags[1].id] });
    expect(replaced.body.tags.map((t: any) => t.slug)).toEqual(["beta"]);
    expect((await api.patch(`/api/dcim/sites/${site.body.id}/`, { tags: [] })).body.tags).toEqual([]);
    const unknown = await api.patch(`/api/dcim/sites/${site.body.id}/`, { tags: [{ slug: "gamma" }] });
    expect(unknown.body).toEqual({ tags: ["Related object not found using the provided attributes: {'slug': 'gamma'}"] });
  });

  it("count their tagged objects and leave no links behind when objects go", async () => {
    const tag = await api.post("/api/extras/tags/", { name: "Count", slug: "count" });
    const sites = await api.post(
      "/api/dcim/sites/",
      [1, 2].map((i) => ({ name: `C${i}`, slug: `c${i}`, tags: [tag.body.id] })),
    );
    expect((await api.get(`/api/extras/tags/${tag.body.id}/`)).body.tagged_items).toBe(2);
    await api.delete(
      "/api/dcim/sites/",
      sites.body.map((s: any) => ({ id: s.id })),
    );
    expect((await api.get(`/api/extras/tags/${tag.body.id}/`)).body.tagged_items).toBe(0);
  });

  it("are recorded by name in change records", async () => {
    const site = await api.post("/api/dcim/sites/", { name: "Snap", slug: "snap", tags: [{ slug: "alpha" }] });
    const [change] = await api.db.kysely
      .selectFrom("core_objectchange")
      .selectAll()
      .where("request_id", "=", site.headers.get("X-Request-ID")!)
      .execute();
    const post = JSON.parse(String(change.postchange_data));
    expect(post).toMatchObject({ name: "Snap", slug: "snap", tags: ["Alpha"], status: "active" });
    expect(post).not.toHaveProperty("id");
    expect(change).toMatchObject({ user_name: "admin", object_repr: "Snap", action: "create" });
  });
});

describe("nested groups (regions)", () => {
  it("keep their depth, count sites through descendants, and refuse cycles", async () => {
    const root = await api.post("/api/dcim/regions/", { name: "Root", slug: "root" });
    const mid = await api.post("/api/dcim/regions/", { name: "Mid", slug: "mid", parent: root.body.id });
    const leaf = await api.post("/api/dcim/regions/", { name: "Leaf", slug: "leaf", parent: { slug: "mid" } });
    expect([root.body._depth, mid.body._depth, leaf.body._depth]).toEqual([0, 1, 2]);
    await api.post("/api/dcim/sites/", { name: "Deep", slug: "deep", region: leaf.body.id });
    expect((await api.get(`/api/dcim/regions/${root.body.id}/`)).body.site_count).toBe(1);
    expect((await api.get(`/api/dcim/regions/${mid.body.id}/?brief=1`)).body).toMatchObject({ site_count: 1, _depth: 1 });

    const cycle = await api.patch(`/api/dcim/regions/${root.body.id}/`, { parent: leaf.body.id });
    expect(cycle).toMatchObject({ status: 400, body: { parent: ["Cannot assign self or child region as parent."] } });
    expect((await api.patch(`/api/dcim/regions/${mid.body.id}/`, { parent: mid.body.id })).status).toBe(400);

    const moved = await api.patch(`/api/dcim/regions/${mid.body.id}/`, { parent: null });
    expect(moved.body._depth).toBe(0);
    expect((await api.get(`/api/dcim/regions/${leaf.body.id}/`)).body._depth).toBe(1);
  });

  it("want unique names among siblings only", async () => {
    const a = await api.post("/api/dcim/regions/", { name: "A", slug: "a" });
    const b = await api.post("/api/dcim/regions/", { name: "B", slug: "b" });
    expect((await api.post("/api/dcim/regions/", { name: "North", slug: "north-a", parent: a.body.id })).status).toBe(201);
    expect((await api.post("/api/dcim/regions/", { name: "North", slug: "north-b", parent: b.body.id })).status).toBe(201);
    const clash = await api.post("/api/dcim/regions/", { name: "North", slug: "north-c", parent: a.body.id });
    expect(clash).toMatchObject({ status: 400, body: { __all__: ["A region with this name already exists under the same parent."] } });
    const topClash = await api.post("/api/dcim/regions/", { name: "A", slug: "a2" });
    expect(topClash.status).toBe(400);
  });

  it("refuse deletion while sites (even of descendants) use them: 409, nothing deleted", async () => {
    const top = await api.post("/api/dcim/regions/", { name: "Top", slug: "top" });
    const child = await api.post("/api/dcim/regions/", { name: "Child", slug: "child", parent: top.body.id });
    const site = await api.post("/api/dcim/sites/", { name: "Holder", slug: "holder", region: child.body.id });
    const reply = await api.delete(`/api/dcim/regions/${top.body.id}/`);
    expect(reply.status).toBe(409);
    expect(reply.body.detail).toBe(`Unable to delete object. 1 dependent objects were found: Holder (${site.body.id})`);
    expect((await api.get(`/api/dcim/regions/${child.body.id}/`)).status).toBe(200);

    await api.delete(`/api/dcim/sites/${site.body.id}/`);
    const gone = await api.delete(`/api/dcim/regions/${top.body.id}/`);
    expect(gone.status).toBe(204);
    expect((await api.get(`/api/dcim/regions/${child.body.id}/`)).status).toBe(404);
    const records = await api.db.kysely
      .selectFrom("core_objectchange")
      .select(["changed_object_id", "action"])
      .where("request_id", "=", gone.headers.get("X-Request-ID")!)
      .execute();
    expect(records.map((r) => r.changed_object_id).sort()).toEqual([top.body.id, child.body.id].sort());
  });

  it("bulk delete is all or none when one object is protected", async () => {
    const free = await api.post("/api/tenancy/tenants/", { name: "Free", slug: "free" });
    const used = await api.post("/api/tenancy/tenants/", { name: "Used", slug: "used" });
    await api.post("/api/dcim/sites/", { name: "User", slug: "user", tenant: used.body.id });
    const reply = await api.delete("/api/tenancy/tenants/", [{ id: free.body.id }, { id: used.body.id }]);
    expect(reply.status).toBe(409);
    expect((await api.get(`/api/tenancy/tenants/${free.body.id}/`)).status).toBe(200);
  });
});

describe("input validation", () => {
  it("trims strings and reports every bad field at once in NetBox's messages", async () => {
    const trimmed = await api.post("/api/extras/tags/", { name: "  Spaced  ", slug: "spaced" });
    expect(trimmed.body.name).toBe("Spaced");
    const reply = await api.post("/api/dcim/sites/", {
      name: "x".repeat(101),
      slug: "no spaces",
      status: { value: "active" },
      latitude: "north",
      longitude: 500,
      custom_fields: [1],
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      name: ["Ensure this field has no more than 100 characters."],
      slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
      status: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'],
      latitude: ["A valid number is required."],
      longitude: ["Ensure this value is less than or equal to 180."],
      custom_fields: ["Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values."],
    });
  });

  it("ignores unknown and read-only keys", async () => {
    const reply = await api.post("/api/extras/tags/", { name: "RO", slug: "ro", id: 999, url: "x", tagged_items: 5, bogus: 1 });
    expect(reply.status).toBe(201);
    expect(reply.body.id).not.toBe(999);
    expect(reply.body.tagged_items).toBe(0);
  });

  it("merges custom_fields on PATCH", async () => {
    await api.post("/api/extras/custom-fields/", [
      { name: "a", type: "integer", object_types: ["dcim.site"] },
      { name: "b", type: "text", object_types: ["dcim.site"] },
    ]);
    const site = await api.post("/api/dcim/sites/", { name: "CF", slug: "cf", custom_fields: { a: 1, b: "x" } });
    expect(site.body.custom_fields).toEqual({ a: 1, b: "x" });
    const patched = await api.patch(`/api/dcim/sites/${site.body.id}/`, { custom_fields: { b: "y" } });
    expect(patched.body.custom_fields).toEqual({ a: 1, b: "y" });
  });

  it("treats duplicates within one bulk request like stored ones", async () => {
    const reply = await api.post("/api/extras/tags/", [
      { name: "Dup", slug: "dup1" },
      { name: "Dup", slug: "dup2" },
    ]);
    expect(reply).toMatchObject({ status: 400, body: [{}, { name: ["tag with this name already exists."] }] });
  });

  it("stores the changelog_message of each item in its change record", async () => {
    const reply = await api.post("/api/extras/tags/", { name: "Msg", slug: "msg", changelog_message: "ticket 42" });
    const [change] = await api.db.kysely
      .selectFrom("core_objectchange")
      .select("message")
      .where("request_id", "=", reply.headers.get("X-Request-ID")!)
      .execute();
    expect(change.message).toBe("ticket 42");
  });
});

describe("site fields", () => {
  it("accept IANA time zones only", async () => {
    const ok = await api.post("/api/dcim/sites/", { name: "TZ", slug: "tz", time_zone: "America/New_York" });
    expect(ok.body.time_zone).toBe("America/New_York");
    const bad = await api.patch(`/api/dcim/sites/${ok.body.id}/`, { time_zone: "Mars/Olympus_Mons" });
    expect(bad).toMatchObject({ status: 400, body: { time_zone: ['"Mars/Olympus_Mons" is not a valid time zone.'] } });
    expect((await api.patch(`/api/dcim/sites/${ok.body.id}/`, { time_zone: null })).body.time_zone).toBeNull();
  });
});

describe("related objects on a list page", () => {
  it("gives each row the related objects its detail gives, whether rows share them or not, in one statement", async () => {
    const maker = await api.post("/api/dcim/manufacturers/", { name: "Shared maker", slug: "shared-maker" });
    const type = await api.post("/api/dcim/device-types/", { manufacturer: maker.body.id, model: "Shared type", slug: "shared-type" });
    const role = await api.post("/api/dcim/device-roles/", { name: "Shared role", slug: "shared-role" });
    const sites = await api.post("/api/dcim/sites/", [
      { name: "Shared A", slug: "shared-a" },
      { name: "Shared B", slug: "shared-b" },
    ]);
    const tenant = await api.post("/api/tenancy/tenants/", { name: "Sharing", slug: "sharing" });
    // Rows naming one site, another, and a tenant on some rows only.
    const devices = await api.post(
      "/api/dcim/devices/",
      Array.from({ length: 7 }, (_, i) => ({
        name: `shared-${i}`,
        device_type: type.body.id,
        role: role.body.id,
        site: sites.body[i % 3 === 0 ? 1 : 0].id,
        tenant: i % 2 ? tenant.body.id : null,
      })),
    );
    expect(devices.status, devices.text).toBe(201);
    const list = await api.get(`/api/dcim/devices/?role=shared-role&limit=5&offset=1&ordering=-name`);
    expect(list.body.results.map((d: { name: string }) => d.name)).toEqual(["shared-5", "shared-4", "shared-3", "shared-2", "shared-1"]);
    for (const row of list.body.results) {
      const detail = (await api.get(`/api/dcim/devices/${row.id}/`)).body;
      for (const key of ["site", "tenant", "device_type", "role", "rack", "platform", "primary_ip4"])
        expect(row[key], key).toEqual(detail[key]);
    }
    expect(list.body.results.filter((d: { tenant: unknown }) => d.tenant === null)).toHaveLength(2);
    expect(new Set(list.body.results.map((d: { site: { id: number } }) => d.site.id))).toEqual(
      new Set(sites.body.map((s: { id: number }) => s.id)),
    );
    const sharing = list.body.results.filter((d: { site: { id: number } }) => d.site.id === sites.body[0].id);
    expect(sharing.length).toBeGreaterThan(1);
    for (const d of sharing) expect(d.site).toEqual(sharing[0].site);
    // The page, its count and the filter's check: no statement per related object.
    const { statements } = await api.cost(() => api.get(`/api/dcim/devices/?role=shared-role&limit=5`));
    expect(statements).toBeLessThanOrEqual(4);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { createHarness, type Harness } from "./support/harness.ts";

/**
 * Requests that once crashed the service (500), as a hostile client or a careless script sends
 * them. Each must get a NetBox-shaped 4xx (or its 2xx when valid) and change nothing.
 */
let api: Harness;
beforeAll(async () => {
  api = await createHarness({ MAX_BULK_OBJECTS: "50000" });
});
afterAll(() => api.close());

const changes = async (requestId: string | null) =>
  (await api.db.kysely.selectFrom("core_objectchange").selectAll().where("request_id", "=", requestId!).execute()) as any[];

describe("pagination values out of range", () => {
  it("answers offsets and limits beyond 64 bits with an empty page, not a 500", async () => {
    await api.post("/api/dcim/regions/", { name: "Somewhere", slug: "somewhere" });
    for (const query of [
      "offset=9223372036854775807",
      "offset=100000000000000000000&limit=100000000000000000000",
      "offset=1e999",
      "limit=-5&offset=-1",
    ]) {
      const reply = await api.get(`/api/dcim/regions/?${query}`);
      expect(reply.status, `${query}: ${reply.text}`).toBe(200);
      expect(reply.body.count).toBeGreaterThan(0);
    }
    expect((await api.get("/api/dcim/regions/?offset=9223372036854775807")).body.results).toEqual([]);
  });
});

describe("input nested beyond reason", () => {
  it("refuses a related reference nested 1,200 levels deep with a 400 naming the field", async () => {
    let ref: Record<string, unknown> = { slug: "x" };
    for (let i = 0; i < 1200; i++) ref = { parent: ref };
    const reply = await api.post("/api/dcim/sites/", { name: "Deep", slug: "deep", region: ref });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.region[0]).toMatch(/nested at most/);
    expect((await api.get("/api/dcim/sites/?slug=deep")).body.count).toBe(0);
  });

  it("refuses custom_fields (and other JSON data) nested 5,000 levels deep", async () => {
    // Built as text: the client side's own JSON.stringify would overflow its stack first.
    const data = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const reply = await api.post("/api/dcim/sites/", `{"name": "Deep", "slug": "deep", "custom_fields": ${data}}`);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.custom_fields[0]).toMatch(/nested at most/);
    const list = await api.post("/api/dcim/sites/", {
      name: "Deep",
      slug: "deep",
      custom_fields: { a: Array.from({ length: 100 }).reduce<unknown>((x) => [x], []) },
    });
    expect(list.status).toBe(400);
  });
});

describe("bulk requests of any size", () => {
  it("refuses patches and deletes by 40,000 ids of which most do not exist, aligned, writing nothing", async () => {
    const made = await api.post("/api/dcim/regions/", [
      { name: "A1", slug: "a1" },
      { name: "A2", slug: "a2" },
    ]);
    const ids = [...made.body.map((r: any) => r.id), ...Array.from({ length: 39_998 }, (_, i) => 1_000_000 + i)];
    const patched = await api.patch(
      "/api/dcim/regions/",
      ids.map((id) => ({ id, description: "bulk" })),
    );
    expect(patched.status, patched.text.slice(0, 300)).toBe(400);
    expect(patched.body).toHaveLength(40_000);
    expect(patched.body.slice(0, 3)).toEqual([{}, {}, { id: ["Object not found."] }]);
    const deleted = await api.delete(
      "/api/dcim/regions/",
      ids.map((id) => ({ id })),
    );
    expect(deleted.status, deleted.text.slice(0, 300)).toBe(400);
    expect((await api.get(`/api/dcim/regions/${made.body[0].id}/`)).body.description).toBe("");
    expect(await changes(patched.headers.get("X-Request-ID"))).toHaveLength(0);
    expect(await changes(deleted.headers.get("X-Request-ID"))).toHaveLength(0);
  });

  it("filters by 2,000 ids in one query", async () => {
    const query = Array.from({ length: 2000 }, (_, i) => `id=${i + 1}`).join("&");
    expect((await api.get(`/api/dcim/regions/?${query}`)).status).toBe(200);
  });

  it("refuses a bulk request above MAX_BULK_OBJECTS with a 400 saying so, before any work", async () => {
    const small = await createHarness({ MAX_BULK_OBJECTS: "10" });
    const before = await small.get("/api/dcim/regions/");
    for (const [method, body] of [
      ["POST", Array.from({ length: 11 }, (_, i) => ({ name: `R${i}`, slug: `r${i}` }))],
      ["PATCH", Array.from({ length: 11 }, (_, i) => ({ id: i + 1, description: "x" }))],
      ["DELETE", Array.from({ length: 11 }, (_, i) => ({ id: i + 1 }))],
    ] as const) {
      const reply = await small.request(method, "/api/dcim/regions/", { body });
      expect(reply.status, method).toBe(400);
      expect(reply.body.detail).toMatch(/at most 10 objects \(MAX_BULK_OBJECTS\)/);
    }
    expect((await small.get("/api/dcim/regions/")).body.count).toBe(before.body.count);
    small.close();
  });
});

describe("updates that change no stored column", () => {
  it("PATCH {} on a model without timestamps answers 200 and records the change", async () => {
    const group = await api.post("/api/users/groups/", { name: "Empty" });
    const reply = await api.patch(`/api/users/groups/${group.body.id}/`, {});
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(group.body);
    expect((await changes(reply.headers.get("X-Request-ID"))).map((c) => c.action)).toEqual(["update"]);
  });

  it("PATCH of only an m2m set (a user's groups) answers 200", async () => {
    const group = await api.post("/api/users/groups/", { name: "Members" });
    const user = await api.post("/api/users/users/", { username: "joiner", password: "A-long-password-1" });
    const reply = await api.patch(`/api/users/users/${user.body.id}/`, { groups: [group.body.id] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.groups.map((g: any) => g.id)).toEqual([group.body.id]);
    const [change] = await changes(reply.headers.get("X-Request-ID"));
    expect(JSON.parse(change.postchange_data).groups).toEqual([group.body.id]);
    expect(JSON.parse(change.prechange_data).groups).toEqual([]);
  });
});

describe("change-record snapshots", () => {
  it("are the stored object as the API shows it (a region's _depth)", async () => {
    const root = await api.post("/api/dcim/regions/", { name: "Snap root", slug: "snap-root" });
    const child = await api.post("/api/dcim/regions/", { name: "Snap child", slug: "snap-child", parent: root.body.id, tags: [] });
    const [created] = await changes(child.headers.get("X-Request-ID"));
    const post = JSON.parse(created.postchange_data);
    expect(post._depth).toBe(1);
    expect(post.parent).toBe(root.body.id);
    expect(created.object_repr).toBe("Snap child");
    const moved = await api.patch(`/api/dcim/regions/${child.body.id}/`, { parent: null });
    const [updated] = await changes(moved.headers.get("X-Request-ID"));
    expect([JSON.parse(updated.prechange_data)._depth, JSON.parse(updated.postchange_data)._depth]).toEqual([1, 0]);
    expect(moved.body._depth).toBe(0);
  });
});

describe("references by attributes", () => {
  it("may not name write-only fields (a user's password)", async () => {
    const reply = await api.post("/api/users/tokens/", { user: { username: "admin", password: "admin-password" } });
    expect(reply.status).toBe(400);
    expect(reply.body.user[0]).toMatch(/^Related object not found using the provided attributes/);
  });

  it("do not let a user probe models they may not read (no oracle on another user's e-mail)", async () => {
    await api.post("/api/users/users/", { username: "victim", password: "Victim-password-1", email: "victim@example.com" });
    const key = await api.token({ superuser: false, username: "prober" });
    expect((await api.get("/api/users/users/", { token: key })).status).toBe(403);
    const guess = (email: string) => api.post("/api/users/tokens/", { user: { username: "victim", email } }, { token: key });
    const right = await guess("victim@example.com");
    const wrong = await guess("nobody@example.com");
    expect(right.status).toBe(wrong.status);
    expect(right.body).toEqual({
      user: ["Related object not found using the provided attributes: {'username': 'victim', 'email': 'victim@example.com'}"],
    });
  });
});

/**
 * A database whose next write transaction is preceded by another writer's statements, committed
 * in between: the race between a request's read batch and its write transaction, made certain.
 */
function racing(db: Database, sql: string): Database {
  let armed = true;
  return {
    ...db,
    stats: db.stats,
    kysely: db.kysely,
    async batch(statements, mode) {
      if (mode === "write" && armed) {
        armed = false;
        await db.batch([{ sql, parameters: [] }], "write");
      }
      return db.batch(statements, mode);
    },
  };
}

describe("writes that cannot half-commit", () => {
  it("a row deleted by another request between the checks and the write: 404, nothing written", async () => {
    const tag = await api.post("/api/extras/tags/", { name: "Race", slug: "race" });
    const site = await api.post("/api/dcim/sites/", { name: "Racy", slug: "racy" });
    const db = racing(api.db, `DELETE FROM dcim_site WHERE id = ${site.body.id}`);
    const response = await api.app.fetch(
      new Request(`http://inventory.test/api/dcim/sites/${site.body.id}/`, {
        method: "PATCH",
        headers: { Authorization: "Token 0123456789abcdef0123456789abcdef01234567", "Content-Type": "application/json" },
        body: JSON.stringify({ description: "too late", tags: [tag.body.id] }),
      }),
      { db, clientAddress: "127.0.0.1" },
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "No Site matches the given query." });
    const links = await api.db.kysely.selectFrom("extras_taggeditem").selectAll().where("object_id", "=", site.body.id).execute();
    expect(links).toEqual([]);
    expect(await changes(response.headers.get("X-Request-ID"))).toEqual([]);
  });

  it("a bulk delete whose rows vanish meanwhile aborts whole", async () => {
    const made = await api.post("/api/dcim/regions/", [
      { name: "V1", slug: "v1" },
      { name: "V2", slug: "v2" },
    ]);
    const db = racing(api.db, `DELETE FROM dcim_region WHERE id = ${made.body[1].id}`);
    const response = await api.app.fetch(
      new Request("http://inventory.test/api/dcim/regions/", {
        method: "DELETE",
        headers: { Authorization: "Token 0123456789abcdef0123456789abcdef01234567", "Content-Type": "application/json" },
        body: JSON.stringify(made.body.map((r: any) => ({ id: r.id }))),
      }),
      { db, clientAddress: "127.0.0.1" },
    );
    expect(response.status).toBe(404);
    expect((await api.get(`/api/dcim/regions/${made.body[0].id}/`)).status).toBe(200);
    expect(await changes(response.headers.get("X-Request-ID"))).toEqual([]);
  });

  it("a token deleted between requests is refused on the very next request, though cached", async () => {
    const key = await api.token({ superuser: true, username: "short-lived" });
    expect((await api.get("/api/dcim/sites/", { token: key })).status).toBe(200);
    const mine = await api.get("/api/users/tokens/?description=&limit=0");
    const token = mine.body.results.find((t: any) => t.key === key);
    expect((await api.delete(`/api/users/tokens/${token.id}/`)).status).toBe(204);
    const reply = await api.get("/api/dcim/sites/", { token: key });
    expect(reply).toMatchObject({ status: 403, body: { detail: "Invalid token" } });
  });
});

describe("names that are Object's own properties", () => {
  it("name no field in references, filters, ordering and field selection (once a 500)", async () => {
    const site = await api.post("/api/dcim/sites/", { name: "Proto", slug: "proto" });
    const panel = await api.post("/api/dcim/power-panels/", { name: "Proto panel", site: site.body.id });
    expect(panel.status, panel.text).toBe(201);
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      const reply = await api.request("PUT", `/api/dcim/power-panels/${panel.body.id}/`, {
        body: `{"name": "P", "site": {"${key}": null}}`,
      });
      expect(reply.status, `${key}: ${reply.text}`).toBe(400);
      expect(reply.body.site).toBeDefined();
      expect(await changes(reply.headers.get("X-Request-ID"))).toEqual([]);
      const nested = await api.post("/api/dcim/power-panels/", { name: "Q", site: { [key]: { slug: "proto" } } });
      expect(nested.status, `${key}: ${nested.text}`).toBe(400);
      for (const query of [
        `${key}=1`,
        `name__${key}=x`,
        `site__${key}=x`,
        `ordering=${key}`,
        `fields=${key}`,
        `omit=${key}`,
        `brief=1&fields=name,${key}`,
      ]) {
        const list = await api.get(`/api/dcim/power-panels/?${query}`);
        expect(list.status, `${query}: ${list.text}`).toBeLessThan(500);
      }
    }
  });
});

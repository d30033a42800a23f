import { registry } from "../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ADMIN_TOKEN, createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

/**
 * A request is served a second time when its cached credentials turn out stale (`StaleAuth`) or
 * a refusal decided on cached permissions is re-checked. Its body must then be the one read the
 * first time: the stream can be read once only, and reading it again answered 500 ("ReadableStream
 * is locked"). Every declared route that takes a body, the list writes and the detail DELETE are
 * tried with a stale cache and with a read-only token.
 */
let api: Harness;
let userId: number;
const parents: Record<string, number> = {};
const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

/**
 * Leaves `token` cached as of an auth_state version that is no longer current: the superuser's
 * own cache entry is refreshed first (a stale one would clear the whole cache when found), then
 * `token` is cached, then a permission is created, which moves the version.
 */
async function staleCache(token: string): Promise<void> {
  await api.get("/api/users/users/?limit=1");
  await api.get("/api/users/users/?limit=1", { token });
  await make(api, "/api/users/permissions/", { name: `bump ${Math.random()}`, object_types: ["dcim.site"], actions: ["view"] });
}

/** Every declared route that takes a body, as method and path (detail routes on an existing object). */
function declaredBodyRoutes(): { method: string; path: string; body: unknown }[] {
  return registry.models.flatMap((model) =>
    model.routes.flatMap((route) =>
      route.methods
        .filter((m) => WRITES.includes(m))
        .map((method) => ({
          method,
          path: route.detail
            ? `/api/${model.app}/${model.path}/${parents[model.objectType] ?? 1}/${route.name}/`
            : `/api/${model.app}/${model.path}/${route.name}/`,
          body:
            route.name === "provision"
              ? { username: "writer", password: "A-password-123" }
              : route.name === "available-prefixes"
                ? { prefix_length: 28 }
                : route.detail
                  ? {}
                  : [{ id: 1 }],
        })),
    ),
  );
}

beforeAll(async () => {
  api = await createHarness();
  const rir = await make(api, "/api/ipam/rirs/", { name: "RIR", slug: "rir" });
  parents["ipam.prefix"] = await make(api, "/api/ipam/prefixes/", { prefix: "10.1.0.0/24" });
  parents["ipam.iprange"] = await make(api, "/api/ipam/ip-ranges/", { start_address: "10.2.0.1/24", end_address: "10.2.0.50/24" });
  parents["ipam.vlangroup"] = await make(api, "/api/ipam/vlan-groups/", { name: "G", slug: "g", vid_ranges: [[100, 199]] });
  parents["ipam.asnrange"] = await make(api, "/api/ipam/asn-ranges/", { name: "R", slug: "r", rir, start: 64512, end: 64600 });
  userId = await make(api, "/api/users/users/", { username: "writer", password: "A-password-123" });
  await make(api, "/api/users/permissions/", {
    name: "everything",
    object_types: registry.models.map((m) => m.objectType),
    actions: ["view", "add", "change", "delete", "retry"],
    users: [userId],
  });
});
afterAll(() => api.close());

describe("a request served twice", () => {
  it("finds declared routes that take a body (the list below is not empty by accident)", () => {
    const paths = declaredBodyRoutes().map((r) => r.path);
    for (const name of ["available-ips", "available-prefixes", "available-vlans", "available-asns", "provision", "retry"]) {
      expect(
        paths.some((p) => p.includes(`/${name}/`)),
        name,
      ).toBe(true);
    }
  });

  it("reads the body once on every declared route when the cached credentials went stale", async () => {
    const token = (await api.post("/api/users/tokens/", { user: userId })).body.key as string;
    const failures: string[] = [];
    for (const route of declaredBodyRoutes()) {
      await staleCache(token);
      const reply = await api.request(route.method, route.path, { token, body: route.body });
      if (reply.status === 500) failures.push(`${route.method} ${route.path}`);
    }
    expect(failures).toEqual([]);
  });

  it("reads the body once on every declared route when a read-only token's cached refusal is re-checked", async () => {
    const token = (await api.post("/api/users/tokens/", { user: userId, write_enabled: false })).body.key as string;
    await api.get("/api/ipam/prefixes/", { token });
    const failures: string[] = [];
    for (const route of declaredBodyRoutes()) {
      for (let i = 0; i < 2; i++) {
        const reply = await api.request(route.method, route.path, { token, body: route.body });
        if (reply.status === 500) failures.push(`${route.method} ${route.path} (call ${i + 1})`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("reads the body once on list writes and the detail DELETE with stale credentials", async () => {
    const token = (await api.post("/api/users/tokens/", { user: userId })).body.key as string;
    const tries: [string, string, unknown][] = [
      ["POST", "/api/tenancy/tenants/", { name: "T1", slug: "t1" }],
      ["PATCH", "/api/tenancy/tenants/", () => [{ id: tenants[0], description: "x" }]],
      ["PUT", "/api/tenancy/tenants/", () => [{ id: tenants[0], name: "A2", slug: "a2" }]],
      ["PATCH", "/api/tenancy/tenants/<id>/", { description: "y" }],
      // An empty body, as many clients send with DELETE: a stream all the same.
      ["DELETE", "/api/tenancy/tenants/<id>/", ""],
      ["DELETE", "/api/tenancy/tenants/", () => [{ id: tenants[1] }]],
    ];
    const tenants = [
      await make(api, "/api/tenancy/tenants/", { name: "A", slug: "a" }),
      await make(api, "/api/tenancy/tenants/", { name: "B", slug: "b" }),
    ];
    for (const [method, path, body] of tries) {
      await staleCache(token);
      const reply = await api.request(method, path.replace("<id>", String(tenants[0])), {
        token,
        body: typeof body === "function" ? body() : body,
      });
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300);
    }
  });

  it("provisions with a token header", async () => {
    const token = (await api.post("/api/users/tokens/", { user: userId })).body.key as string;
    for (let i = 0; i < 2; i++) {
      await staleCache(token);
      const reply = await api.post("/api/users/tokens/provision/", { username: "writer", password: "A-password-123" }, { token });
      expect(reply.status, reply.text).toBe(201);
    }
  });

  it("logs in after a change of users", async () => {
    await staleCache(ADMIN_TOKEN);
    const reply = await api.post("/login/", { username: "writer", password: "A-password-123" }, { token: null });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe("the request body", () => {
  it("is read by the pipeline only: no handler touches the request's stream", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const offenders = files("src")
      .filter((file) => file.endsWith(".ts") && !file.endsWith(join("http", "body.ts")) && !file.includes(`${join("src", "runtime")}`))
      .filter((file) =>
        /request\.(body\b|json\(|text\(|formData\(|arrayBuffer\()|\b(readText|readJson)\(ctx\.request/.test(readFileSync(file, "utf8")),
      );
    expect(offenders).toEqual([]);
  });
});

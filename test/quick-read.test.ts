import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import type { QuickAnswer } from "../src/http/quick-request.ts";

/*
 * A model's list or object read with a cached token is answered before any Request is made
 * (src/http/quick-read.ts). Every request it answers must get exactly what the pipeline gives, at
 * the same cost; everything else it must leave to the pipeline.
 */

let h: Harness;
let device: number;
beforeAll(async () => {
  h = await createHarness({ ALLOWED_HOSTS: "inventory.test,.example.com" });
  const tenant = (await h.post("/api/tenancy/tenants/", { name: "Quick", slug: "quick" })).body.id;
  const region = (await h.post("/api/dcim/regions/", { name: "Region", slug: "region" })).body.id;
  const sites = await h.post(
    "/api/dcim/sites/",
    Array.from({ length: 12 }, (_, i) => ({
      name: `Site ${i}`,
      slug: `site-${i}`,
      region,
      tenant: i % 2 ? tenant : null,
      status: "active",
    })),
  );
  expect(sites.status).toBe(201);
  await h.post("/api/extras/custom-fields/", { name: "owner", type: "text", object_types: ["dcim.site"] });
  await h.patch(`/api/dcim/sites/${sites.body[0].id}/`, { custom_fields: { owner: "ops" }, description: "naïve ünïcode" });
  const manufacturer = (await h.post("/api/dcim/manufacturers/", { name: "M", slug: "m" })).body.id;
  const type = (await h.post("/api/dcim/device-types/", { manufacturer, model: "T", slug: "t" })).body.id;
  const role = (await h.post("/api/dcim/device-roles/", { name: "R", slug: "r" })).body.id;
  device = (await h.post("/api/dcim/devices/", { name: "d1", device_type: type, role, site: sites.body[1].id, tenant })).body.id;
  await h.post("/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" });
  // The token is cached by a first request through the pipeline, as any client's first request is.
  expect((await h.get("/api/dcim/sites/")).status).toBe(200);
});
afterAll(() => h.close());

interface Case {
  readonly path: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly clientAddress?: string;
}

const asked = (c: Case) => ({
  method: c.method ?? "GET",
  url: `${ORIGIN}${c.path}`,
  headers: { Host: "inventory.test", Authorization: `Token ${ADMIN_TOKEN}`, ...c.headers },
});

/** What the quick path answers (its body as text), or null when it leaves the request to the pipeline. */
async function quick(c: Case): Promise<QuickAnswer | null> {
  const { method, url, headers } = asked(c);
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const answer = await h.app.quick(
    { method, url, header: (name) => lower.get(name), clientAddress: c.clientAddress ?? "127.0.0.1" },
    { db: h.db, clientAddress: c.clientAddress ?? "127.0.0.1" },
  );
  return answer && { ...answer, body: typeof answer.body === "string" ? answer.body : new TextDecoder().decode(answer.body) };
}

/** What the pipeline answers, as the quick path gives it (lowercase headers, text). */
async function pipeline(c: Case): Promise<QuickAnswer> {
  const { method, url, headers } = asked(c);
  const response = await h.app.fetch(new Request(url, { method, headers }), { db: h.db, clientAddress: c.clientAddress ?? "127.0.0.1" });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

const withoutRequestId = ({ headers, ...rest }: QuickAnswer) => {
  const { "x-request-id": id, ...kept } = headers;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return { ...rest, headers: kept };
};

describe("model reads answered without the pipeline", () => {
  it("answers lists and objects as the pipeline does: full, brief, fields, omit, filters, ordering, pages, nested objects, custom fields", async () => {
    const answered: Case[] = [
      { path: "/api/dcim/sites/" },
      { path: "/api/dcim/sites/?limit=5&offset=5" },
      { path: "/api/dcim/sites/?limit=0" },
      { path: "/api/dcim/sites/?brief=1&limit=3" },
      { path: "/api/dcim/sites/?fields=id,name,region" },
      { path: "/api/dcim/sites/?omit=tags&ordering=-name" },
      { path: "/api/dcim/sites/?tenant=quick&status=active" },
      { path: "/api/dcim/sites/?q=Site%201&name__ic=site" },
      { path: "/api/dcim/sites/?cf_owner=ops" },
      { path: "/api/dcim/sites/1/" },
      { path: "/api/dcim/sites/1/?brief=true" },
      { path: "/api/dcim/sites/1/?fields=name,custom_fields" },
      { path: `/api/dcim/devices/${device}/` },
      { path: `/api/dcim/devices/?tenant_id=1&exclude=config_context` },
      { path: `/api/dcim/interfaces/?device_id=${device}` },
      { path: "/api/extras/object-changes/?limit=2" },
      { path: "/api/extras/object-changes/1/" },
      { path: "/api/tenancy/tenants/", headers: { Accept: "application/json" } },
      { path: "/api/tenancy/tenants/", headers: { Host: "api.example.com:8080" } },
      { path: "/api/tenancy/tenants/", headers: { Authorization: `Bearer ${ADMIN_TOKEN.toUpperCase()}` } },
    ];
    for (const c of answered) {
      const fast = await quick(c);
      expect(fast, c.path).not.toBeNull();
      expect(withoutRequestId(fast!), c.path).toEqual(withoutRequestId(await pipeline(c)));
    }
    const other = (await quick({ path: "/api/dcim/sites/?limit=1", headers: { Host: "api.example.com:8080" } }))!;
    expect(JSON.parse(other.body as string).next).toBe("http://api.example.com:8080/api/dcim/sites/?limit=1&offset=1");
  });

  it("costs what the pipeline costs: the same statements in the same round trips", async () => {
    for (const path of ["/api/dcim/sites/1/", "/api/dcim/sites/?limit=5", `/api/dcim/devices/${device}/`]) {
      const fast = await h.cost(() => quick({ path }));
      const slow = await h.cost(() => pipeline({ path }));
      expect(fast, path).toEqual(slow);
      expect(fast.roundTrips, path).toBe(1);
    }
  });

  it("leaves everything else to the pipeline: errors, refusals, anonymous reads, pages, exports, other methods and paths", async () => {
    const reader = await h.token({ superuser: false });
    const left: Case[] = [
      { path: "/api/dcim/sites/99999/" },
      { path: "/api/dcim/unknown-things/" },
      { path: "/api/dcim/sites/abc/" },
      { path: "/api/dcim/sites/1" },
      { path: "/api/dcim/sites/1/extra/" },
      { path: "/api/dcim/sites/?tenant=no-such-tenant" },
      { path: "/api/dcim/sites/?format=json" },
      { path: "/api/dcim/sites/?format=api" },
      { path: "/api/dcim/sites/?export=nothing" },
      { path: "/api/dcim/sites/", headers: { Authorization: "" } },
      { path: "/api/dcim/sites/", headers: { Authorization: `Token ${"f".repeat(40)}` } },
      { path: "/api/dcim/sites/", headers: { Accept: "text/html" } },
      { path: "/api/dcim/sites/", headers: { Cookie: "sessionid=abc.def" } },
      { path: "/api/dcim/sites/", headers: { Host: "elsewhere.test" } },
      { path: "/api/dcim/sites/", method: "HEAD" },
      { path: "/api/dcim/sites/", method: "OPTIONS" },
      { path: "/api/dcim/sites/1/", method: "DELETE" },
      { path: "/api/status/" },
      { path: "/api/dcim/" },
      { path: "/api/dcim/connected-device/?peer_device=d1&peer_interface=eth0" },
      { path: `/api/dcim/devices/${device}/render-config/` },
      { path: "/api/dcim/sites/", headers: { Authorization: `Token ${reader}` } },
    ];
    // The reader's token is cached by a read it may make; sites it may not read.
    expect((await h.get("/api/users/config/", { token: reader })).status).toBe(200);
    for (const c of left) expect(await quick(c), `${c.method ?? "GET"} ${c.path}`).toBeNull();
    // What the pipeline then answers stays its own.
    expect((await pipeline(left[0])).status).toBe(404);
    expect((await pipeline(left[5])).status).toBe(400);
    expect((await pipeline(left[left.length - 1])).status).toBe(403);
    expect((await pipeline({ path: "/api/dcim/sites/?format=json" })).status).toBe(200);
  });

  it("answers a page longer than a text answer from the page's bytes, as the pipeline and the serializer do", async () => {
    const region = (await h.post("/api/dcim/regions/", { name: "Long", slug: "long" })).body.id;
    const created = await h.post(
      "/api/dcim/sites/",
      Array.from({ length: 40 }, (_, i) => ({
        name: `Long ${i}`,
        slug: `long-${i}`,
        region,
        description: `${"ünïcode é ".repeat(15)}${i}`,
        comments: "x".repeat(400),
      })),
    );
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    for (const path of [
      "/api/dcim/sites/?region=long",
      "/api/dcim/sites/?region=long&limit=3",
      "/api/dcim/sites/?region=long&offset=100",
    ]) {
      const fast = (await quick({ path }))!;
      expect(withoutRequestId(fast), path).toEqual(withoutRequestId(await pipeline({ path })));
    }
    const whole = (await quick({ path: "/api/dcim/sites/?region=long&ordering=name" }))!;
    expect(Buffer.byteLength(whole.body as string)).toBeGreaterThan(16 * 1024);
    const read = JSON.parse(whole.body as string);
    expect(read.count).toBe(40);
    expect(read.results.map((s: { name: string }) => s.name)).toEqual(created.body.map((s: { name: string }) => s.name).sort());
    expect(read.results[0].description).toBe(`${"ünïcode é ".repeat(15)}0`);
    // What the pipeline's serializer makes of the same rows, member for member.
    const shaped = (await h.get("/api/dcim/sites/?region=long&ordering=name&fields=id,name,description,comments,region,tenant,tags")).body;
    expect(
      read.results.map(({ id, name, description, comments, region, tenant, tags }: Record<string, unknown>) => ({
        id,
        name,
        description,
        comments,
        region,
        tenant,
        tags,
      })),
    ).toEqual(shaped.results);
  });

  it("reads the client's address as the pipeline does behind a trusted proxy, for a token's allowed addresses", async () => {
    const proxied = await createHarness({ TRUSTED_PROXIES: "10.0.0.0/8" });
    try {
      const user = await proxied.post("/api/users/users/", { username: "behind-proxy", password: "A-password-123", is_superuser: true });
      const token = (await proxied.post("/api/users/tokens/", { user: user.body.id, allowed_ips: ["192.0.2.0/24"] })).body.key as string;
      const ask = (forwardedFor: string) => {
        const headers = new Map([
          ["host", "inventory.test"],
          ["authorization", `Token ${token}`],
          ["x-forwarded-for", forwardedFor],
        ]);
        return proxied.app.quick(
          { method: "GET", url: `${ORIGIN}/api/dcim/sites/`, header: (name) => headers.get(name), clientAddress: "10.1.1.1" },
          { db: proxied.db, clientAddress: "10.1.1.1" },
        );
      };
      // Cached by a first read through the pipeline from an allowed client behind the proxy.
      const first = await proxied.get("/api/dcim/sites/", {
        token,
        clientAddress: "10.1.1.1",
        headers: { "X-Forwarded-For": "192.0.2.7" },
      });
      expect(first.status).toBe(200);
      expect(await ask("192.0.2.7")).not.toBeNull();
      expect(await ask("198.51.100.1")).toBeNull();
    } finally {
      proxied.close();
    }
  });
});

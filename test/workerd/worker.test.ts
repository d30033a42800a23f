/**
 * The Worker entry under real workerd, against the local libSQL server from global-setup.ts: the
 * worker migrates the database and creates the superuser (SUPERUSER_* bindings) on its first request.
 */
import { describe, expect, it } from "vitest";
import { call, unique } from "./support.ts";

describe("worker entry under workerd", () => {
  it("GET /api/ answers 200 with API-Version and X-Request-ID", async () => {
    const reply = await call("GET", "/api/");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("API-Version")).toBe("4.2");
    expect(reply.headers.get("X-Request-ID")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(reply.body.dcim).toBe("http://inventory.test/api/dcim/");
  });

  it("refuses an anonymous list with 403", async () => {
    const reply = await call("GET", "/api/dcim/sites/", { token: null });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: "Authentication credentials were not provided." });
  });

  it("creates, lists, patches and bulk-deletes sites with a nested region", async () => {
    const id = unique();
    const region = await call("POST", "/api/dcim/regions/", { body: { name: `Region ${id}`, slug: `region-${id}` } });
    expect(region.status, region.text).toBe(201);

    const site = await call("POST", "/api/dcim/sites/", {
      body: { name: `Site ${id}`, slug: `site-${id}`, status: "active", region: { slug: `region-${id}` } },
    });
    expect(site.status, site.text).toBe(201);
    expect(site.body.region).toMatchObject({ id: region.body.id, slug: `region-${id}`, name: `Region ${id}` });
    const second = await call("POST", "/api/dcim/sites/", { body: { name: `Site ${id} b`, slug: `site-${id}-b` } });
    expect(second.status, second.text).toBe(201);

    const list = await call("GET", `/api/dcim/sites/?region=region-${id}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({
      id: site.body.id,
      url: `http://inventory.test/api/dcim/sites/${site.body.id}/`,
      region: { id: region.body.id, slug: `region-${id}`, url: `http://inventory.test/api/dcim/regions/${region.body.id}/` },
    });

    const patched = await call("PATCH", `/api/dcim/sites/${site.body.id}/`, { body: { status: "planned", description: "moved" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ status: { value: "planned" }, description: "moved" });
    expect((await call("GET", `/api/dcim/sites/${site.body.id}/`)).body.description).toBe("moved");

    const deleted = await call("DELETE", "/api/dcim/sites/", { body: [{ id: site.body.id }, { id: second.body.id }] });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await call("GET", `/api/dcim/sites/${site.body.id}/`)).status).toBe(404);
    expect((await call("GET", `/api/dcim/sites/${second.body.id}/`)).status).toBe(404);
    expect((await call("DELETE", `/api/dcim/regions/${region.body.id}/`)).status).toBe(204);
  });

  it("takes the client address from CF-Connecting-IP for a token's allowed_ips", async () => {
    const token = await call("POST", "/api/users/tokens/", { body: { allowed_ips: ["10.1.2.0/24"], description: `ip ${unique()}` } });
    expect(token.status, token.text).toBe(201);
    const key = token.body.key as string;
    expect(key).toMatch(/^[0-9a-f]{40}$/);

    const inside = await call("GET", "/api/dcim/sites/", { token: key, headers: { "CF-Connecting-IP": "10.1.2.3" } });
    expect(inside.status, inside.text).toBe(200);

    const outside = await call("GET", "/api/dcim/sites/", { token: key, headers: { "CF-Connecting-IP": "192.0.2.1" } });
    expect(outside.status).toBe(403);
    expect(outside.body.detail).toContain("192.0.2.1");

    const unknown = await call("GET", "/api/dcim/sites/", { token: key });
    expect(unknown.status).toBe(403);
  });

  it("answers a nested GraphQL query (devices, their site, interfaces and addresses) over the libSQL client", async () => {
    const id = unique();
    const site = await call("POST", "/api/dcim/sites/", { body: { name: `GQ ${id}`, slug: `gq-${id}` } });
    const mf = await call("POST", "/api/dcim/manufacturers/", { body: { name: `M ${id}`, slug: `m-${id}` } });
    const type = await call("POST", "/api/dcim/device-types/", { body: { manufacturer: mf.body.id, model: `T ${id}`, slug: `t-${id}` } });
    const role = await call("POST", "/api/dcim/device-roles/", { body: { name: `R ${id}`, slug: `r-${id}` } });
    const device = await call("POST", "/api/dcim/devices/", {
      body: { name: `d-${id}`, site: site.body.id, device_type: type.body.id, role: role.body.id },
    });
    expect(device.status, device.text).toBe(201);
    const ifc = await call("POST", "/api/dcim/interfaces/", { body: { device: device.body.id, name: "eth0", type: "1000base-t" } });
    await call("POST", "/api/ipam/ip-addresses/", {
      body: { address: "198.51.100.7/24", assigned_object_type: "dcim.interface", assigned_object_id: ifc.body.id },
    });
    const reply = await call("POST", "/graphql/", {
      body: { query: `{ device_list(filters: {site: ["gq-${id}"]}) { name site { slug } interfaces { name ip_addresses { address } } } }` },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      data: {
        device_list: [
          { name: `d-${id}`, site: { slug: `gq-${id}` }, interfaces: [{ name: "eth0", ip_addresses: [{ address: "198.51.100.7/24" }] }] },
        ],
      },
    });
  });

  it("serves concurrent requests, each with its own libSQL client", async () => {
    const replies = await Promise.all(Array.from({ length: 12 }, () => call("GET", "/api/dcim/regions/?limit=5")));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
  });
});

describe("Swagger UI on Workers", () => {
  it("serves the page and swagger-ui-dist's files from Workers static assets (wrangler.toml [assets])", async () => {
    const page = await call("GET", "/api/schema/swagger-ui/", { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    const bundle = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page.text)![1];
    const file = await call("GET", bundle, { token: null });
    expect(file.status).toBe(200);
    expect(file.headers.get("Cache-Control")).toContain("immutable");
    expect(file.text).toContain("SwaggerUIBundle");
    // The package's demo page and metadata are uploaded with it but never served.
    expect((await call("GET", bundle.replace("swagger-ui-bundle.js", "index.html"), { token: null })).status).toBe(404);
    expect((await call("GET", "/index.html", { token: null })).status).toBe(404);
  });
});

describe("GraphiQL on Workers", () => {
  it("serves the page and the graphiql and React files it loads from Workers static assets, nothing else of them", async () => {
    const page = await call("GET", "/graphql/", { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("font-src 'self' data:");
    const files = [...page.text.matchAll(/(?:src|href)="(\/static\/(?:graphiql|react|react-dom)\/[^"]+)"/g)].map((m) => m[1]);
    expect(files).toHaveLength(4);
    for (const url of files) {
      const file = await call("GET", url, { token: null });
      expect(file.status, url).toBe(200);
      expect(file.headers.get("Cache-Control")).toContain("immutable");
    }
    const bundle = files.find((f) => f.endsWith("/graphiql.min.js"))!;
    expect((await call("GET", bundle, { token: null })).text).toContain("GraphiQL");
    expect((await call("GET", `${bundle}.map`, { token: null })).status).toBe(404);
    expect((await call("GET", "/graphiql/package.json", { token: null })).status).toBe(404);
  });
});

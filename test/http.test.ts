import { registry } from "../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createHarness, ORIGIN, type Harness } from "./support/harness.ts";

let api: Harness;
beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

describe("request pipeline", () => {
  it("redirects a path without its trailing slash with 302, keeping the query", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const reply = await api.request(method, "/api/dcim/sites?name=a&limit=5");
      expect(reply.status).toBe(302);
      expect(reply.headers.get("Location")).toBe(`${ORIGIN}/api/dcim/sites/?name=a&limit=5`);
    }
    expect((await api.get("/api/dcim/sites/1")).headers.get("Location")).toBe(`${ORIGIN}/api/dcim/sites/1/`);
  });

  it("puts API-Version and a fresh X-Request-ID on every response, errors and redirects included", async () => {
    const ids = new Set<string>();
    for (const reply of [
      await api.get("/api/"),
      await api.get("/api/dcim/sites"),
      await api.get("/api/dcim/sites/", { token: null }),
      await api.get("/api/nowhere/at/all/"),
      await api.post("/api/dcim/sites/", "{bad"),
    ]) {
      expect(reply.headers.get("API-Version")).toBe("4.2");
      const id = reply.headers.get("X-Request-ID")!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(5);
  });

  it("reports the configured API_VERSION", async () => {
    const other = await createHarness({ API_VERSION: "4.1" });
    expect((await other.get("/api/")).headers.get("API-Version")).toBe("4.1");
    expect((await other.get("/api/status/")).body["netbox-version"]).toMatch(/^4\.1\./);
    other.close();
  });

  it("answers /api/ to anyone (pynetbox reads API-Version there without its token), listing every application as an absolute URL", async () => {
    expect(await api.get("/api/status/", { token: null })).toMatchObject({
      status: 403,
      body: { detail: "Authentication credentials were not provided." },
    });
    const open = await createHarness({ LOGIN_REQUIRED: "false" });
    expect((await open.get("/api/status/", { token: null })).status).toBe(200);
    expect((await open.get("/api/dcim/sites/", { token: null })).status).toBe(403);
    open.close();
    const reply = await api.get("/api/", { token: null });
    expect(reply.status).toBe(200);
    for (const app of ["circuits", "dcim", "extras", "ipam", "plugins", "tenancy", "users", "virtualization"]) {
      expect(reply.body[app]).toBe(`${ORIGIN}/api/${app}/`);
    }
  });

  it("lists each application's models, sorted, and 404s an unknown application", async () => {
    const dcim = await api.get("/api/dcim/");
    // Its models' list paths, and the routes its models declare at the root (NetBox's `connected-device`).
    const rooted = registry.app("dcim").flatMap((m) => m.routes.filter((r) => r.atAppRoot).map((r) => r.name));
    const paths = [...registry.app("dcim").map((m) => m.path), ...rooted].sort();
    expect(Object.keys(dcim.body)).toEqual(paths);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toEqual(expect.arrayContaining(["devices", "interfaces", "regions", "site-groups", "sites"]));
    expect(dcim.body.sites).toBe(`${ORIGIN}/api/dcim/sites/`);
    expect((await api.get("/api/plugins/")).body).toEqual({});
    expect((await api.get("/api/nope/")).status).toBe(404);
  });

  it("lists in every application root every list path the application serves, aliases included, and each answers", async () => {
    const document = (await api.get("/api/schema/?format=json")).body;
    const served = new Map<string, Set<string>>();
    for (const path of Object.keys(document.paths)) {
      const match = /^\/api\/([^/{]+)\/([^/{]+)\/$/.exec(path);
      if (match) served.set(match[1], (served.get(match[1]) ?? new Set()).add(match[2]));
    }
    const root = (await api.get("/api/")).body as Record<string, string>;
    for (const [app, url] of Object.entries(root)) {
      if (app === "status") continue;
      const listed = (await api.get(new URL(url).pathname)).body as Record<string, string>;
      expect(Object.keys(listed).sort(), app).toEqual([...(served.get(app) ?? [])].sort());
      for (const [path, href] of Object.entries(listed)) {
        expect(href).toBe(`${ORIGIN}/api/${app}/${path}/`);
        // The LLDP lookup answers, without the two names it needs, NetBox's 400.
        expect((await api.get(`/api/${app}/${path}/?limit=1`)).status, href).toBe(path === "connected-device" ? 400 : 200);
      }
    }
    expect(Object.keys((await api.get("/api/extras/")).body)).toContain("object-changes");
  });

  it("reports status with a netbox-version matching API-Version, to authenticated clients", async () => {
    const reply = await api.get("/api/status/");
    expect(reply.status).toBe(200);
    expect(reply.body["netbox-version"].split(".").slice(0, 2).join(".")).toBe(reply.headers.get("API-Version"));
    expect(reply.body["installed-apps"]).toHaveProperty("dcim");
    expect((await api.get("/api/status/", { token: null })).status).toBe(403);
  });

  it("answers unknown paths and ids with a JSON 404", async () => {
    expect(await api.get("/api/dcim/nothing/")).toMatchObject({ status: 404, body: { detail: "Not found." } });
    expect(await api.get("/api/dcim/sites/abc/")).toMatchObject({ status: 404, body: { detail: "Not found." } });
    expect(await api.get("/api/dcim/sites/4242/")).toMatchObject({ status: 404, body: { detail: "No Site matches the given query." } });
  });

  it("refuses methods an endpoint does not support with 405 and Allow", async () => {
    const created = await api.post("/api/extras/tags/", { name: "T", slug: "t" });
    const reply = await api.post(`/api/extras/tags/${created.body.id}/`, {});
    expect(reply.status).toBe(405);
    expect(reply.body).toEqual({ detail: 'Method "POST" not allowed.' });
    expect(reply.headers.get("Allow")).toContain("PATCH");
    expect((await api.request("PUT", "/api/status/")).status).toBe(405);
  });

  it("gives malformed JSON a 400 with a clear message and other media types a 415", async () => {
    const bad = await api.post("/api/dcim/sites/", '{"name": ');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^JSON parse error - /);
    const text = await api.post("/api/dcim/sites/", "name=x", { headers: { "Content-Type": "text/plain" } });
    expect(text).toMatchObject({ status: 415, body: { detail: 'Unsupported media type "text/plain" in request.' } });
  });

  it("decodes a body in the charset it declares, and refuses a charset it cannot decode with 415", async () => {
    const send = async (bytes: Uint8Array<ArrayBuffer>, contentType: string) => {
      const response = await api.app.fetch(
        new Request(`${ORIGIN}/api/tenancy/tenants/`, {
          method: "POST",
          body: bytes,
          headers: { "Content-Type": contentType, Authorization: `Token ${ADMIN_TOKEN}` },
        }),
        { db: api.db, clientAddress: "127.0.0.1" },
      );
      return { status: response.status, body: await response.json() };
    };
    const json = (name: string, slug: string) => JSON.stringify({ name, slug });
    // "Café" in ISO-8859-1 is not valid UTF-8: read as UTF-8 it became "Caf\uFFFD".
    const latin1 = Uint8Array.from(json("Café", "cafe"), (c) => c.charCodeAt(0));
    expect(await send(latin1, "application/json; charset=ISO-8859-1")).toMatchObject({ status: 201, body: { name: "Café" } });
    const utf16 = new Uint8Array(Uint16Array.from(json("Ürün", "urun"), (c) => c.charCodeAt(0)).buffer);
    expect(await send(utf16, 'application/json; charset="utf-16le"')).toMatchObject({ status: 201, body: { name: "Ürün" } });
    expect(await send(new TextEncoder().encode(json("Ünï", "uni")), "application/json;charset=utf-8")).toMatchObject({
      status: 201,
      body: { name: "Ünï" },
    });
    expect(await send(new TextEncoder().encode(json("x", "x")), "application/json; charset=klingon")).toEqual({
      status: 415,
      body: { detail: 'Unsupported media type "application/json; charset=klingon" in request.' },
    });
    expect((await api.get("/api/tenancy/tenants/?slug=x")).body.count).toBe(0);
  });

  it("reads a JSON body sent as curl -d sends it (form-encoded content type)", async () => {
    const reply = await api.post("/api/extras/tags/", JSON.stringify({ name: "Curl", slug: "curl" }), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(reply.status).toBe(201);
  });

  it("refuses a detail DELETE that carries a body, deleting nothing", async () => {
    const tag = await api.post("/api/extras/tags/", { name: "Keep", slug: "keep" });
    const reply = await api.delete(`/api/extras/tags/${tag.body.id}/`, [{ id: tag.body.id }]);
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toMatch(/body is not accepted/);
    expect((await api.get(`/api/extras/tags/${tag.body.id}/`)).status).toBe(200);
  });

  it("refuses bulk operations whose body is not a list", async () => {
    const reply = await api.patch("/api/extras/tags/", { id: 1, name: "x" });
    expect(reply).toMatchObject({ status: 400, body: { non_field_errors: ['Expected a list of items but got type "dict".'] } });
  });

  it("refuses a non-object item with NetBox's message", async () => {
    const reply = await api.post("/api/extras/tags/", [["not", "an", "object"]]);
    expect(reply).toMatchObject({ status: 400, body: [{ non_field_errors: ["Invalid data. Expected a dictionary, but got list."] }] });
  });

  it("masks unexpected errors: no stack trace reaches the client", async () => {
    const broken = await createHarness();
    await broken.db.batch([{ sql: "DROP TABLE dcim_site", parameters: [] }], "write");
    const reply = await broken.get("/api/dcim/sites/");
    expect(reply.status).toBe(500);
    expect(Object.keys(reply.body)).toEqual(["detail"]);
    expect(reply.body.detail).toContain(reply.headers.get("X-Request-ID"));
    expect(reply.text).not.toMatch(/dcim_site|at |sqlite/i);
    broken.close();
  });

  it("supports HEAD like GET without a body, giving the GET's length", async () => {
    await api.post("/api/dcim/sites/", { name: "Zürich HEAD", slug: "zurich-head" });
    for (const path of ["/api/dcim/sites/", "/api/dcim/sites/?limit=1000", "/api/"]) {
      const reply = await api.request("HEAD", path);
      expect(reply.status).toBe(200);
      expect(reply.text).toBe("");
      const get = await api.request("GET", path);
      expect(reply.headers.get("Content-Length")).toBe(String(new TextEncoder().encode(get.text).byteLength));
    }
  });
});

describe("pagination", () => {
  let ids: number[];
  beforeAll(async () => {
    const made = await api.post(
      "/api/tenancy/tenant-groups/",
      Array.from({ length: 7 }, (_, i) => ({ name: `G${i}`, slug: `g${i}` })),
    );
    ids = made.body.map((o: any) => o.id);
  });
  const list = (query: string) => api.get(`/api/tenancy/tenant-groups/${query}`);

  it("pages with limit and offset; next and previous keep every other parameter", async () => {
    const first = await list("?limit=3&name__isw=G");
    expect(first.body.count).toBe(7);
    expect(first.body.results.map((o: any) => o.id)).toEqual(ids.slice(0, 3));
    expect(first.body.next).toBe(`${ORIGIN}/api/tenancy/tenant-groups/?limit=3&name__isw=G&offset=3`);
    expect(first.body.previous).toBeNull();
    const second = await api.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(second.body.results.map((o: any) => o.id)).toEqual(ids.slice(3, 6));
    expect(second.body.previous).toBe(`${ORIGIN}/api/tenancy/tenant-groups/?limit=3&name__isw=G`);
    const last = await list("?limit=3&offset=6");
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe(`${ORIGIN}/api/tenancy/tenant-groups/?limit=3&offset=3`);
  });

  it("falls back to defaults for invalid values and returns an empty page past the end", async () => {
    expect((await list("?limit=abc&offset=-4")).body.results).toHaveLength(7);
    const past = await list("?offset=100");
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ count: 7, results: [], next: null });
  });

  it("uses PAGINATE_COUNT, clamps to MAX_PAGE_SIZE, and limit=0 means the cap", async () => {
    const small = await createHarness({ PAGINATE_COUNT: "2", MAX_PAGE_SIZE: "3" });
    await small.post(
      "/api/extras/tags/",
      Array.from({ length: 5 }, (_, i) => ({ name: `T${i}`, slug: `t${i}` })),
    );
    expect((await small.get("/api/extras/tags/")).body.results).toHaveLength(2);
    expect((await small.get("/api/extras/tags/?limit=100")).body.results).toHaveLength(3);
    const zero = await small.get("/api/extras/tags/?limit=0");
    expect(zero.body.results).toHaveLength(3);
    expect(zero.body.next).toContain("limit=3");
    small.close();
  });

  it("returns every match for limit=0 when MAX_PAGE_SIZE is 0", async () => {
    const open = await createHarness({ MAX_PAGE_SIZE: "0" });
    await open.post(
      "/api/extras/tags/",
      Array.from({ length: 60 }, (_, i) => ({ name: `T${i}`, slug: `t${i}` })),
    );
    const all = await open.get("/api/extras/tags/?limit=0");
    expect(all.body).toMatchObject({ count: 60, next: null, previous: null });
    expect(all.body.results).toHaveLength(60);
    expect((await open.get("/api/extras/tags/")).body.results).toHaveLength(50);
    open.close();
  });

  it("orders by any declared field, descending with '-', ties broken by id", async () => {
    const desc = await list("?ordering=-name");
    expect(desc.body.results.map((o: any) => o.name)).toEqual(["G6", "G5", "G4", "G3", "G2", "G1", "G0"]);
    await api.patch(
      "/api/tenancy/tenant-groups/",
      ids.map((id) => ({ id, description: "same" })),
    );
    const tied = await list("?ordering=description");
    expect(tied.body.results.map((o: any) => o.id)).toEqual([...ids].sort((a, b) => a - b));
    const ignored = await list("?ordering=nonsense,-slug");
    expect(ignored.body.results[0].slug).toBe("g6");
  });
});

describe("/api/users/config/", () => {
  it("gives the requesting user's preferences (none kept here), and refuses anonymous requests", async () => {
    const api = await createHarness();
    try {
      expect(await api.get("/api/users/config/")).toMatchObject({ status: 200, body: {} });
      expect((await api.get("/api/users/config/", { token: null })).status).toBe(403);
      expect((await api.post("/api/users/config/", {})).status).toBe(405);
    } finally {
      api.close();
    }
  });
});

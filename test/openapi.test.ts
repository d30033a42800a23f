import { registry } from "../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import { parse as parseYaml } from "yaml";
import { planFilters, RESERVED } from "../src/engine/filters.ts";
import { buildOpenApi, operationsOf, type OpenApiDocument } from "../src/rest/openapi.ts";
import { createHarness, type Harness, type Reply } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";
import { allSpecs } from "./support/specs.ts";
import type { ContractSpec } from "./support/contract.ts";

// The OpenAPI document against the API's real responses: every registered model is created,
// listed, read, refused and broken through the real stack, and every body must match the schema
// the document declares for that operation and status. The schemas are closed, so any field the
// API gives that the document does not (or the reverse) fails here.

const DOC_ID = "https://inventory.test/openapi.json";
const document: OpenApiDocument = buildOpenApi(registry, "4.2", "test");

const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addFormat("uri", /^https?:\/\/[^\s]+$/);
ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/);
ajv.addFormat("uuid", /^[0-9a-f-]{36}$/i);
ajv.addSchema({ ...document, $id: DOC_ID });

const pointerEscape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v = ajv.getSchema(`${DOC_ID}#${pointer}`);
    if (!v) throw new Error(`no schema at ${pointer}`);
    validators.set(pointer, v);
  }
  return v;
}

function expectValid(pointer: string, body: unknown, what: string) {
  const v = validatorAt(pointer);
  const ok = v(body);
  expect(ok, `${what}: ${JSON.stringify(v.errors?.slice(0, 3))}\n${JSON.stringify(body).slice(0, 1500)}`).toBe(true);
}

/** The body of a reply validated against the schema its operation declares for its status. */
function expectDocumented(path: string, method: string, reply: Reply, what = `${method.toUpperCase()} ${path} ${reply.status}`) {
  const op = (document.paths[path] as any)?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  let response = op.responses[reply.status];
  expect(response, `${what}: status ${reply.status} is documented (${reply.text.slice(0, 300)})`).toBeDefined();
  let pointer = `/paths/${pointerEscape(path)}/${method}/responses/${reply.status}`;
  if (response.$ref) {
    pointer = response.$ref.slice(1);
    response = (document.components.responses as any)[response.$ref.split("/").pop()];
  }
  if (!response.content) {
    expect(reply.text, what).toBe("");
    return;
  }
  expectValid(`${pointer}/content/application~1json/schema`, reply.body, what);
}

const component = (name: string) => `/components/schemas/${name}`;

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with unique operation ids, a tag per operation and the token scheme", () => {
    expect(document.openapi).toBe("3.1.0");
    const ops = operationsOf(document.paths);
    const ids = ops.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops) {
      expect(op.tags.length, op.operationId).toBe(1);
      expect(Object.keys(op.responses).length, op.operationId).toBeGreaterThan(0);
    }
    expect((document.components.securitySchemes as any).tokenAuth).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    expect(document.security).toEqual([{ tokenAuth: [] }, { cookieAuth: [] }]);
  });

  it("resolves every $ref, and every path parameter is declared", () => {
    const text = JSON.stringify(document);
    const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]));
    expect(refs.size).toBeGreaterThan(100);
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect((document.components as any)[section]?.[name], ref).toBeDefined();
    }
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.includes("{id}")) continue;
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        expect(
          op.parameters.filter((p: any) => p.in === "path").map((p: any) => p.name),
          `${method} ${path}`,
        ).toEqual(["id"]);
      }
    }
  });

  it("compiles every component schema as JSON Schema 2020-12", () => {
    for (const name of Object.keys(document.components.schemas)) expect(validatorAt(component(name)), name).toBeTypeOf("function");
  });

  it("has the paths and methods of every model and every declared route, named as NetBox names them", () => {
    for (const model of registry.models) {
      const base = `/api/${model.app}/${model.path}/`;
      const prefix = `${model.app}_${model.path.replace(/-/g, "_")}`;
      const list = document.paths[base] as any;
      const detail = document.paths[`${base}{id}/`] as any;
      const write = model.readOnly ? [] : ["post", "put", "patch", "delete"];
      expect(Object.keys(list).sort(), base).toEqual(["get", ...write].sort());
      expect(
        Object.keys(detail)
          .filter((k) => k !== "parameters")
          .sort(),
        base,
      ).toEqual(["get", ...write.filter((m) => m !== "post")].sort());
      expect(list.get.operationId).toBe(`${prefix}_list`);
      expect(detail.get.operationId).toBe(`${prefix}_retrieve`);
      if (!model.readOnly) {
        expect([list.post, list.put, list.patch, list.delete].map((o) => o.operationId)).toEqual(
          ["create", "bulk_update", "bulk_partial_update", "bulk_destroy"].map((s) => `${prefix}_${s}`),
        );
        expect([detail.put, detail.patch, detail.delete].map((o) => o.operationId)).toEqual(
          ["update", "partial_update", "destroy"].map((s) => `${prefix}_${s}`),
        );
        expect(document.components.schemas[`Writable${model.className}Request`]).toBeDefined();
        expect(document.components.schemas[`PatchedWritable${model.className}Request`]).toBeDefined();
      }
      for (const name of [model.className, `Brief${model.className}`, `Paginated${model.className}List`]) {
        expect(document.components.schemas[name], name).toBeDefined();
      }
      for (const route of model.routes) {
        const path = route.atAppRoot
          ? `/api/${model.app}/${route.name}/`
          : route.detail
            ? `${base}{id}/${route.name}/`
            : `${base}${route.name}/`;
        const methods = route.methods.filter((m) => m !== "HEAD" && m !== "OPTIONS").map((m) => m.toLowerCase());
        expect(
          Object.keys(document.paths[path] ?? {})
            .filter((k) => k !== "parameters")
            .sort(),
          path,
        ).toEqual(methods.sort());
      }
    }
    for (const path of ["/api/", "/api/status/", "/api/schema/", "/api/dcim/", "/api/plugins/"])
      expect(document.paths[path], path).toBeDefined();
  });

  it("writes every parameter inline in its operation, as NetBox's clients read it (Ansible's inventory: p[\"name\"])", () => {
    expect(document.components.parameters).toBeUndefined();
    let detailOps = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      expect((item as any).parameters, path).toBeUndefined();
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        for (const p of op.parameters ?? []) {
          expect(p.$ref, `${method} ${path}`).toBeUndefined();
          expect(typeof p.name, `${method} ${path}`).toBe("string");
          expect(["query", "path"]).toContain(p.in);
          if (p.schema.type === "array") expect([p.explode, p.style], `${method} ${path} ${p.name}`).toEqual([true, "form"]);
        }
        if (path.includes("{id}")) {
          detailOps++;
          expect(op.parameters[0], `${method} ${path}`).toMatchObject({ in: "path", name: "id", required: true });
        }
      }
    }
    expect(detailOps).toBeGreaterThan(300);
    const deviceFilters = (document.paths["/api/dcim/devices/"] as any).get.parameters.map((p: any) => p.name);
    for (const name of ["site", "site_id", "role", "tenant", "tag", "status", "platform"]) expect(deviceFilters).toContain(name);
  });

  it("lists every filter the list endpoint accepts, each of which the filter compiler takes", () => {
    const sample = (schema: any): string => {
      const item = schema.type === "array" ? schema.items : schema;
      if (item.enum) return String(item.enum[0]);
      if (item.type === "boolean") return "true";
      if (item.type === "integer" || item.type === "number") return "1";
      if (item.format === "date" || item.format === "date-time") return "2024-01-02";
      if (item.format === "uuid") return "0b0e0f7e-0000-4000-8000-000000000000";
      return "x";
    };
    let checked = 0;
    for (const model of registry.models) {
      const params = (document.paths[`/api/${model.app}/${model.path}/`] as any).get.parameters;
      const names = params.map((p: any) => p.name);
      expect(new Set(names).size, model.objectType).toBe(names.length);
      for (const reserved of RESERVED) if (reserved !== "format") expect(names, model.objectType).toContain(reserved);
      for (const name of ["q", "id", "id__gte", "id__n"]) expect(names, model.objectType).toContain(name);
      for (const p of params) {
        if (RESERVED.has(p.name)) continue;
        const plan = planFilters(model, new URLSearchParams([[p.name, sample(p.schema)]]), { strict: true });
        expect(plan.errors, `${model.objectType} ${p.name}`).toEqual({});
        expect(plan.conditions.length, `${model.objectType} ${p.name} filters`).toBe(1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});

describe("the OpenAPI endpoints", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api.close());

  it("serves YAML by default and JSON on ?format=json, the same document", async () => {
    const yaml = await api.get("/api/schema/", { token: null });
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("Content-Type")).toMatch(/^application\/vnd\.oai\.openapi\b(?!\+json)/);
    const json = await api.get("/api/schema/?format=json", { token: null });
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Type")).toMatch(/^application\/vnd\.oai\.openapi\+json/);
    expect(parseYaml(yaml.text)).toEqual(json.body);
    // Read alike by a YAML 1.1 parser (PyYAML): `yes`, `no`, `on`, `off` stay strings.
    expect(parseYaml(yaml.text, { version: "1.1" })).toEqual(json.body);
    expect(json.body.openapi).toBe("3.1.0");
    expect(json.body.paths["/api/dcim/sites/"]).toBeDefined();
    expect(json.headers.get("ETag")).not.toBe(yaml.headers.get("ETag"));
    // Parsing the whole document three times takes a while on a shared machine.
  }, 120_000);

  it("answers JSON to a client asking for it (pynetbox 7 sends Accept: application/json to /api/schema/)", async () => {
    const reply = await api.get("/api/schema/", { headers: { Accept: "application/json" } });
    expect(reply.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(reply.body.openapi).toBe("3.1.0");
  });

  it("serves JSON at /api/docs/?format=openapi, and sends a browser at /api/docs/ to Swagger UI", async () => {
    const reply = await api.get("/api/docs/?format=openapi");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(reply.body.components.schemas.Site).toBeDefined();
    const page = await api.get("/api/docs/", { token: null });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/\/api\/schema\/swagger-ui\/$/);
  });

  it("gives an ETag and answers If-None-Match with 304 and no body", async () => {
    const first = await api.get("/api/schema/?format=json", { token: null });
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get("Cache-Control")).toContain("max-age");
    const again = await api.get("/api/schema/?format=json", { token: null, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    const other = await api.get("/api/schema/?format=json", { token: null, headers: { "If-None-Match": '"0000"' } });
    expect(other.status).toBe(200);
  });

  it("refuses writes to the document with 405", async () => {
    const reply = await api.post("/api/schema/", {});
    expect(reply.status).toBe(405);
  });

  it("is strict: an extra, missing or mistyped key in a real response fails validation", async () => {
    const region = await api.post("/api/dcim/regions/", { name: "Europe", slug: "europe" });
    const site = await api.post("/api/dcim/sites/", { name: "Strict", slug: "strict", region: region.body.id, status: "active" });
    expect(site.status, site.text).toBe(201);
    const v = validatorAt(component("Site"));
    expect(v(site.body)).toBe(true);
    const { description: _gone, ...missing } = site.body;
    for (const bad of [
      { ...site.body, surprise: 1 },
      missing,
      { ...site.body, id: "1" },
      { ...site.body, status: "active" },
      { ...site.body, status: { value: "gone", label: "Gone" } },
      { ...site.body, region: { ...site.body.region, surprise: 1 } },
      { ...site.body, region: site.body.region.id },
      { ...site.body, created: "yesterday" },
    ]) {
      expect(v(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(validatorAt(component("BriefSite"))(site.body)).toBe(false);
  });

  it("validates the roots against the document", async () => {
    expectDocumented("/api/", "get", await api.get("/api/", { token: null }));
    expectDocumented("/api/dcim/", "get", await api.get("/api/dcim/"));
    expectDocumented("/api/status/", "get", await api.get("/api/status/"));
    expectDocumented("/api/status/", "get", await api.get("/api/status/", { token: null }));
  });
});

describe("declared routes' bodies match the document", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api.close());
  /** Sends `body` (checked against the documented request schema) and checks the reply against the response. */
  const call = async (method: "get" | "post", template: string, path: string, body?: unknown) => {
    if (body !== undefined)
      expectValid(`/paths/${pointerEscape(template)}/post/requestBody/content/application~1json/schema`, body, `request to ${path}`);
    const reply = method === "get" ? await api.get(path) : await api.post(path, body);
    expect(reply.status, reply.text).toBe(method === "get" ? 200 : 201);
    expectDocumented(template, method, reply);
    return reply.body;
  };

  it("available IPs and prefixes, in a VRF and in the global table", async () => {
    const vrf = await make(api, "/api/ipam/vrfs/", { name: "Blue", rd: "65000:1" });
    const prefix = await make(api, "/api/ipam/prefixes/", { prefix: "10.9.0.0/29", vrf });
    const container = await make(api, "/api/ipam/prefixes/", { prefix: "10.10.0.0/16", status: "container" });
    const ips = "/api/ipam/prefixes/{id}/available-ips/";
    expect((await call("get", ips, `/api/ipam/prefixes/${prefix}/available-ips/`))[0].vrf.name).toBe("Blue");
    await call("post", ips, `/api/ipam/prefixes/${prefix}/available-ips/`, { description: "one", status: "reserved" });
    await call("post", ips, `/api/ipam/prefixes/${prefix}/available-ips/`, [{ description: "two" }, { dns_name: "three.example" }]);
    const prefixes = "/api/ipam/prefixes/{id}/available-prefixes/";
    expect((await call("get", prefixes, `/api/ipam/prefixes/${container}/available-prefixes/`))[0].vrf).toBeNull();
    await call("post", prefixes, `/api/ipam/prefixes/${container}/available-prefixes/`, { prefix_length: 24, description: "carved" });
    await call("post", prefixes, `/api/ipam/prefixes/${container}/available-prefixes/`, [{ prefix_length: 26 }, { prefix_length: 28 }]);
    const range = await make(api, "/api/ipam/ip-ranges/", { start_address: "10.11.0.10/24", end_address: "10.11.0.20/24" });
    await call("get", "/api/ipam/ip-ranges/{id}/available-ips/", `/api/ipam/ip-ranges/${range}/available-ips/`);
  });

  it("available VLANs and ASNs", async () => {
    const group = await make(api, "/api/ipam/vlan-groups/", { name: "Campus", slug: "campus" });
    const vlans = "/api/ipam/vlan-groups/{id}/available-vlans/";
    expect((await call("get", vlans, `/api/ipam/vlan-groups/${group}/available-vlans/`))[0].group.id).toBe(group);
    await call("post", vlans, `/api/ipam/vlan-groups/${group}/available-vlans/`, { name: "users" });
    await call("post", vlans, `/api/ipam/vlan-groups/${group}/available-vlans/`, [{ name: "voice" }, { name: "guests" }]);
    const rir = await make(api, "/api/ipam/rirs/", { name: "Private", slug: "private" });
    const range = await make(api, "/api/ipam/asn-ranges/", { name: "Pool", slug: "pool", rir, start: 64512, end: 64520 });
    const asns = "/api/ipam/asn-ranges/{id}/available-asns/";
    await call("get", asns, `/api/ipam/asn-ranges/${range}/available-asns/`);
    await call("post", asns, `/api/ipam/asn-ranges/${range}/available-asns/`, { description: "edge" });
  });

  it("token provisioning", async () => {
    const body = { username: "admin", password: "admin-password", description: "from a script" };
    expectValid(
      `/paths/${pointerEscape("/api/users/tokens/provision/")}/post/requestBody/content/application~1json/schema`,
      body,
      "provision request",
    );
    const reply = await api.post("/api/users/tokens/provision/", body, { token: null });
    expect(reply.status, reply.text).toBe(201);
    expectDocumented("/api/users/tokens/provision/", "post", reply);
    expect(reply.body.key).toMatch(/^[0-9a-f]{40}$/);
  });
});

/** Every model's real responses against the document. */
function describeModel(spec: ContractSpec) {
  const model = registry.byObjectType(spec.objectType)!;
  const base = `/api/${model.app}/${model.path}/`;
  const detail = `${base}{id}/`;
  const x = model.className;

  describe(`${spec.objectType} responses match the OpenAPI document`, () => {
    let api: Harness;
    let fx: Record<string, number> = {};
    beforeAll(async () => {
      api = await createHarness();
      fx = (await spec.fixtures?.(api)) ?? {};
      if ("readOnly" in spec) await api.queue.drain();
    });
    afterAll(() => api.close());

    if (!("readOnly" in spec)) {
      it("the contract's valid input matches the request schemas", () => {
        for (const body of spec.create(fx)) expectValid(component(`Writable${x}Request`), body, `create ${JSON.stringify(body)}`);
        expectValid(component(`PatchedWritable${x}Request`), spec.patch, "patch");
        expectValid(component(`PatchedWritable${x}Request`), spec.bulkPatch, "bulk patch");
      });

      it("create, bulk create, list, brief, detail, updates, errors and deletes", async () => {
        const [first, ...rest] = spec.create(fx);
        const created = await api.post(base, first);
        expect(created.status, created.text).toBe(201);
        expectDocumented(base, "post", created);
        expectValid(component(x), created.body, "created");
        const bulk = await api.post(base, rest.slice(0, 2));
        expect(bulk.status, bulk.text).toBe(201);
        expectDocumented(base, "post", bulk);
        const id = created.body.id;
        const at = `${base}${id}/`;

        const list = await api.get(base);
        expectDocumented(base, "get", list);
        expectValid(component(`Paginated${x}List`), list.body, "list");
        const page = await api.get(`${base}?limit=1`);
        expectValid(component(`Paginated${x}List`), page.body, "page");
        const brief = await api.get(`${base}?brief=1`);
        expectDocumented(base, "get", brief);
        expectValid(component(`PaginatedBrief${x}List`), brief.body, "brief list");
        const one = await api.get(at);
        expectDocumented(detail, "get", one);
        expectValid(component(x), one.body, "detail");
        expectValid(component(`Brief${x}`), (await api.get(`${at}?brief=1`)).body, "brief detail");

        const patched = await api.patch(at, spec.patch);
        expect(patched.status, patched.text).toBe(200);
        expectDocumented(detail, "patch", patched);
        const bulkPatched = await api.patch(
          base,
          bulk.body.map((o: any) => ({ id: o.id, ...spec.bulkPatch })),
        );
        expect(bulkPatched.status, bulkPatched.text).toBe(200);
        expectDocumented(base, "patch", bulkPatched);

        const invalid = await api.post(base, spec.invalid.body);
        expect(invalid.status).toBe(400);
        expectDocumented(base, "post", invalid);
        const invalidBulk = await api.post(base, [first, spec.invalid.body]);
        expectDocumented(base, "post", invalidBulk);
        const badFilter = await api.get(`${base}?id=notanumber`);
        expect(badFilter.status).toBe(400);
        expectDocumented(base, "get", badFilter);
        const missing = await api.get(`${base}999999/`);
        expect(missing.status).toBe(404);
        expectDocumented(detail, "get", missing);
        const anonymous = await api.get(base, { token: null });
        expect(anonymous.status).toBe(403);
        expectDocumented(base, "get", anonymous);
        expectDocumented(base, "post", await api.post(base, first, { token: null }));

        const deleted = await api.delete(at);
        expect(deleted.status).toBe(204);
        expectDocumented(detail, "delete", deleted);
        const bulkDeleted = await api.delete(
          base,
          bulk.body.map((o: any) => ({ id: o.id })),
        );
        expect(bulkDeleted.status).toBe(204);
        expectDocumented(base, "delete", bulkDeleted);
      });
    } else {
      it("list, brief, detail, 404 and 403", async () => {
        const list = await api.get(base);
        expect(list.body.count).toBeGreaterThan(0);
        expectDocumented(base, "get", list);
        expectValid(component(`Paginated${x}List`), list.body, "list");
        const brief = await api.get(`${base}?brief=1`);
        expectValid(component(`PaginatedBrief${x}List`), brief.body, "brief list");
        const one = await api.get(`${base}${list.body.results[0].id}/`);
        expectDocumented(detail, "get", one);
        expectValid(component(x), one.body, "detail");
        expectDocumented(detail, "get", await api.get(`${base}999999/`));
        expectDocumented(base, "get", await api.get(base, { token: null }));
      });
    }
  });
}

for (const spec of allSpecs) describeModel(spec);

describe("the response-validation suite", () => {
  it("covers every registered model", () => {
    expect(allSpecs.map((s) => s.objectType).sort()).toEqual(registry.models.map((m) => m.objectType).sort());
  });
});

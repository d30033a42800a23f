import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Statement } from "../src/db/database.ts";
import { deepMerge, mergeLayers } from "../src/apps/extras/config-context-field.ts";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const CONTEXTS = "/api/extras/config-contexts/";
const contextOf = async (device: number) => (await api.get(`/api/dcim/devices/${device}/`)).body.config_context;
/** Removes every config context, so each test starts from none. */
const clearContexts = async () => {
  const all = (await api.get(`${CONTEXTS}?limit=0`)).body.results;
  if (all.length)
    await api.delete(
      CONTEXTS,
      all.map((c: any) => ({ id: c.id })),
    );
};

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.sgRoot = await make(api, "/api/dcim/site-groups/", { name: "Production", slug: "production" });
  ids.sgChild = await make(api, "/api/dcim/site-groups/", { name: "Edge", slug: "edge", parent: ids.sgRoot });
  ids.tgRoot = await make(api, "/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" });
  ids.tgChild = await make(api, "/api/tenancy/tenant-groups/", { name: "Banks", slug: "banks", parent: ids.tgRoot });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Bank One", slug: "bank-one", group: ids.tgChild });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de, group: ids.sgChild });
  ids.nyc = await make(api, "/api/dcim/sites/", { name: "NYC1", slug: "nyc1" });
  ids.building = await make(api, "/api/dcim/locations/", { name: "Building", slug: "building", site: ids.fra });
  ids.room = await make(api, "/api/dcim/locations/", { name: "Room", slug: "room", site: ids.fra, parent: ids.building });
  ids.juniper = await make(api, "/api/dcim/manufacturers/", { name: "Juniper", slug: "juniper" });
  ids.mx = await make(api, "/api/dcim/device-types/", { manufacturer: ids.juniper, model: "MX204", slug: "mx204" });
  ids.qfx = await make(api, "/api/dcim/device-types/", { manufacturer: ids.juniper, model: "QFX5120", slug: "qfx5120" });
  ids.router = await make(api, "/api/dcim/device-roles/", { name: "Router", slug: "router" });
  ids.switch = await make(api, "/api/dcim/device-roles/", { name: "Switch", slug: "switch" });
  ids.junos = await make(api, "/api/dcim/platforms/", { name: "Junos", slug: "junos" });
  ids.clusterType = await make(api, "/api/virtualization/cluster-types/", { name: "Fabric", slug: "fabric" });
  ids.clusterGroup = await make(api, "/api/virtualization/cluster-groups/", { name: "Core", slug: "core" });
  ids.cluster = await make(api, "/api/virtualization/clusters/", { name: "fabric-1", type: ids.clusterType, group: ids.clusterGroup });
  ids.gold = await make(api, "/api/extras/tags/", { name: "Gold", slug: "gold" });
  // `full` has a value along every dimension; `bare` only what a device must have.
  ids.full = await make(api, "/api/dcim/devices/", {
    name: "full",
    site: ids.fra,
    location: ids.room,
    device_type: ids.mx,
    role: ids.router,
    platform: ids.junos,
    cluster: ids.cluster,
    tenant: ids.tenant,
    tags: [ids.gold],
  });
  ids.bare = await make(api, "/api/dcim/devices/", { name: "bare", site: ids.nyc, device_type: ids.qfx, role: ids.switch });
});
afterAll(() => api.close());

describe("config contexts", () => {
  it("are served with NetBox's fields, tags as slugs and assignments as nested objects", async () => {
    const reply = await api.post(CONTEXTS, { name: "ntp", weight: 500, data: { ntp: ["10.0.0.1"] }, regions: [ids.eu], tags: ["gold"] });
    expect(reply.status, reply.text).toBe(201);
    expect(Object.keys(reply.body)).toEqual([
      "id",
      "url",
      "display_url",
      "display",
      "name",
      "weight",
      "description",
      "is_active",
      "regions",
      "site_groups",
      "sites",
      "locations",
      "device_types",
      "roles",
      "platforms",
      "cluster_types",
      "cluster_groups",
      "clusters",
      "tenant_groups",
      "tenants",
      "tags",
      "data_source",
      "data_path",
      "data_file",
      "data_synced",
      "data",
      "created",
      "last_updated",
    ]);
    expect(reply.body).toMatchObject({
      name: "ntp",
      weight: 500,
      is_active: true,
      tags: ["gold"],
      data: { ntp: ["10.0.0.1"] },
      data_source: null,
      data_path: "",
      regions: [{ id: ids.eu, slug: "eu", name: "Europe", _depth: 0 }],
      sites: [],
    });
    const brief = await api.get(`${CONTEXTS}${reply.body.id}/?brief=1`);
    expect(Object.keys(brief.body).sort()).toEqual(["description", "display", "id", "name", "url"]);
    expect((await api.post(CONTEXTS, { name: "x", data: [1] })).body).toEqual({
      data: ['JSON data must be in object form. Example: {"foo": 123}'],
    });
    expect((await api.post(CONTEXTS, { name: "x", data: null })).body).toEqual({ data: ["This field may not be null."] });
    expect((await api.post(CONTEXTS, { name: "x" })).body).toEqual({ data: ["This field is required."] });
    expect((await api.post(CONTEXTS, { name: "x", data: {}, tags: ["nope"] })).status).toBe(400);
    expect((await api.post(CONTEXTS, { name: "x", data: {}, weight: 40000 })).body).toEqual({
      weight: ["Ensure this value is less than or equal to 32767."],
    });
    await clearContexts();
  });

  it("filter by their assignments, by id and by slug", async () => {
    const a = await make(api, CONTEXTS, { name: "a", data: {}, regions: [ids.eu], roles: [ids.router], tags: ["gold"] });
    const b = await make(api, CONTEXTS, { name: "b", data: {}, sites: [ids.nyc], tenant_groups: [ids.tgRoot], is_active: false });
    const names = async (q: string) => (await api.get(`${CONTEXTS}?${q}`)).body.results.map((c: any) => c.name);
    expect(await names("region=eu")).toEqual(["a"]);
    expect(await names(`region_id=${ids.eu}`)).toEqual(["a"]);
    expect(await names("device_role=router")).toEqual(["a"]);
    expect(await names(`device_role_id=${ids.switch}`)).toEqual([]);
    expect(await names("tag=gold")).toEqual(["a"]);
    expect(await names(`site_id=${ids.nyc}`)).toEqual(["b"]);
    expect(await names("tenant_group=customers")).toEqual(["b"]);
    expect(await names("is_active=false")).toEqual(["b"]);
    expect(await names("q=b")).toEqual(["b"]);
    expect((await api.get(`${CONTEXTS}?region=nowhere`)).status).toBe(400);
    await api.delete(CONTEXTS, [{ id: a }, { id: b }]);
  });
});

describe("rendered config context", () => {
  afterEach(clearContexts);

  it("sits after local_context_data in a device's full form, and nowhere in brief or nested forms", async () => {
    const device = await api.get(`/api/dcim/devices/${ids.full}/`);
    const keys = Object.keys(device.body);
    expect(keys.indexOf("config_context")).toBe(keys.indexOf("local_context_data") + 1);
    expect(device.body.config_context).toEqual({});
    expect((await api.get(`/api/dcim/devices/${ids.full}/?brief=1`)).body).not.toHaveProperty("config_context");
    const iface = await api.post("/api/dcim/interfaces/", { device: ids.full, name: "xe-0/0/0", type: "10gbase-x-sfpp" });
    expect(iface.body.device).not.toHaveProperty("config_context");
    await api.delete(`/api/dcim/interfaces/${iface.body.id}/`);
  });

  it("merges contexts by weight then name, nested objects recursively, with local data on top", async () => {
    await make(api, CONTEXTS, {
      name: "b-base",
      weight: 100,
      data: { dns: "1.1.1.1", ntp: { servers: ["a"], prefer: "a" }, snmp: { community: "x", v3: { user: "u" } } },
    });
    // Same weight, earlier name: applied first, so b-base wins where they overlap.
    await make(api, CONTEXTS, { name: "a-first", weight: 100, data: { dns: "9.9.9.9", banner: "hello" } });
    await make(api, CONTEXTS, {
      name: "override",
      weight: 200,
      data: { ntp: { prefer: "b" }, snmp: { v3: { auth: "sha" } }, banner: null, syslog: {} },
    });
    // Heavier weight applies later even though its name sorts first.
    await make(api, CONTEXTS, { name: "0-last", weight: 300, data: { snmp: { community: "y" } } });
    const rendered = {
      dns: "1.1.1.1",
      banner: null,
      ntp: { servers: ["a"], prefer: "b" },
      snmp: { community: "y", v3: { user: "u", auth: "sha" } },
      syslog: {},
    };
    expect(await contextOf(ids.bare)).toEqual(rendered);
    // Local data: lists replace, objects merge, an empty object replaces what it lands on.
    const local = { ntp: { servers: ["local"] }, snmp: {}, extra: 1 };
    const patched = await api.patch(`/api/dcim/devices/${ids.bare}/`, { local_context_data: local });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.config_context).toEqual({ ...rendered, ntp: { servers: ["local"], prefer: "b" }, snmp: {}, extra: 1 });
    expect(Object.keys(patched.body.config_context)).toEqual(["dns", "banner", "ntp", "snmp", "syslog", "extra"]);
    expect(patched.body.local_context_data).toEqual(local);
    const refused = await api.patch(`/api/dcim/devices/${ids.bare}/`, { local_context_data: ["not", "an", "object"] });
    expect(refused).toMatchObject({
      status: 400,
      body: { local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] },
    });
    await api.patch(`/api/dcim/devices/${ids.bare}/`, { local_context_data: null });
  });

  it("applies a context along each dimension, regions, site groups, locations and tenant groups through their ancestors", async () => {
    const assignments: Record<string, unknown[]> = {
      regions: [ids.eu],
      site_groups: [ids.sgRoot],
      sites: [ids.fra],
      locations: [ids.building],
      device_types: [ids.mx],
      roles: [ids.router],
      platforms: [ids.junos],
      cluster_types: [ids.clusterType],
      cluster_groups: [ids.clusterGroup],
      clusters: [ids.cluster],
      tenant_groups: [ids.tgRoot],
      tenants: [ids.tenant],
      tags: ["gold"],
    };
    const created = await api.post(
      CONTEXTS,
      Object.entries(assignments).map(([dimension, values]) => ({
        name: `by ${dimension}`,
        data: { [dimension]: true },
        [dimension]: values,
      })),
    );
    expect(created.status, created.text).toBe(201);
    // The full device matches every one; the bare one (other site, role and type, nothing else) none.
    expect(Object.keys(await contextOf(ids.full)).sort()).toEqual(Object.keys(assignments).sort());
    expect(await contextOf(ids.bare)).toEqual({});
    // Every dimension with assignments must match: one that does not keeps the context off.
    await make(api, CONTEXTS, { name: "router in Europe", data: { both: true }, regions: [ids.eu], roles: [ids.router] });
    await make(api, CONTEXTS, { name: "switch in Europe", data: { mismatch: true }, regions: [ids.eu], roles: [ids.switch] });
    // Any of several values in one dimension matches.
    await make(api, CONTEXTS, { name: "any role", data: { any: true }, roles: [ids.router, ids.switch] });
    // A context on a child region does not apply in its parent's other children.
    await make(api, CONTEXTS, { name: "child only", data: { child: true }, regions: [ids.de] });
    const full = await contextOf(ids.full);
    expect(full).toMatchObject({ both: true, any: true, child: true });
    expect(full).not.toHaveProperty("mismatch");
    expect(await contextOf(ids.bare)).toEqual({ any: true });
    // Untagging the device drops the tag's context.
    await api.patch(`/api/dcim/devices/${ids.full}/`, { tags: [] });
    expect(await contextOf(ids.full)).not.toHaveProperty("tags");
    await api.patch(`/api/dcim/devices/${ids.full}/`, { tags: [ids.gold] });
  });

  it("renders a list page's contexts once per group of devices they apply to alike, as each device's own read does", async () => {
    await api.post(CONTEXTS, [
      { name: "everywhere", weight: 100, data: { ntp: { servers: ["a"] }, level: "global" } },
      { name: "europe", weight: 200, data: { ntp: { prefer: "eu" }, level: "region" }, regions: [ids.eu] },
      { name: "nyc", weight: 200, data: { level: "nyc" }, sites: [ids.nyc] },
      { name: "routers", weight: 300, data: { routing: true }, roles: [ids.router] },
      { name: "gold routers", weight: 400, data: { gold: true }, roles: [ids.router], tags: ["gold"] },
      { name: "bank", weight: 500, data: { ntp: { servers: ["bank"] } }, tenants: [ids.tenant] },
      { name: "off", weight: 600, data: { off: true }, is_active: false },
    ]);
    const devices = Array.from({ length: 24 }, (_, i) => ({
      name: `grp-${String(i).padStart(2, "0")}`,
      site: i % 2 ? ids.fra : ids.nyc,
      device_type: ids.mx,
      role: i % 3 ? ids.router : ids.switch,
      tags: i % 4 ? [] : [ids.gold],
      tenant: i % 5 ? null : ids.tenant,
      local_context_data: i % 6 ? null : { mine: i, ntp: { prefer: "local" } },
    }));
    const created = await api.post("/api/dcim/devices/", devices);
    expect(created.status, created.text).toBe(201);
    try {
      const own = new Map<number, unknown>();
      for (const d of created.body) own.set(d.id, await contextOf(d.id));
      // Devices differ along several dimensions, so the page holds several groups, not one.
      expect(new Set([...own.values()].map((c) => JSON.stringify(c))).size).toBeGreaterThan(5);
      for (const ordering of ["name", "-name", "id"]) {
        const page = await api.get(`/api/dcim/devices/?name__isw=grp-&ordering=${ordering}&limit=50`);
        expect(page.body.results).toHaveLength(24);
        for (const d of page.body.results) expect(d.config_context, `${d.name} by ${ordering}`).toEqual(own.get(d.id));
      }
      // A router of the bank in NYC; a switch in NYC with local data on top; a gold router in Europe.
      const listed = async (name: string) => (await api.get(`/api/dcim/devices/?name=${name}`)).body.results[0].config_context;
      expect(await listed("grp-10")).toEqual({ ntp: { servers: ["bank"] }, level: "nyc", routing: true });
      expect(await listed("grp-06")).toEqual({ ntp: { servers: ["a"], prefer: "local" }, level: "nyc", mine: 6 });
      expect(await listed("grp-08")).toEqual({ ntp: { servers: ["a"] }, level: "nyc", routing: true, gold: true });
      expect(await listed("grp-01")).toEqual({ ntp: { servers: ["a"], prefer: "eu" }, level: "region", routing: true });
    } finally {
      await api.delete(
        "/api/dcim/devices/",
        created.body.map((d: { id: number }) => ({ id: d.id })),
      );
    }
  });

  it("leaves out inactive contexts until they are activated", async () => {
    const id = await make(api, CONTEXTS, { name: "dormant", is_active: false, data: { dormant: true } });
    expect(await contextOf(ids.bare)).toEqual({});
    await api.patch(`${CONTEXTS}${id}/`, { is_active: true });
    expect(await contextOf(ids.bare)).toEqual({ dormant: true });
  });

  it("is omitted with exclude=config_context, and its subquery is not sent", async () => {
    await make(api, CONTEXTS, { name: "everywhere", data: { everywhere: true } });
    const sent: Statement[] = [];
    const batch = api.db.batch.bind(api.db);
    api.db.batch = (statements, mode) => (sent.push(...statements), batch(statements, mode));
    try {
      const list = await api.get("/api/dcim/devices/?exclude=config_context");
      expect(list.body.results.length).toBe(2);
      for (const d of list.body.results) expect(d).not.toHaveProperty("config_context");
      const detail = await api.get(`/api/dcim/devices/${ids.bare}/?exclude=config_context`);
      expect(detail.body).not.toHaveProperty("config_context");
      expect(detail.body).toHaveProperty("local_context_data");
      // The rendering reads the contexts' assignment tables; nothing else does.
      const rendering = (s: Statement) => s.sql.includes("extras_configcontext_regions");
      expect(sent.some(rendering)).toBe(false);
      const withContext = await api.get(`/api/dcim/devices/${ids.bare}/`);
      expect(withContext.body.config_context).toEqual({ everywhere: true });
      expect(sent.some(rendering)).toBe(true);
    } finally {
      api.db.batch = batch;
    }
  });

  it("costs the same statements and one round trip for a page of 10 devices or of 1,000", async () => {
    await make(api, CONTEXTS, { name: "site", weight: 10, data: { site: "fra", ntp: { servers: ["s"] } }, sites: [ids.fra] });
    await make(api, CONTEXTS, { name: "region", weight: 20, data: { region: "eu", ntp: { prefer: "r" } }, regions: [ids.eu] });
    await make(api, CONTEXTS, { name: "tagged", weight: 30, data: { gold: true }, tags: ["gold"] });
    const devices = Array.from({ length: 1000 }, (_, i) => ({
      name: `bulk${i}`,
      site: ids.fra,
      device_type: ids.mx,
      role: ids.router,
      tags: i % 2 ? [ids.gold] : [],
      local_context_data: i % 3 ? null : { mine: i },
    }));
    const created = await api.post("/api/dcim/devices/", devices);
    expect(created.status, created.text).toBe(201);
    const small = await api.cost(() => api.get(`/api/dcim/devices/?site_id=${ids.fra}&limit=10`));
    let page: any;
    const large = await api.cost(async () => (page = await api.get(`/api/dcim/devices/?site_id=${ids.fra}&limit=1000&ordering=name`)));
    expect(large).toEqual(small);
    expect(large.roundTrips).toBe(1);
    const results = page.body.results.filter((d: any) => d.name?.startsWith("bulk"));
    expect(results.length).toBeGreaterThan(990);
    for (const d of results) {
      const i = Number(d.name.slice(4));
      expect(d.config_context).toEqual({
        site: "fra",
        ntp: { servers: ["s"], prefer: "r" },
        region: "eu",
        ...(i % 2 ? { gold: true } : {}),
        ...(i % 3 ? {} : { mine: i }),
      });
    }
  });
});

describe("rendered config context on virtual machines", () => {
  afterEach(clearContexts);

  it("matches a VM by its cluster, site, role and tenant, with its local data on top", async () => {
    const cluster = await make(api, "/api/virtualization/clusters/", {
      name: "vm-cluster",
      type: ids.clusterType,
      scope_type: "dcim.site",
      scope_id: ids.fra,
    });
    const vm = await make(api, "/api/virtualization/virtual-machines/", {
      name: "vm1",
      cluster,
      role: ids.router,
      tenant: ids.tenant,
      local_context_data: { dns: ["9.9.9.9"] },
    });
    await make(api, CONTEXTS, { name: "by-cluster", weight: 100, clusters: [cluster], data: { ntp: ["10.0.0.1"], dns: ["1.1.1.1"] } });
    await make(api, CONTEXTS, { name: "by-region", weight: 200, regions: [ids.eu], data: { syslog: "10.0.0.9" } });
    await make(api, CONTEXTS, { name: "other-role", roles: [ids.switch], data: { wrong: true } });
    const got = (await api.get(`/api/virtualization/virtual-machines/${vm}/`)).body;
    expect(got.config_context).toEqual({ ntp: ["10.0.0.1"], dns: ["9.9.9.9"], syslog: "10.0.0.9" });
    const lean = (await api.get(`/api/virtualization/virtual-machines/${vm}/?exclude=config_context`)).body;
    expect(lean).not.toHaveProperty("config_context");
  });
});

describe("deep merge", () => {
  it("keeps null values, replaces lists and scalars, and keeps a __proto__ key as data", () => {
    expect(deepMerge({ a: { b: 1, c: [1] } }, { a: { c: [2], d: null } })).toEqual({ a: { b: 1, c: [2], d: null } });
    const base = { a: { b: 1 } };
    deepMerge(base, { a: { c: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
    const hostile = JSON.parse('{"__proto__": {"polluted": true}}');
    for (const merged of [deepMerge({}, hostile), mergeLayers([{ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')])]) {
      expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
      expect(JSON.stringify(merged)).toContain('"__proto__":{"polluted":true}');
    }
    expect(({} as any).polluted).toBeUndefined();
    expect(mergeLayers([{ a: 1 }, null, [], { a: 2 }])).toEqual({ a: 2 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { qb } from "../src/db/query-builder.ts";
import { site } from "../src/apps/dcim/organization.ts";
import { planFilters } from "../src/engine/filters.ts";
import { createHarness, type Harness } from "./support/harness.ts";

/** The SQL a query string compiles to, without a database. */
function compile(query: string) {
  const plan = planFilters(site, new URLSearchParams(query));
  const where = plan.conditions.length ? sql.join(plan.conditions, sql` AND `) : sql`1`;
  return { ...sql`SELECT id FROM dcim_site WHERE ${where}`.compile(qb), errors: plan.errors, checks: plan.checks };
}

describe("filter translation (pure)", () => {
  it("ORs repeated keys and ANDs different ones", () => {
    const q = compile("name=a&name=b&status=active");
    expect(q.sql).toBe(`SELECT id FROM dcim_site WHERE "dcim_site"."name" IN (?, ?) AND "dcim_site"."status" IN (?)`);
    expect(q.parameters).toEqual(["a", "b", "active"]);
  });

  it("escapes LIKE wildcards in contains lookups", () => {
    const q = compile("name__ic=50%_off");
    expect(q.sql).toContain(`LIKE ? ESCAPE '\\'`);
    expect(q.parameters).toEqual(["%50\\%\\_off%"]);
  });

  it("turns a relation filter by slug into a subquery plus an existence check", () => {
    const q = compile("region=eu");
    expect(q.sql).toContain(
      `"dcim_site"."region_id" IN (WITH RECURSIVE subtree(id) AS (SELECT id FROM "dcim_region" WHERE id IN (SELECT id FROM "dcim_region" WHERE "slug" IN (SELECT value FROM json_each(?)))`,
    );
    expect(q.checks.map((c) => [c.param, c.values])).toEqual([["region", ["eu"]]]);
  });

  it("reports bad values without touching the database and ignores unknown names", () => {
    expect(compile("id=abc").errors).toEqual({ id: ["Enter a whole number."] });
    expect(compile("region_id=x").errors).toEqual({ region_id: ["“x” is not a valid value."] });
    expect(compile("status=bogus").errors).toEqual({ status: ["Select a valid choice. bogus is not one of the available choices."] });
    expect(compile("sitee=x&limit=5&brief=1").sql).toBe("SELECT id FROM dcim_site WHERE 1");
  });
});

describe("filters against the API", () => {
  let api: Harness;
  const names = async (query: string) => {
    const reply = await api.get(`/api/dcim/sites/?${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.results.map((o: any) => o.name).sort();
  };

  beforeAll(async () => {
    api = await createHarness();
    const eu = await api.post("/api/dcim/regions/", { name: "Europe", slug: "eu" });
    const de = await api.post("/api/dcim/regions/", { name: "Germany", slug: "de", parent: eu.body.id });
    await api.post("/api/dcim/regions/", { name: "Asia", slug: "asia" });
    await api.post("/api/extras/tags/", [
      { name: "Prod", slug: "prod" },
      { name: "Edge", slug: "edge" },
    ]);
    const t = await api.post("/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
    await api.post("/api/dcim/sites/", [
      {
        name: "Berlin",
        slug: "ber",
        region: de.body.id,
        status: "active",
        tags: [{ slug: "prod" }, { slug: "edge" }],
        facility: "B1",
        tenant: t.body.id,
      },
      { name: "Paris", slug: "par", region: eu.body.id, status: "planned", tags: [{ slug: "prod" }], latitude: 48.8 },
      { name: "Tokyo", slug: "tyo", status: "retired", description: "far away" },
    ]);
  });
  afterAll(() => api.close());

  it("matches exact values, OR within a key", async () => {
    expect(await names("name=Berlin&name=Tokyo")).toEqual(["Berlin", "Tokyo"]);
    expect(await names("name=berlin")).toEqual([]);
  });

  it("supports NetBox's string lookups", async () => {
    expect(await names("name__ic=ER")).toEqual(["Berlin"]);
    expect(await names("name__nic=er")).toEqual(["Paris", "Tokyo"]);
    expect(await names("name__isw=p")).toEqual(["Paris"]);
    expect(await names("name__nisw=p")).toEqual(["Berlin", "Tokyo"]);
    expect(await names("name__iew=YO")).toEqual(["Tokyo"]);
    expect(await names("name__niew=yo")).toEqual(["Berlin", "Paris"]);
    expect(await names("name__ie=PARIS")).toEqual(["Paris"]);
    expect(await names("name__nie=paris")).toEqual(["Berlin", "Tokyo"]);
    expect(await names("name__n=Paris")).toEqual(["Berlin", "Tokyo"]);
    expect(await names("facility__empty=true")).toEqual(["Paris", "Tokyo"]);
    expect(await names("facility__empty=false")).toEqual(["Berlin"]);
  });

  it("supports numeric lookups and emptiness", async () => {
    const ids = (await api.get("/api/dcim/sites/?ordering=id")).body.results.map((o: any) => o.id);
    expect(await names(`id__gt=${ids[0]}`)).toEqual(["Paris", "Tokyo"]);
    expect(await names(`id__gte=${ids[1]}&id__lte=${ids[1]}`)).toEqual(["Paris"]);
    expect(await names(`id__lt=${ids[1]}`)).toEqual(["Berlin"]);
    expect(await names(`id=${ids[0]}&id=${ids[2]}`)).toEqual(["Berlin", "Tokyo"]);
    expect(await names("latitude__gt=40")).toEqual(["Paris"]);
    expect(await names("latitude__empty=true")).toEqual(["Berlin", "Tokyo"]);
  });

  it("filters choices, rejecting unknown values", async () => {
    expect(await names("status=active&status=retired")).toEqual(["Berlin", "Tokyo"]);
    expect(await names("status__n=active")).toEqual(["Paris", "Tokyo"]);
    expect((await api.get("/api/dcim/sites/?status=bogus")).status).toBe(400);
  });

  it("filters relations by id and by slug, descendants of a region included, null for none", async () => {
    const eu = (await api.get("/api/dcim/regions/?slug=eu")).body.results[0];
    expect(await names("region=eu")).toEqual(["Berlin", "Paris"]);
    expect(await names(`region_id=${eu.id}`)).toEqual(["Berlin", "Paris"]);
    expect(await names("region=de")).toEqual(["Berlin"]);
    expect(await names("region_id=null")).toEqual(["Tokyo"]);
    expect(await names("region__n=de")).toEqual(["Paris", "Tokyo"]);
    expect(await names("tenant=acme")).toEqual(["Berlin"]);
    expect(await names("region=asia")).toEqual([]);
  });

  it("answers an unknown relation value with 400 naming the parameter", async () => {
    expect(await api.get("/api/dcim/sites/?region=atlantis")).toMatchObject({
      status: 400,
      body: { region: ["Select a valid choice. atlantis is not one of the available choices."] },
    });
    expect(await api.get("/api/dcim/sites/?region_id=9999&tenant=nobody")).toMatchObject({
      status: 400,
      body: {
        region_id: ["Select a valid choice. 9999 is not one of the available choices."],
        tenant: ["Select a valid choice. nobody is not one of the available choices."],
      },
    });
  });

  it("ANDs tags, and excludes with tag__n", async () => {
    expect(await names("tag=prod")).toEqual(["Berlin", "Paris"]);
    expect(await names("tag=prod&tag=edge")).toEqual(["Berlin"]);
    expect(await names("tag__n=edge")).toEqual(["Paris", "Tokyo"]);
    expect((await api.get("/api/dcim/sites/?tag=nope")).status).toBe(400);
  });

  it("searches the declared search fields with q", async () => {
    expect(await names("q=far")).toEqual(["Tokyo"]);
    expect(await names("q=PAR")).toEqual(["Paris"]);
    expect(await names("q=%20")).toEqual(["Berlin", "Paris", "Tokyo"]);
  });

  it("finds the objects a request created or updated (created_by_request, as SPEC.md 4.3 says)", async () => {
    const created = await api.post("/api/dcim/sites/", { name: "Rome", slug: "rom" });
    const requestId = created.headers.get("X-Request-ID")!;
    expect(await names(`created_by_request=${requestId}`)).toEqual(["Rome"]);
    const patched = await api.patch("/api/dcim/sites/", [{ id: created.body.id, description: "x" }]);
    const patchId = patched.headers.get("X-Request-ID")!;
    expect(await names(`created_by_request=${patchId}`)).toEqual(["Rome"]);
    expect(await names(`updated_by_request=${patchId}`)).toEqual(["Rome"]);
    expect(await names(`modified_by_request=${requestId}`)).toEqual(["Rome"]);
  });

  it("filters m2m relations by id and by name (users by group)", async () => {
    const group = await api.post("/api/users/groups/", { name: "NOC" });
    await api.post("/api/users/users/", [
      { username: "a1", password: "Password-one-1", groups: [group.body.id] },
      { username: "a2", password: "Password-two-2" },
    ]);
    const byName = await api.get("/api/users/users/?group=NOC");
    expect(byName.body.results.map((u: any) => u.username)).toEqual(["a1"]);
    const byId = await api.get(`/api/users/users/?group_id=${group.body.id}`);
    expect(byId.body.results.map((u: any) => u.username)).toEqual(["a1"]);
  });
});

describe("STRICT_FILTERING", () => {
  let strict: Harness;
  let lenient: Harness;
  beforeAll(async () => {
    strict = await createHarness();
    lenient = await createHarness({ STRICT_FILTERING: "false" });
    for (const api of [strict, lenient]) {
      await api.post("/api/dcim/sites/", [
        { name: "Alpha", slug: "alpha" },
        { name: "Beta", slug: "beta" },
      ]);
    }
  });
  afterAll(async () => {
    await strict.close();
    await lenient.close();
  });

  it("refuses, by default, a parameter a list cannot filter by, naming it, and changes nothing", async () => {
    const r = await strict.get("/api/dcim/sites/?name=Alpha&vrf_id=1");
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(["vrf_id"]);
    expect(r.body.vrf_id[0]).toContain("'vrf_id'");
    // An empty value is no excuse: the name itself is unknown.
    expect((await strict.get("/api/dcim/sites/?has_primary_ip=")).status).toBe(400);
    expect((await strict.get("/api/users/tokens/?nope=1")).status).toBe(400);
  });

  it("refuses a lookup the filter does not take", async () => {
    const r = await strict.get("/api/dcim/sites/?name__bogus=a");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ name__bogus: ["Unknown lookup 'bogus' for the filter 'name'."] });
    // A relation filter compares by equality only.
    expect((await strict.get("/api/dcim/sites/?region__ic=eu")).status).toBe(400);
  });

  it("never refuses the parameters every list takes, q, request filters or a known filter's lookups", async () => {
    const query = "limit=1&offset=0&ordering=-name&brief=1&fields=id,name&omit=slug&exclude=config_context&format=json";
    const r = await strict.get(
      `/api/dcim/sites/?${query}&q=a&name__ic=a&name__n=x&created_by_request=00000000-0000-0000-0000-000000000000`,
    );
    expect(r.status).toBe(200);
    expect((await strict.get("/api/dcim/sites/?name__ic=alp&slug__n=beta")).body.results.map((s: any) => s.name)).toEqual(["Alpha"]);
  });

  it("off, ignores unknown names and lookups as NetBox does", async () => {
    const r = await lenient.get("/api/dcim/sites/?vrf_id=1&name__bogus=a");
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
  });
});

describe("number filters", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api.close());

  it("refuse a value that is not a whole number, as NetBox's do, and document it as an integer", async () => {
    expect(await api.get("/api/ipam/prefixes/?mask_length=abc")).toMatchObject({
      status: 400,
      body: { mask_length: ["Enter a whole number."] },
    });
    expect((await api.get("/api/ipam/ip-addresses/?mask_length__gte=x")).status).toBe(400);
    expect((await api.get("/api/ipam/services/?port=ssh")).status).toBe(400);
    expect((await api.get("/api/ipam/prefixes/?mask_length=24")).status).toBe(200);
    const document = (await api.get("/api/schema/?format=json")).body;
    const parameter = document.paths["/api/ipam/prefixes/"].get.parameters.find((p: any) => p.name === "mask_length");
    expect(parameter.schema.items.type).toBe("integer");
  });
});

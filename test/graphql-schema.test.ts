import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildClientSchema, buildSchema, getIntrospectionQuery, type IntrospectionQuery } from "graphql";
import { createHarness, type Harness } from "./support/harness.ts";
import { biggestGaps, CATEGORIES, type Category, compareSchemas, schemaTable } from "./support/graphql-schema-compare.ts";
import { GRAPHQL_DIFFERENCES, requestOf } from "./graphql-differences.ts";

// NetBox 4.2.9's GraphQL schema (as its server printed it) against ours, as the standard
// introspection query gets it from the real app (the harness; Node, no workerd): object types,
// fields (named type and list-ness; nullability apart), arguments, input types (filters, lookups)
// and their fields, unions and their members, scalars, and the Query's fields and arguments
// (issue 19). It prints the coverage per category, writes it with every missing and differing
// name and our additions to test-output/graphql-schema.json, and fails if a figure falls below its
// floor in test/graphql-schema-floor.json (UPDATE_GRAPHQL_FLOOR=1 rewrites it). What
// test/graphql-differences.ts names counts as found, apart.

const ROOT = resolve(import.meta.dirname, "..");
const NETBOX_SCHEMA = resolve(ROOT, "../shared/reference/netbox-4.2-graphql.graphql");
const FLOOR_FILE = join(import.meta.dirname, "graphql-schema-floor.json");
const REPORT_FILE = join(ROOT, "test-output", "graphql-schema.json");
const schemaRows = GRAPHQL_DIFFERENCES.filter((d) => requestOf(d) === null);

type Floor = Partial<Record<Category, number>>;

if (!existsSync(NETBOX_SCHEMA))
  console.warn(`GraphQL schema comparison skipped: ${NETBOX_SCHEMA} is absent (the reference folder sits beside the project)`);

describe("the standard introspection query", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api?.close());

  it("is answered under the default limits, as GraphiQL and client libraries send it", async () => {
    const reply = await api.post("/graphql/", { query: getIntrospectionQuery() });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.__schema.queryType.name).toBe("Query");
  });
});

describe.skipIf(!existsSync(NETBOX_SCHEMA))("NetBox 4.2's GraphQL schema against ours", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api?.close());

  it("has at least the pinned share of NetBox's types, fields, arguments, filters and unions", async () => {
    const netbox = buildSchema(readFileSync(NETBOX_SCHEMA, "utf8"));
    const reply = await api.post("/graphql/", { query: getIntrospectionQuery() });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    const ours = buildClientSchema(reply.body.data as IntrospectionQuery);
    const { figures, additions, explainedAdditions } = compareSchemas(netbox, ours, schemaRows);
    const gaps = biggestGaps(figures, 25);
    console.log(
      [
        "NetBox 4.2 GraphQL schema coverage (found/NetBox's; report: test-output/graphql-schema.json)",
        schemaTable(figures),
        `ours only: ${additions.types.length} types, ${additions.fields.length} fields, ${additions.arguments.length} arguments, ` +
          `${additions.inputFields.length} input fields, ${additions.unionMembers.length} union members ` +
          `(${explainedAdditions.length} named in test/graphql-differences.ts)`,
        `most gaps by type: ${gaps.map((g) => `${g.type} ${g.gaps}`).join(", ")}`,
        "first missing or differing, per category:",
        ...figures
          .filter((f) => f.missing.length + f.differing.length > 0)
          .map((f) => `  ${f.category}: ${[...f.missing, ...f.differing].slice(0, 6).join("; ")}`),
      ].join("\n"),
    );
    mkdirSync(join(ROOT, "test-output"), { recursive: true });
    writeFileSync(REPORT_FILE, `${JSON.stringify({ figures, gaps, additions, explainedAdditions }, null, 1)}\n`);

    const measured: Floor = Object.fromEntries(figures.map((f) => [f.category, f.found]));
    if (process.env.UPDATE_GRAPHQL_FLOOR === "1") {
      writeFileSync(FLOOR_FILE, `${JSON.stringify(measured, null, 2)}\n`);
      return;
    }
    const floor: Floor = existsSync(FLOOR_FILE) ? JSON.parse(readFileSync(FLOOR_FILE, "utf8")) : {};
    for (const category of CATEGORIES)
      expect(measured[category], `${category} found fell below the floor (UPDATE_GRAPHQL_FLOOR=1 pins a new one)`).toBeGreaterThanOrEqual(
        floor[category] ?? 0,
      );
  }, 60_000);
});

describe("the GraphQL schema comparison", () => {
  const netbox = buildSchema(`
    type Query { site(id: ID!): SiteType! site_list(filters: SiteFilter): [SiteType!]! gone: Int }
    type SiteType { id: ID! name: String! tags: [TagType!]! region: RegionType scope: ScopeType }
    type TagType { id: ID! }
    type RegionType { id: ID! name: String! }
    union ScopeType = SiteType | RegionType
    input SiteFilter { name: StrFilterLookup status: String }
    input StrFilterLookup { exact: String starts_with: String }
    scalar JSON
  `);
  const ours = buildSchema(`
    type Query { site(id: ID!): SiteType! site_list(filters: SiteFilter, pagination: OffsetPaginationInput): [SiteType!]! }
    type SiteType { id: ID! name: String tags: TagType scope: ScopeType extra: Int }
    type TagType { id: ID! }
    union ScopeType = SiteType | TagType
    input SiteFilter { name: String status: [String!] }
    input OffsetPaginationInput { offset: Int limit: Int }
    scalar JSON
  `);
  const byCategory = (rows: ReturnType<typeof compareSchemas>["figures"]) => Object.fromEntries(rows.map((f) => [f.category, f]));

  it("counts NetBox's names we have, lists what is missing or typed otherwise, and lists our additions apart", () => {
    const { figures, additions } = compareSchemas(netbox, ours, []);
    const f = byCategory(figures);
    expect(f["object types"]).toMatchObject({ found: 2, total: 3, missing: ["RegionType"] });
    // RegionType's fields count in the total, but only the type is listed.
    expect(f["object fields"]).toMatchObject({ found: 5, total: 8, missing: ["SiteType.region"] });
    expect(f["object field types"]).toMatchObject({ found: 4, total: 8, differing: ["SiteType.tags: NetBox [TagType!]!, ours TagType"] });
    expect(f.nullability).toMatchObject({ differing: ["SiteType.name: NetBox String!, ours String"] });
    expect(f["query fields"]).toMatchObject({ found: 2, total: 3, missing: ["Query.gone"] });
    expect(f["query arguments"]).toMatchObject({ found: 2, total: 2 });
    expect(f["union members"]).toMatchObject({ found: 1, total: 2, missing: ["ScopeType|RegionType"] });
    expect(f["input types"]).toMatchObject({ found: 1, total: 2, missing: ["StrFilterLookup"] });
    expect(f["input fields"]).toMatchObject({ found: 2, total: 4, missing: [] });
    expect(f["input field types"]).toMatchObject({
      found: 0,
      total: 4,
      differing: ["SiteFilter.name: NetBox StrFilterLookup, ours String", "SiteFilter.status: NetBox String, ours [String!]"],
    });
    expect(f.scalars).toMatchObject({ found: 1, total: 1 });
    expect(additions).toMatchObject({
      types: ["OffsetPaginationInput"],
      fields: ["SiteType.extra"],
      arguments: ["Query.site_list(pagination)"],
      unionMembers: ["ScopeType|TagType"],
    });
  });

  it("counts what the differences table names (patterns, or what holds it) as found and deliberate, and explains additions", () => {
    const rows = [
      { what: "RegionType", why: "a" },
      { what: "Query.*_list(pagination)", why: "b" },
      { what: "ScopeType|*", why: "c" },
      // A difference of kind: only in one category, only where the types say so.
      { what: "*", category: "nullability" as const, types: (netbox: string, ours: string) => netbox === `${ours}!`, why: "d" },
    ];
    const { figures, explainedAdditions } = compareSchemas(netbox, ours, rows);
    const f = byCategory(figures);
    expect(f["object types"]).toMatchObject({ found: 3, deliberate: ["RegionType"] });
    expect(f["object fields"]).toMatchObject({ found: 7, deliberate: ["RegionType.id", "RegionType.name"], missing: ["SiteType.region"] });
    expect(f["union members"]).toMatchObject({ found: 2, missing: [] });
    expect(f.nullability).toMatchObject({ deliberate: ["RegionType.id", "RegionType.name", "SiteType.name"], differing: [] });
    expect(f["object field types"]).toMatchObject({ differing: ["SiteType.tags: NetBox [TagType!]!, ours TagType"] });
    expect(explainedAdditions).toEqual([
      { name: "Query.site_list(pagination)", why: "b" },
      { name: "ScopeType|TagType", why: "c" },
    ]);
  });
});

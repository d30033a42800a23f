import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { createHarness, type Harness } from "./support/harness.ts";
import { coverageTable, measureCoverage, type CoverageExemptions, type OpenApiLike } from "./support/netbox-coverage.ts";
import { DELIBERATE } from "./netbox-differences.ts";

// How much of NetBox 4.2's REST API our served OpenAPI document describes (issue 18), per NetBox
// app: NetBox's paths we serve, the response properties of the models both serve, and the filter
// names of their lists. It prints the table, writes it to test-output/netbox-coverage.json and
// fails if a figure falls below its floor in test/netbox-coverage-floor.json (UPDATE_COVERAGE=1
// rewrites the floor). What test/netbox-differences.ts names as deliberate counts as covered.

const ROOT = resolve(import.meta.dirname, "..");
const NETBOX_DOCUMENT = resolve(ROOT, "../shared/reference/openapi.yaml");
const FLOOR_FILE = join(import.meta.dirname, "netbox-coverage-floor.json");
const REPORT_FILE = join(ROOT, "test-output", "netbox-coverage.json");

type Floor = Record<string, { paths: number; fields: number; filters: number }>;

const exemptions: CoverageExemptions = {
  paths: new Set(DELIBERATE.flatMap((d) => d.coverage?.paths ?? [])),
  fields: new Set(DELIBERATE.flatMap((d) => d.coverage?.fields ?? [])),
  filters: new Set(DELIBERATE.flatMap((d) => d.coverage?.filters ?? [])),
};

if (!existsSync(NETBOX_DOCUMENT))
  console.warn(`NetBox coverage skipped: ${NETBOX_DOCUMENT} is absent (the reference folder sits beside the project)`);

describe.skipIf(!existsSync(NETBOX_DOCUMENT))("coverage of NetBox 4.2's OpenAPI document", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api?.close());

  it("serves at least the pinned share of NetBox's paths, fields and filters, per app", async () => {
    // NetBox's document has no anchors worth expanding; its 4 MB take a few seconds to parse.
    const netbox: OpenApiLike = parseYaml(readFileSync(NETBOX_DOCUMENT, "utf8"), { maxAliasCount: -1 });
    const served = await api.get("/api/schema/?format=json", { token: null });
    expect(served.status).toBe(200);
    const rows = measureCoverage(netbox, served.body as OpenApiLike, exemptions);
    console.log(`NetBox 4.2 coverage (covered/NetBox's; report: test-output/netbox-coverage.json)\n${coverageTable(rows)}`);
    mkdirSync(join(ROOT, "test-output"), { recursive: true });
    writeFileSync(REPORT_FILE, `${JSON.stringify(rows, null, 1)}\n`);

    const measured: Floor = Object.fromEntries(
      rows.map((r) => [r.app, { paths: r.paths.covered, fields: r.fields.covered, filters: r.filters.covered }]),
    );
    if (process.env.UPDATE_COVERAGE === "1") {
      writeFileSync(FLOOR_FILE, `${JSON.stringify(measured, null, 2)}\n`);
      return;
    }
    const floor: Floor = existsSync(FLOOR_FILE) ? JSON.parse(readFileSync(FLOOR_FILE, "utf8")) : {};
    for (const [app, figures] of Object.entries(measured))
      for (const kind of ["paths", "fields", "filters"] as const)
        expect(figures[kind], `${app} ${kind} covered fell below the floor (UPDATE_COVERAGE=1 pins a new one)`).toBeGreaterThanOrEqual(
          floor[app]?.[kind] ?? 0,
        );
  }, 60_000);
});

describe("the coverage measure", () => {
  const list = (schema: string, params: string[]) => ({
    get: {
      parameters: params.map((name) => ({ in: "query", name })),
      responses: { "200": { content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } } } },
    },
  });
  const page = (item: string) => ({ properties: { results: { items: { $ref: `#/components/schemas/${item}` } } } });
  const netbox: OpenApiLike = {
    paths: {
      "/api/dcim/sites/": list("PaginatedSiteList", ["name", "slug", "asn"]),
      "/api/dcim/sites/{id}/": {},
      "/api/vpn/tunnels/": list("PaginatedTunnelList", ["name"]),
      "/api/status/": {},
    },
    components: {
      schemas: {
        PaginatedSiteList: page("Site"),
        PaginatedTunnelList: page("Tunnel"),
        Site: { properties: { id: {}, name: {}, asns: {} } },
        Tunnel: { properties: { id: {} } },
      },
    },
  };
  // Ours answers a list with its full or brief page (anyOf), as the served document does.
  const ours: OpenApiLike = {
    paths: {
      "/api/dcim/sites/": {
        get: {
          parameters: [{ in: "query", name: "name" }],
          responses: {
            "200": {
              content: {
                "application/json": {
                  schema: {
                    anyOf: [{ $ref: "#/components/schemas/PaginatedSiteList" }, { $ref: "#/components/schemas/PaginatedBriefSiteList" }],
                  },
                },
              },
            },
          },
        },
      },
      "/api/status/": {},
    },
    components: {
      schemas: {
        PaginatedSiteList: page("Site"),
        PaginatedBriefSiteList: page("BriefSite"),
        Site: { properties: { id: {}, name: {}, display_name: {} } },
        BriefSite: { properties: { id: {}, asns: {} } },
      },
    },
  };

  it("counts NetBox's paths we serve, the full form's fields and the filters, per app; a deliberate difference counts as covered", () => {
    const none = { paths: new Set<string>(), fields: new Set<string>(), filters: new Set<string>() };
    const rows = Object.fromEntries(measureCoverage(netbox, ours, none).map((r) => [r.app, r]));
    expect(rows.dcim.paths).toMatchObject({ covered: 1, total: 2, missing: ["/api/dcim/sites/{id}/"] });
    expect(rows.dcim.models).toEqual({ shared: 1, total: 1 });
    // asns is only in the brief form, which is not the model's full representation.
    expect(rows.dcim.fields).toMatchObject({ covered: 2, total: 3, missing: ["/api/dcim/sites/ asns"] });
    expect(rows.dcim.filters).toMatchObject({ covered: 1, total: 3, missing: ["/api/dcim/sites/ slug", "/api/dcim/sites/ asn"] });
    expect(rows.vpn.paths).toMatchObject({ covered: 0, total: 1 });
    expect(rows.vpn.models).toEqual({ shared: 0, total: 1 });
    expect(rows["(root)"].paths).toMatchObject({ covered: 1, total: 1 });

    const exempt = { paths: new Set(["/api/vpn/tunnels/"]), fields: new Set(["/api/dcim/sites/ asns"]), filters: new Set<string>() };
    const again = Object.fromEntries(measureCoverage(netbox, ours, exempt).map((r) => [r.app, r]));
    expect(again.vpn.paths).toMatchObject({ covered: 1, deliberate: 1, missing: [] });
    expect(again.dcim.fields).toMatchObject({ covered: 3, deliberate: 1, missing: [] });
  });
});

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

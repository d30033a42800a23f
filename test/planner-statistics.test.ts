import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";

/*
 * The query planner's statistics: gathered by the sweep for tables grown large enough to matter,
 * again once they have doubled, and used by the planner. Observed in `sqlite_stat1` and in the
 * plan SQLite chooses for one tenant's sites in name order.
 */

let api: Harness;

beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api?.close());

const sites = (from: number, count: number, tenant: number | null) =>
  Array.from({ length: count }, (_, i) => ({ name: `site ${from + i}`, slug: `site-${from + i}`, tenant }));

async function analyzedRows(table: string): Promise<number | null> {
  const stat = await api.db.kysely.selectFrom("sqlite_master").select("name").where("name", "=", "sqlite_stat1").execute();
  if (!stat.length) return null;
  const rows = await api.db.kysely.selectFrom("sqlite_stat1").select("stat").where("tbl", "=", table).execute();
  return rows.length ? Math.max(...rows.map((r) => Number.parseInt(String(r.stat), 10))) : null;
}

let plans = 0;

/**
 * The plan SQLite chooses for `sql`. Each text is new, so prepared now: a prepared EXPLAIN keeps
 * the plan of when it was prepared (it runs no statement that would notice new statistics), and
 * over a file (TEST_DATABASE=file) the reader that prepares it is another connection than the
 * writer that gathered them.
 */
async function plan(sql: string, parameters: unknown[]): Promise<string> {
  const [result] = await api.db.batch([{ sql: `EXPLAIN QUERY PLAN ${sql} -- ${++plans}`, parameters }], "read");
  return result.rows.map((r) => String(r.detail)).join("; ");
}

describe("the query planner's statistics", () => {
  it("are gathered by the sweep once a table holds 200 rows, and again once it has doubled", async () => {
    const tenant = (await api.post("/api/tenancy/tenants/", { name: "Acme", slug: "acme" })).body.id;
    expect((await api.post("/api/dcim/sites/", sites(0, 150, tenant))).status).toBe(201);
    await api.app.sweep(api.db);
    expect(await analyzedRows("dcim_site")).toBeNull();

    expect((await api.post("/api/dcim/sites/", sites(150, 150, tenant))).status).toBe(201);
    const byTenant = "SELECT id FROM dcim_site WHERE tenant_id = ? ORDER BY name LIMIT 50";
    // Without statistics the planner takes the tenant's index and sorts all its sites.
    expect(await plan(byTenant, [tenant])).toContain("TEMP B-TREE");
    await api.app.sweep(api.db);
    expect(await analyzedRows("dcim_site")).toBe(300);
    // Knowing that the tenant holds every site, it reads the name index in order instead.
    expect(await plan(byTenant, [tenant])).not.toContain("TEMP B-TREE");

    // 450 rows: not yet twice what was analyzed.
    expect((await api.post("/api/dcim/sites/", sites(300, 150, tenant))).status).toBe(201);
    await api.app.sweep(api.db);
    expect(await analyzedRows("dcim_site")).toBe(300);

    expect((await api.post("/api/dcim/sites/", sites(450, 200, tenant))).status).toBe(201);
    await api.app.sweep(api.db);
    expect(await analyzedRows("dcim_site")).toBe(650);
  });

  it("count only the rows that hold a value for an index on a column most rows leave empty", async () => {
    const site = (await api.get("/api/dcim/sites/?limit=1")).body.results[0].id;
    const prefixes = Array.from({ length: 300 }, (_, i) => ({ prefix: `10.${i >> 8}.${i & 255}.0/24`, ...(i < 30 ? { site } : {}) }));
    expect((await api.post("/api/ipam/prefixes/", prefixes)).status).toBe(201);
    await api.app.sweep(api.db);
    const stat = async (index: string) =>
      String((await api.db.kysely.selectFrom("sqlite_stat1").select("stat").where("idx", "=", index).executeTakeFirst())?.stat);
    // 270 prefixes without a site are no site's: the 30 that have one hold one value, 30 rows each.
    expect(await stat("ipam_prefix_site_id")).toBe("300 30");
    // No prefix has a role: an equality on it matches at most one row, not all 300.
    expect(await stat("ipam_prefix_role_id")).toBe("300 1");
    const bySite = "SELECT (SELECT count(*) FROM ipam_prefix x WHERE x.site_id = s.id) FROM dcim_site s";
    expect(await plan(bySite, [])).toContain("SEARCH x USING COVERING INDEX ipam_prefix_site_id (site_id=?)");
  });

  it("are gathered when the app starts on a database that has grown without them", async () => {
    const other = await createHarness();
    try {
      await other.post("/api/dcim/sites/", sites(0, 250, null));
      await other.db.executeScript("DROP TABLE IF EXISTS sqlite_stat1");
      await other.app.prepare(other.db, loadMigrations());
      const rows = await other.db.kysely.selectFrom("sqlite_stat1").select("stat").where("tbl", "=", "dcim_site").execute();
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });
});

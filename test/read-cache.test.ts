import { afterAll, describe, expect, it } from "vitest";
import Database from "libsql";
import { nativeConnection } from "../src/runtime/native-connection.ts";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { tempDirs, tokenCall } from "./support/processes.ts";

const dirs = tempDirs();
const services: NodeService[] = [];
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  dirs.cleanup();
});

/** A file with a table of numbers, its writer connection, and a reader keeping `chars` of rows. */
function database(chars = 1 << 20) {
  const file = `${dirs.make()}/cache.db`;
  const writer = nativeConnection(file, "writer", 1000);
  writer.script("CREATE TABLE t (x INTEGER, label TEXT); INSERT INTO t VALUES (1, 'one')", Date.now() + 1000);
  const reader = nativeConnection(file, "reader", 1000, { chars, shared: true });
  const write = (sql: string, parameters: unknown[] = []) => writer.write([[sql, parameters]], Date.now() + 1000);
  const rows = (sql: string, parameters: unknown[] = []) => reader.read([[sql, parameters]])[0][0];
  return { file, writer, reader, write, rows };
}

describe("a reader's cache of what it read (READ_CACHE_MB)", () => {
  it("answers a repeated read from its rows until anything commits: this process's writer or another program", () => {
    const { file, reader, write, rows } = database();
    const all = "SELECT x, label FROM t ORDER BY x";
    // Seen once, then kept on its second read, then answered from what was kept.
    for (let i = 0; i < 3; i++) expect(rows(all)).toEqual([{ x: 1, label: "one" }]);
    expect(reader.cacheStats()).toEqual({ hits: 1, misses: 2 });
    expect(rows(all)).toEqual([{ x: 1, label: "one" }]);
    expect(reader.cacheStats()).toEqual({ hits: 2, misses: 2 });

    write("INSERT INTO t VALUES (?, ?)", [2, "two"]);
    expect(rows(all)).toEqual([
      { x: 1, label: "one" },
      { x: 2, label: "two" },
    ]);
    expect(reader.cacheStats()).toEqual({ hits: 2, misses: 3 });
    rows(all);
    expect(rows(all)).toHaveLength(2);
    expect(reader.cacheStats()).toEqual({ hits: 3, misses: 4 });

    // Another program on the same file (sqlite3, a second instance, a migration) is seen at once.
    const other = new Database(file);
    other.exec("UPDATE t SET label = 'uno' WHERE x = 1");
    other.close();
    for (let i = 0; i < 3; i++) expect(rows(all)[0]).toEqual({ x: 1, label: "uno" });
    expect(reader.cacheStats()).toEqual({ hits: 4, misses: 6 });
  });

  it("keeps a batch's statements to one snapshot, and each caller's rows its own", () => {
    const { reader, write, rows } = database();
    const batch = () =>
      reader.read([
        ["SELECT x FROM t ORDER BY x", []],
        ["SELECT count(*) AS n FROM t", []],
      ]);
    expect(batch().map(([r]) => r)).toEqual([[{ x: 1 }], [{ n: 1 }]]);
    batch();
    const [[[first]]] = batch();
    expect(reader.cacheStats()).toEqual({ hits: 2, misses: 4 });
    // A caller that changes its rows changes nothing the next caller gets.
    first.x = 99;
    expect(rows("SELECT x FROM t ORDER BY x")).toEqual([{ x: 1 }]);

    write("INSERT INTO t VALUES (2, 'two')");
    expect(batch().map(([r]) => r)).toEqual([[{ x: 1 }, { x: 2 }], [{ n: 2 }]]);
  });

  it("tells parameters apart by type and value, and never keeps what the clock or chance decides", () => {
    const { reader, rows } = database();
    expect(rows("SELECT ? AS v, typeof(?) AS t", ["1", "1"])).toEqual([{ v: "1", t: "text" }]);
    expect(rows("SELECT ? AS v, typeof(?) AS t", [1, 1])).toEqual([{ v: 1, t: "real" }]);
    expect(rows("SELECT ? AS v, typeof(?) AS t", [null, null])).toEqual([{ v: null, t: "null" }]);
    expect(reader.cacheStats()).toEqual({ hits: 0, misses: 3 });

    for (const volatile of ["SELECT strftime('%f', 'now') AS t", "SELECT random() AS r", "SELECT CURRENT_TIMESTAMP AS t"]) {
      rows(volatile);
      rows(volatile);
    }
    expect(reader.cacheStats()).toEqual({ hits: 0, misses: 3 });
  });

  it("keeps no result larger than an eighth of its budget, and only small results with a budget of 0", () => {
    const small = database(8000);
    const long = "SELECT hex(zeroblob(1000)) AS s";
    expect(small.rows(long)[0].s).toHaveLength(2000);
    small.rows(long);
    small.rows(long);
    expect(small.reader.cacheStats()).toEqual({ hits: 0, misses: 3 });
    for (let i = 0; i < 3; i++) small.rows("SELECT 1 AS one");
    expect(small.reader.cacheStats()).toEqual({ hits: 1, misses: 5 });

    // Past its budget it starts over: what it kept first is read again, then kept again.
    const tight = database(2000);
    const read = (i: number) => tight.rows("SELECT ? AS i, hex(zeroblob(100)) AS s", [i]);
    for (let i = 0; i < 3; i++) read(0);
    expect(tight.reader.cacheStats()).toEqual({ hits: 1, misses: 2 });
    for (let i = 1; i <= 12; i++) for (let n = 0; n < 2; n++) read(i);
    const before = tight.reader.cacheStats()!;
    read(0);
    expect(tight.reader.cacheStats()).toEqual({ hits: before.hits, misses: before.misses + 1 });

    // With no budget a reader still keeps results of at most 512 characters (a count, a lookup).
    const none = database(0);
    for (let i = 0; i < 3; i++) expect(none.rows("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(none.reader.cacheStats()).toEqual({ hits: 1, misses: 2 });
    const page = "SELECT hex(zeroblob(300)) AS s";
    for (let i = 0; i < 3; i++) none.rows(page);
    expect(none.reader.cacheStats()).toEqual({ hits: 1, misses: 5 });
    // Writers keep nothing: their own commits are not changes SQLite shows them.
    expect(none.writer.cacheStats()).toBeNull();
  });

  it("with no budget, answers a repeated count from what it kept until a commit changes it", () => {
    const { reader, write, rows } = database(0);
    const count = "SELECT count(*) AS n FROM t WHERE x > ?";
    for (let i = 0; i < 3; i++) expect(rows(count, [0])).toEqual([{ n: 1 }]);
    expect(reader.cacheStats()).toEqual({ hits: 1, misses: 2 });
    write("INSERT INTO t VALUES (2, 'two')");
    expect(rows(count, [0])).toEqual([{ n: 2 }]);
    expect(reader.cacheStats()).toEqual({ hits: 1, misses: 3 });
  });
});

describe("a reader connection", () => {
  it("sees every commit after it explained a query plan (the addon left an exhausted EXPLAIN holding its snapshot)", () => {
    for (const chars of [0, 1 << 20]) {
      const { reader, write, rows } = database(chars);
      reader.read([["EXPLAIN QUERY PLAN SELECT x FROM t WHERE x = ? ORDER BY label", [1]]]);
      expect(rows("SELECT count(*) AS n FROM t")).toEqual([{ n: 1 }]);
      write("INSERT INTO t VALUES (2, 'two')");
      expect(rows("SELECT count(*) AS n FROM t")).toEqual([{ n: 2 }]);
      expect(rows("SELECT max(x) AS x FROM t")).toEqual([{ x: 2 }]);
    }
  });
});

describe("the served API over a kept read", () => {
  const TOKEN = "ce".repeat(20);
  const start = async () => {
    const file = `${dirs.make()}/inventory.db`;
    const service = await startNodeService({
      LIBSQL_URL: `file:${file}`,
      PORT: "0",
      WORKERS: "2",
      READ_CACHE_MB: "4",
      SUPERUSER_NAME: "root",
      SUPERUSER_PASSWORD: "root-password",
      SUPERUSER_API_TOKEN: TOKEN,
    });
    services.push(service);
    return { file, service, call: tokenCall(service.url, TOKEN) };
  };

  it("answers every read after a change with the change, whether the API or another program made it, on every thread", async () => {
    const { file, service, call } = await start();
    const site = (await call("POST", "/api/dcim/sites/", { name: "Kept", slug: "kept", description: "first" })).body;
    const reads = async () => {
      // Enough reads of each shape that they are served both on app threads and, once measured
      // light, on the HTTP thread through its own reader.
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        seen.push((await call("GET", `/api/dcim/sites/${site.id}/`)).body.description);
        seen.push((await call("GET", "/api/dcim/sites/?slug=kept")).body.results[0].description);
      }
      return seen;
    };
    expect(new Set(await reads())).toEqual(new Set(["first"]));
    expect(service.served.light).toBeGreaterThan(0);
    expect(service.served.threads).toBeGreaterThan(2);

    expect((await call("PATCH", `/api/dcim/sites/${site.id}/`, { description: "patched" })).status).toBe(200);
    expect(new Set(await reads())).toEqual(new Set(["patched"]));

    const other = new Database(file);
    other.exec(`UPDATE dcim_site SET description = 'edited by hand' WHERE id = ${Number(site.id)}`);
    other.close();
    expect(new Set(await reads())).toEqual(new Set(["edited by hand"]));
  });
});

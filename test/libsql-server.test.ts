import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, LibsqlError, type Client } from "@libsql/client/web";
import { startLibsqlServer } from "../scripts/libsql-server.ts";

let dir: string;
let server: { url: string; close(): Promise<void> };
let db: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "libsql-server-"));
  server = await startLibsqlServer({ path: join(dir, "test.db"), port: 0 });
  db = createClient({ url: server.url, intMode: "number" });
  await db.executeMultiple(`
    CREATE TABLE site (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, slug TEXT);
    CREATE TABLE device (id INTEGER PRIMARY KEY, site_id INTEGER NOT NULL REFERENCES site(id), name TEXT);
    CREATE TABLE val (n, i INTEGER, f REAL, t TEXT, b BLOB);
  `);
});

afterAll(async () => {
  db?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function pipeline(baton: string | null, requests: unknown[], url = server.url) {
  const res = await fetch(`${url}/v2/pipeline`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ baton, requests }),
  });
  return { status: res.status, body: await res.json() };
}

const names = async () => (await db.execute("SELECT name FROM site ORDER BY name")).rows.map((r) => r.name);

describe("libsql server", () => {
  it("answers 404 to the v3 probe and serves the v2 pipeline", async () => {
    expect((await fetch(`${server.url}/v3-protobuf`)).status).toBe(404);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("executes with positional and named args", async () => {
    const ins = await db.execute({ sql: "INSERT INTO site (name, slug) VALUES (?, ?)", args: ["alpha", "a"] });
    expect(ins.rowsAffected).toBe(1);
    expect(ins.lastInsertRowid).toBe(1n);
    await db.execute({ sql: "INSERT INTO site (name, slug) VALUES (:name, $slug)", args: { name: "beta", slug: "b" } });
    await db.execute({ sql: "INSERT INTO site (name, slug) VALUES (@name, ?2)", args: { "@name": "gamma", "?2": "g" } });
    const byName = await db.execute({ sql: "SELECT slug FROM site WHERE name = :name", args: { name: "beta" } });
    expect(byName.rows[0].slug).toBe("b");
    expect(byName.columns).toEqual(["slug"]);
    expect(byName.columnTypes).toEqual(["TEXT"]);
    expect(byName.rowsAffected).toBe(0);
    expect((await db.execute("SELECT slug FROM site WHERE name = 'gamma'")).rows[0].slug).toBe("g");
    // Mixing a bare "?" with a named parameter would make libsql's native object binding panic.
    const mixed = await db.execute({ sql: "SELECT ? AS a, :b AS b", args: { b: 2 } });
    expect(mixed.rows[0]).toMatchObject({ a: null, b: 2 });
    await db.execute("DELETE FROM site");
  });

  it("commits a write batch atomically and returns RETURNING rows", async () => {
    const results = await db.batch(
      [
        { sql: "INSERT INTO site (name) VALUES (?)", args: ["one"] },
        { sql: "INSERT INTO site (name) VALUES (?) RETURNING id, name", args: ["two"] },
        "UPDATE site SET slug = lower(name)",
      ],
      "write",
    );
    expect(results[1].rows).toHaveLength(1);
    expect(results[1].rows[0].name).toBe("two");
    expect(results[1].rowsAffected).toBe(1);
    expect(results[2].rowsAffected).toBe(2);
    expect(await names()).toEqual(["one", "two"]);
  });

  it("rolls back a write batch when a statement fails and reports the constraint", async () => {
    const err = await db
      .batch(
        [
          { sql: "INSERT INTO site (name) VALUES (?)", args: ["three"] },
          { sql: "INSERT INTO site (name) VALUES (?)", args: ["one"] },
        ],
        "write",
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LibsqlError);
    expect((err as LibsqlError).code).toBe("SQLITE_CONSTRAINT_UNIQUE");
    expect(await names()).toEqual(["one", "two"]);

    const fk = await db.execute({ sql: "INSERT INTO device (site_id) VALUES (?)", args: [999] }).catch((e: unknown) => e);
    expect((fk as LibsqlError).code).toBe("SQLITE_CONSTRAINT_FOREIGNKEY");
  });

  it("rolls back and commits interactive transactions", async () => {
    const rolledBack = await db.transaction("write");
    await rolledBack.execute({ sql: "INSERT INTO site (name) VALUES (?)", args: ["temp"] });
    expect((await rolledBack.execute("SELECT count(*) AS n FROM site")).rows[0].n).toBe(3);
    await rolledBack.rollback();
    expect(await names()).toEqual(["one", "two"]);

    const committed = await db.transaction("write");
    await committed.execute({ sql: "INSERT INTO site (name) VALUES (?)", args: ["kept"] });
    await committed.execute({ sql: "UPDATE site SET slug = 'k' WHERE name = ?", args: ["kept"] });
    await committed.commit();
    expect(await names()).toEqual(["kept", "one", "two"]);
  });

  it("lets concurrent clients write without errors or lost rows", async () => {
    const other = createClient({ url: server.url, intMode: "number" });
    try {
      // An interactive transaction holds the write lock across requests; the second client's
      // BEGIN IMMEDIATE must wait for it instead of failing or stalling the server.
      const tx = await db.transaction("write");
      await tx.execute("INSERT INTO site (name) VALUES ('tx-1')");
      const waiting = other.batch(["INSERT INTO site (name) VALUES ('other-1')"], "write");
      await new Promise((r) => setTimeout(r, 100));
      await tx.execute("INSERT INTO site (name) VALUES ('tx-2')");
      await tx.commit();
      await waiting;
      const order = await db.execute("SELECT name FROM site WHERE name IN ('tx-1', 'tx-2', 'other-1') ORDER BY id");
      expect(order.rows.map((r) => r.name)).toEqual(["tx-1", "tx-2", "other-1"]);

      const writes = [];
      for (let i = 0; i < 20; i++) {
        const client = i % 2 ? db : other;
        writes.push(client.execute({ sql: "INSERT INTO site (name) VALUES (?)", args: [`c-${i}`] }));
        writes.push(client.batch([{ sql: "INSERT INTO site (name) VALUES (?)", args: [`b-${i}`] }], "write"));
      }
      await Promise.all(writes);
      const count = (await db.execute("SELECT count(*) AS n FROM site")).rows[0].n;
      expect(count).toBe(3 + 3 + 40);
      expect((await db.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    } finally {
      other.close();
    }
  });

  it("round-trips NULL, integers, floats, text and blobs", async () => {
    const blob = new Uint8Array([0, 1, 2, 254, 255]);
    await db.execute({ sql: "INSERT INTO val VALUES (?, ?, ?, ?, ?)", args: [null, 42n, 3.25, "héllo ✓", blob] });
    await db.execute({ sql: "INSERT INTO val (i, t) VALUES (?, ?)", args: [-(2n ** 53n) + 1n, ""] });
    const rs = await db.execute("SELECT n, i, f, t, b, typeof(i) AS ti, typeof(f) AS tf FROM val ORDER BY rowid");
    expect(rs.rows[0]).toMatchObject({ n: null, i: 42, f: 3.25, t: "héllo ✓", ti: "integer", tf: "real" });
    expect(new Uint8Array(rs.rows[0].b as ArrayBuffer)).toEqual(blob);
    expect(rs.rows[1]).toMatchObject({ i: -(2 ** 53) + 1, t: "", b: null });

    const big = createClient({ url: server.url, intMode: "bigint" });
    try {
      const r = await big.execute({ sql: "SELECT ? AS v, 9223372036854775807 AS max", args: [-9223372036854775808n] });
      expect(r.rows[0]).toMatchObject({ v: -9223372036854775808n, max: 9223372036854775807n });
    } finally {
      big.close();
    }
  });

  it("speaks raw Hrana: stored SQL, describe, batch conditions, batons", async () => {
    const text = (value: string) => ({ type: "text", value });
    const first = await pipeline(null, [
      { type: "store_sql", sql_id: 1, sql: "SELECT ? AS b, :a AS a" },
      { type: "describe", sql_id: 1 },
      { type: "execute", stmt: { sql_id: 1, args: [text("x")], named_args: [{ name: ":a", value: { type: "integer", value: "7" } }] } },
      { type: "close_sql", sql_id: 1 },
      { type: "execute", stmt: { sql_id: 1 } },
      {
        type: "batch",
        batch: {
          steps: [
            { stmt: { sql: "BEGIN" } },
            { condition: { type: "ok", step: 0 }, stmt: { sql: "SELECT nope" } },
            { condition: { type: "error", step: 1 }, stmt: { sql: "SELECT 1" } },
            { condition: { type: "not", cond: { type: "is_autocommit" } }, stmt: { sql: "SELECT 2" } },
            {
              condition: {
                type: "and",
                conds: [
                  { type: "ok", step: 0 },
                  { type: "ok", step: 1 },
                ],
              },
              stmt: { sql: "SELECT 3" },
            },
            {
              condition: {
                type: "or",
                conds: [
                  { type: "ok", step: 1 },
                  { type: "ok", step: 2 },
                ],
              },
              stmt: { sql: "BEGIN" },
            },
          ],
        },
      },
      { type: "get_autocommit" },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.baton).toMatch(/^[\w-]{32}$/);
    const [stored, described, executed, closed, missing, batch, autocommit] = first.body.results;
    expect([stored.type, closed.type]).toEqual(["ok", "ok"]);
    expect(described.response.result).toEqual({
      params: [{ name: null }, { name: ":a" }],
      cols: [
        { name: "b", decltype: null },
        { name: "a", decltype: null },
      ],
      is_explain: false,
      is_readonly: true,
    });
    expect(executed.response.result).toEqual({
      cols: [
        { name: "b", decltype: null },
        { name: "a", decltype: null },
      ],
      rows: [[text("x"), { type: "integer", value: "7" }]],
      affected_row_count: 0,
      last_insert_rowid: null,
    });
    expect(missing).toMatchObject({ type: "error", error: { code: "SQL_NOT_FOUND" } });
    const { step_results, step_errors } = batch.response.result;
    expect(step_results.map((r: unknown) => r !== null)).toEqual([true, false, true, true, false, false]);
    expect(step_errors.map((e: unknown) => e !== null)).toEqual([false, true, false, false, false, true]);
    expect(step_errors[5].code).toBe("SQLITE_ERROR"); // nested BEGIN
    expect(autocommit.response).toEqual({ type: "get_autocommit", is_autocommit: false });

    // The same stream (and its open transaction) continues under the new baton; the old one is spent.
    const second = await pipeline(first.body.baton, [
      { type: "execute", stmt: { sql: "ROLLBACK" } },
      { type: "get_autocommit" },
      { type: "close" },
    ]);
    expect(second.body.results[1].response.is_autocommit).toBe(true);
    expect(second.body.baton).toBeNull();
    const replay = await pipeline(first.body.baton, [{ type: "get_autocommit" }]);
    expect(replay).toMatchObject({ status: 400, body: { code: "STREAM_EXPIRED" } });
    expect((await fetch(`${server.url}/v2/pipeline`, { method: "POST", body: "{" })).status).toBe(400);
  });

  it("expires idle streams and rolls back their transactions", async () => {
    const other = await startLibsqlServer({ path: join(dir, "test.db"), idleTimeoutMs: 200 });
    try {
      const opened = await pipeline(
        null,
        [
          { type: "execute", stmt: { sql: "BEGIN IMMEDIATE" } },
          { type: "execute", stmt: { sql: "INSERT INTO site (name) VALUES ('abandoned')" } },
        ],
        other.url,
      );
      expect(opened.body.results.map((r: { type: string }) => r.type)).toEqual(["ok", "ok"]);
      await new Promise((r) => setTimeout(r, 400));
      expect((await pipeline(opened.body.baton, [{ type: "get_autocommit" }], other.url)).status).toBe(400);
      // The abandoned write lock is gone, and so is the uncommitted row.
      await db.execute("INSERT INTO site (name) VALUES ('after-expiry')");
      const rows = (await db.execute("SELECT name FROM site WHERE name IN ('abandoned', 'after-expiry')")).rows;
      expect(rows.map((r) => r.name)).toEqual(["after-expiry"]);
    } finally {
      await other.close();
    }
  });
});

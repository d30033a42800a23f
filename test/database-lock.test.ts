/**
 * The embedded database while another program holds its write lock, and after a crash: real
 * libSQL files, the service as `npm start` runs it, a separate process holding the lock.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { DatabaseBusyError } from "../src/db/database.ts";
import { libsqlClientDatabase } from "../src/db/libsql-client.ts";
import { nativeDatabase } from "../src/runtime/native-database.ts";
import { holdWriteLock, startProcess, stop } from "./support/processes.ts";

const TOKEN = "cd".repeat(20);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "inventory-lock-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const env = (file: string, extra: Record<string, string> = {}) => ({
  LIBSQL_URL: `file:${file}`,
  PORT: "0",
  SUPERUSER_NAME: "root",
  SUPERUSER_PASSWORD: "root-password",
  SUPERUSER_API_TOKEN: TOKEN,
  ...extra,
});
const headers = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json", Accept: "application/json" };
const api = (url: string) => ({
  get: (path: string) => fetch(`${url}${path}`, { headers }),
  post: (path: string, body: unknown) => fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  count: async (path: string) => (await (await fetch(`${url}${path}`, { headers })).json()).count as number,
});

describe("a write while another program holds the write lock", () => {
  it("answers 503 with Retry-After and changes nothing, while reads keep answering; writes succeed once it is released", async () => {
    const file = join(tempDir(), "inventory.db");
    // Long enough that the reads below are answered while the write still waits for the lock.
    const service = await startProcess(env(file, { DATABASE_BUSY_TIMEOUT: "3000" }));
    try {
      const { get, post, count } = api(service.url);
      expect((await post("/api/dcim/regions/", { name: "Europe", slug: "europe" })).status).toBe(201);

      const lock = await holdWriteLock(file);
      let released = false;
      try {
        const order: string[] = [];
        const write = post("/api/dcim/sites/", { name: "Locked", slug: "locked", region: { slug: "europe" } }).then(
          (r) => (order.push("write"), r),
        );
        const reads = Promise.all([get("/api/status/"), get("/api/dcim/regions/")]).then((r) => (order.push("reads"), r));
        const [status, regions] = await reads;
        expect(status.status).toBe(200);
        expect((await status.json())["netbox-version"]).toBeDefined();
        expect(regions.status).toBe(200);
        expect((await regions.json()).count).toBe(1);

        const refused = await write;
        // The reads were answered while the write still waited for the lock.
        expect(order).toEqual(["reads", "write"]);
        expect(refused.status).toBe(503);
        expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
        expect(await refused.json()).toEqual({ detail: expect.stringMatching(/database is busy/) });
        const requestId = refused.headers.get("X-Request-ID");
        expect(requestId).toBeTruthy();

        // A bulk write is refused the same way, whole.
        const bulk = await post("/api/dcim/sites/", [
          { name: "B1", slug: "b1" },
          { name: "B2", slug: "b2" },
        ]);
        expect(bulk.status).toBe(503);

        await lock.release();
        released = true;
        expect(await count("/api/dcim/sites/")).toBe(0);
        expect(await count(`/api/core/object-changes/?request_id=${requestId}`)).toBe(0);
      } finally {
        if (!released) await lock.release();
      }

      const created = await post("/api/dcim/sites/", { name: "Locked", slug: "locked", region: { slug: "europe" } });
      expect(created.status).toBe(201);
      expect(await count(`/api/core/object-changes/?request_id=${created.headers.get("X-Request-ID")}`)).toBe(1);
      expect(await count("/api/dcim/sites/")).toBe(1);
    } finally {
      await stop(service.child);
    }
  });

  it("is a DatabaseBusyError from either driver (the native threads and @libsql/client), with nothing written", async () => {
    const file = join(tempDir(), "drivers.db");
    const native = nativeDatabase(file, { busyTimeoutMs: 200, readers: 1 });
    const client = libsqlClientDatabase(createClient({ url: `file:${file}`, intMode: "number" }));
    try {
      await native.executeScript("CREATE TABLE t (x INTEGER);");
      const lock = await holdWriteLock(file);
      try {
        const insert = [{ sql: "INSERT INTO t (x) VALUES (?)", parameters: [1] }];
        await expect(native.batch(insert, "write")).rejects.toBeInstanceOf(DatabaseBusyError);
        await expect(client.batch(insert, "write")).rejects.toBeInstanceOf(DatabaseBusyError);
        // Reads go on under the lock (WAL).
        const [rows] = await native.batch([{ sql: "SELECT count(*) AS n FROM t", parameters: [] }], "read");
        expect(rows.rows[0].n).toBe(0);
      } finally {
        await lock.release();
      }
      await native.batch([{ sql: "INSERT INTO t (x) VALUES (?)", parameters: [2] }], "write");
      const [after] = await client.batch([{ sql: "SELECT x FROM t", parameters: [] }], "read");
      expect(after.rows).toEqual([{ x: 2 }]);
    } finally {
      native.close();
      client.close();
    }
  });
});

describe("a crash during a bulk write", () => {
  it("leaves all of it or none of it: every object with its one change record, or nothing", async () => {
    const dir = tempDir();
    const file = join(dir, "inventory.db");
    const first = await startProcess(env(file));
    const objects = Array.from({ length: 3000 }, (_, i) => ({ name: `Bulk ${i}`, slug: `bulk-${i}`, status: "planned" }));
    const walSize = () => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    };
    const before = walSize();
    const write = api(first.url)
      .post("/api/dcim/sites/", objects)
      .then(
        (r) => r.status,
        () => "no answer",
      );
    // Kill -9 once the bulk transaction is writing pages to the log (the token's last-use update
    // adds a page or two; the bulk adds megabytes), or after 10 s.
    const started = Date.now();
    while (walSize() - before < 256 * 1024 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 1));
    await stop(first.child, "SIGKILL");
    const answer = await write;

    const second = await startProcess(env(file));
    try {
      const { count } = api(second.url);
      const sites = await count("/api/dcim/sites/?limit=1");
      const records = await count("/api/core/object-changes/?changed_object_type=dcim.site&action=create&limit=1");
      expect([0, objects.length], `answer before the kill: ${answer}`).toContain(sites);
      expect(records).toBe(sites);
      if (answer === 201) expect(sites).toBe(objects.length);
    } finally {
      await stop(second.child);
    }
  });
});

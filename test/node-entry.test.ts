import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { startProcess, stop, tempDirs } from "./support/processes.ts";

const dirs = tempDirs();
const tempDir = dirs.make;
afterAll(dirs.cleanup);

describe("Node entry over a real socket", () => {
  let service: NodeService;
  afterAll(() => service?.close());

  it("serves the API on 127.0.0.1 with the socket address as the client address", async () => {
    const token = "ab".repeat(20);
    service = await startNodeService({
      LIBSQL_URL: `file:${tempDir()}/inventory.db`,
      PORT: "0",
      SUPERUSER_NAME: "root",
      SUPERUSER_PASSWORD: "root-password",
      SUPERUSER_API_TOKEN: token,
    });
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const root = await fetch(`${service.url}/api/`);
    expect(root.headers.get("API-Version")).toBe("4.2");
    const auth = { Authorization: `Token ${token}`, "Content-Type": "application/json" };
    const created = await fetch(`${service.url}/api/dcim/sites/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "DC1", slug: "dc1" }),
    });
    expect(created.status).toBe(201);
    expect((await created.json()).url).toBe(`${service.url}/api/dcim/sites/1/`);

    const local = await (
      await fetch(`${service.url}/api/users/tokens/`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ allowed_ips: ["127.0.0.0/8"] }),
      })
    ).json();
    const remote = await (
      await fetch(`${service.url}/api/users/tokens/`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ allowed_ips: ["10.0.0.0/8"] }),
      })
    ).json();
    expect((await fetch(`${service.url}/api/dcim/sites/`, { headers: { Authorization: `Token ${local.key}` } })).status).toBe(200);
    const refused = await fetch(`${service.url}/api/dcim/sites/`, {
      headers: { Authorization: `Token ${remote.key}`, "X-Forwarded-For": "10.0.0.1" },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toBe("Source IP 127.0.0.1 is not permitted to authenticate using this token.");
    const redirect = await fetch(`${service.url}/api/dcim/sites?limit=1`, { redirect: "manual", headers: auth });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe(`${service.url}/api/dcim/sites/?limit=1`);
  });
});

describe("`node src/node.ts` (what npm start runs)", () => {
  it("creates admin on first start, prints the credentials once, and keeps tokens valid across restarts", async () => {
    const dir = tempDir();
    const env = { LIBSQL_URL: `file:${dir}/inventory.db`, PORT: "0", SECRET_KEY: "", SUPERUSER_NAME: "", SUPERUSER_API_TOKEN: "" };
    const first = await startProcess(env);
    const token = /API token: ([0-9a-f]{40})/.exec(first.output)?.[1];
    expect(first.output).toMatch(/username: admin/);
    expect(first.output).toMatch(/password: \S+/);
    expect(token).toBeDefined();
    expect(statSync(join(dir, "secret_key")).mode & 0o777).toBe(0o600);
    expect((await fetch(`${first.url}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } })).status).toBe(200);
    await stop(first.child);

    const second = await startProcess(env);
    expect(second.output).not.toMatch(/API token|password:/);
    expect((await fetch(`${second.url}/api/dcim/sites/`, { headers: { Authorization: `Token ${token}` } })).status).toBe(200);
    await stop(second.child);
  });

  it.runIf(process.platform === "linux")(
    "serves from the process it was started as, restarted in place with two malloc arenas and V8's heap bounds",
    async () => {
      const dir = tempDir();
      const started = await startProcess({ LIBSQL_URL: `file:${dir}/inventory.db`, PORT: "0", MALLOC_ARENA_MAX: "" });
      const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      const args = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      expect(environ(started.child.pid!)).toContain("MALLOC_ARENA_MAX=2");
      expect(args(started.child.pid!)).toEqual(expect.arrayContaining(["--max-semi-space-size=2", "--max-old-space-size=512"]));
      const answer = await fetch(`${started.url}/api/status/`);
      expect([answer.status, (await answer.json()).detail]).toEqual([403, "Authentication credentials were not provided."]);
      await stop(started.child);
      expect(started.child.exitCode).toBe(0);
      // Set by whoever starts it (here, glibc's own limit), it is left as it is.
      const kept = await startProcess({
        LIBSQL_URL: `file:${dir}/inventory.db`,
        PORT: "0",
        MALLOC_ARENA_MAX: "8",
        NODE_OPTIONS: "--max_semi_space_size=4",
      });
      expect(environ(kept.child.pid!)).toContain("MALLOC_ARENA_MAX=8");
      expect(args(kept.child.pid!).filter((arg) => arg.startsWith("--max"))).toEqual(["--max-old-space-size=512"]);
      await stop(kept.child);
      // Without app threads the HTTP thread serves every request: its old generation is V8's to size.
      const alone = await startProcess({ LIBSQL_URL: `file:${dir}/inventory.db`, PORT: "0", WORKERS: "0" });
      expect(args(alone.child.pid!).filter((arg) => arg.startsWith("--max"))).toEqual(["--max-semi-space-size=4"]);
      await stop(alone.child);
    },
  );

  it("gives the HTTP thread's semi-space flag to it alone: a thread started later gets the young generation it asks for", () => {
    // A thread asking for 24 MB of young generation: two 8 MB semi-spaces where its limit holds,
    // two 2 MB ones where the process's flag overrides it.
    const script = `
      const { applyStartSettings } = await import(process.argv[1]);
      const { Worker } = await import("node:worker_threads");
      applyStartSettings();
      const code = 'const v8 = process.getBuiltinModule("node:v8"); const a = []; for (let i = 0; i < 1e6; i++) a.push({ i });' +
        'process.getBuiltinModule("node:worker_threads").parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size);';
      new Worker(code, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 24 } }).on("message", (bytes) => (console.log(bytes / 1048576), process.exit(0)));`;
    const newSpaceMb = (env: Record<string, string>) => {
      const run = spawnSync(
        process.execPath,
        [
          "--max-semi-space-size=2",
          "--max-old-space-size=512",
          "--input-type=module",
          "-e",
          script,
          fileURLToPath(new URL("../src/runtime/start-settings.ts", import.meta.url)),
        ],
        { env: { ...process.env, MALLOC_ARENA_MAX: "2", NODE_OPTIONS: "", ...env }, encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      return Number(run.stdout.trim());
    };
    // The flag as the restart gave it (start-settings.ts marks it so): the HTTP thread's only.
    expect(newSpaceMb({ INVENTORY_OWN_SEMI_SPACE: "1" })).toBe(16);
    // The flag as a user gave it: kept for every thread, as Node applies it.
    expect(newSpaceMb({})).toBe(4);
  });

  it("refuses to start on a bad setting, naming it", async () => {
    await expect(startProcess({ PORT: "not-a-port", LIBSQL_URL: ":memory:" })).rejects.toThrow(
      /exited with 1[\s\S]*PORT: must be a whole number/,
    );
  });
});

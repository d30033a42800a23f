/**
 * How the service answers while its database is contended, measured on a service in its own
 * process (`node src/node.ts`, as `npm start`), so the load's clients do not share its event loop:
 *   (a) another process holds the file's write lock for LOCK_SECONDS with writes queued: the
 *       latency of GET /api/status/ meanwhile, and how the writes were answered (503s);
 *   (b) 50 clients load it with mixed reads and writes: the latency of GET /api/status/ beside them.
 * Runs alone as `node scripts/bench-database.ts [--lock-seconds 10 --load-seconds 5 --clients 50]`
 * (`--root DIR` measures another checkout's src/node.ts) or as the database section of `npm run bench`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient, arg, BENCH_TOKEN, fillSites } from "./bench-client.ts";

/** Another program's transaction: BEGIN IMMEDIATE through the libsql addon, held until stdin says so. */
const LOCK_HOLDER = `
const Database = require("libsql");
const db = new Database(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
process.stdin.once("data", () => { db.exec("COMMIT"); process.exit(0); });
`;

export interface DatabaseFigures {
  lock_status_p50: number;
  lock_status_p99: number;
  lock_status_max: number;
  lock_status_requests: number;
  lock_writes: number;
  lock_writes_503: number;
  lock_writes_500: number;
  load_status_p50: number;
  load_status_p99: number;
  load_rate: number;
  load_p50: number;
  load_p99: number;
  load_503: number;
  load_500: number;
}

export const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sequential GET /api/status/ on one connection until `until()`; each latency in ms. */
export async function probeStatus(call: ReturnType<typeof apiClient>, until: () => boolean, into: number[]) {
  while (!until()) {
    const t = performance.now();
    const reply = await call("GET", "/api/status/");
    into.push(performance.now() - t);
    if (reply.status !== 200) throw new Error(`/api/status/ answered ${reply.status}`);
    await sleep(5);
  }
}

/** `node src/node.ts` of `root` on a free port over `file`, with the benchmark's superuser and `env` besides. */
export function startService(root: string, file: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/node.ts"], {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        LIBSQL_URL: `file:${file}`,
        PORT: "0",
        SUPERUSER_NAME: "bench",
        SUPERUSER_PASSWORD: "bench-password",
        SUPERUSER_API_TOKEN: BENCH_TOKEN,
        MAX_PAGE_SIZE: "1000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      const match = /listening on (http:\/\/\S+)\/api\//.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`the service exited with ${code}:\n${out}`)));
  });
}

function holdLock(root: string, file: string): Promise<{ release(): Promise<void> }> {
  const child = spawn(process.execPath, ["-e", LOCK_HOLDER, file], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () =>
      resolve({
        release: () => new Promise<void>((done) => (child.once("exit", () => done()), child.stdin!.end("release\n"))),
      }),
    );
    child.once("error", reject);
  });
}

export async function benchDatabase(
  options: { root?: string; lockSeconds?: number; loadSeconds?: number; clients?: number } = {},
): Promise<DatabaseFigures> {
  const root = options.root ?? fileURLToPath(new URL("..", import.meta.url));
  const lockSeconds = options.lockSeconds ?? 10;
  const loadSeconds = options.loadSeconds ?? 5;
  const clients = options.clients ?? 50;
  const dir = mkdtempSync(join(tmpdir(), "inventory-bench-db-"));
  const file = join(dir, "bench.db");
  const service = await startService(root, file);
  const call = apiClient(service.url, clients + 8);
  try {
    const SITES = 200;
    await fillSites(call, SITES);
    for (let i = 0; i < 50; i++) await call("GET", "/api/status/"); // warm up

    // (a) Another process holds the write lock; a few writes arrive each second meanwhile.
    const lockStatus: number[] = [];
    const writes: Promise<number>[] = [];
    const lock = await holdLock(root, file);
    const end = performance.now() + lockSeconds * 1000;
    let k = 0;
    const writer = (async () => {
      while (performance.now() < end) {
        for (let j = 0; j < 3; j++) {
          const n = k++;
          writes.push(call("POST", "/api/extras/tags/", { name: `lock ${n}`, slug: `lock-${n}` }).then((r) => r.status));
        }
        await sleep(1000);
      }
    })();
    await Promise.all([writer, ...Array.from({ length: 4 }, () => probeStatus(call, () => performance.now() >= end, lockStatus))]);
    await lock.release();
    const writeStatus = await Promise.all(writes);
    lockStatus.sort((a, b) => a - b);

    // (b) `clients` connections of mixed reads and writes, GET /api/status/ probed beside them.
    const loadStatus: number[] = [];
    const latencies: number[] = [];
    const codes: number[] = [];
    const loadEnd = performance.now() + loadSeconds * 1000;
    let i = 0;
    const mixed = (): [string, string, unknown?] => {
      const n = i++;
      const site = (n % SITES) + 1;
      switch (n % 10) {
        case 0:
          return ["PATCH", `/api/dcim/sites/${site}/`, { description: `d${n}` }];
        case 1:
          return ["POST", "/api/extras/tags/", { name: `load ${n}`, slug: `load-${n}` }];
        case 2:
        case 3:
          return ["GET", `/api/dcim/sites/?limit=50&offset=${(n * 50) % SITES}`];
        default:
          return ["GET", `/api/dcim/sites/${site}/`];
      }
    };
    await Promise.all([
      probeStatus(call, () => performance.now() >= loadEnd, loadStatus),
      ...Array.from({ length: clients }, async () => {
        while (performance.now() < loadEnd) {
          const [method, path, body] = mixed();
          const t = performance.now();
          const reply = await call(method, path, body);
          latencies.push(performance.now() - t);
          codes.push(reply.status);
        }
      }),
    ]);
    loadStatus.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    const r = (x: number) => Math.round(x * 10) / 10;
    return {
      lock_status_p50: r(pct(lockStatus, 50)),
      lock_status_p99: r(pct(lockStatus, 99)),
      lock_status_max: r(lockStatus[lockStatus.length - 1]),
      lock_status_requests: lockStatus.length,
      lock_writes: writeStatus.length,
      lock_writes_503: writeStatus.filter((s) => s === 503).length,
      lock_writes_500: writeStatus.filter((s) => s === 500).length,
      load_status_p50: r(pct(loadStatus, 50)),
      load_status_p99: r(pct(loadStatus, 99)),
      load_rate: Math.round(latencies.length / loadSeconds),
      load_p50: r(pct(latencies, 50)),
      load_p99: r(pct(latencies, 99)),
      load_503: codes.filter((s) => s === 503).length,
      load_500: codes.filter((s) => s === 500).length,
    };
  } finally {
    call.close();
    await new Promise<void>((resolve) => (service.child.once("exit", () => resolve()), service.child.kill("SIGTERM")));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the figures, one line per situation. */
export function printDatabase(f: DatabaseFigures, lockSeconds: number, clients: number) {
  console.log(`GET /api/status/ while another process holds the write lock ${lockSeconds} s, writes queued:`);
  console.log(
    `  p50 ${f.lock_status_p50} ms   p99 ${f.lock_status_p99} ms   max ${f.lock_status_max} ms   (${f.lock_status_requests} requests on 4 connections)`,
  );
  console.log(
    `  the ${f.lock_writes} writes sent meanwhile: ${f.lock_writes_503} answered 503 (Retry-After), ${f.lock_writes_500} answered 500`,
  );
  console.log(`GET /api/status/ beside ${clients} clients of mixed reads and writes (60 % detail, 20 % list, 10 % PATCH, 10 % POST):`);
  console.log(`  p50 ${f.load_status_p50} ms   p99 ${f.load_status_p99} ms   (target p99 under 20 ms)`);
  console.log(
    `  the load: ${f.load_rate} req/s, p50 ${f.load_p50} ms, p99 ${f.load_p99} ms, ${f.load_503} answered 503, ${f.load_500} answered 500`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rootIndex = process.argv.indexOf("--root");
  const lockSeconds = arg("lock-seconds", 10);
  const clients = arg("clients", 50);
  const figures = await benchDatabase({
    root: rootIndex > 0 ? process.argv[rootIndex + 1] : undefined,
    lockSeconds,
    loadSeconds: arg("load-seconds", 5),
    clients,
  });
  printDatabase(figures, lockSeconds, clients);
}

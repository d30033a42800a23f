/**
 * Benchmarks the Node service on this machine over loopback and prints numbers; asserts nothing.
 *   npm run bench [-- --seconds 3 --concurrency 8 --sites 1000] [-- --webhooks (the webhook figures only)]
 *                 [-- --database-only 1 (the contended-database figures only, scripts/bench-database.ts)]
 *                 [-- --workers-only 1 (reads by WORKERS setting only, scripts/bench-workers.ts)]
 *   npm run bench -- --hostile-render 1 (status latency while a hostile webhook renders, alone)
 * Starts the service on a temporary embedded database, fills it, then measures each scenario for
 * a fixed time with a fixed number of keep-alive connections. Traffic goes to 127.0.0.1 only.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNodeService } from "../src/runtime/node-service.ts";
import { apiClient, arg, BENCH_TOKEN, fillSites, runLoad } from "./bench-client.ts";
import { benchIpam } from "./bench-ipam.ts";
import { benchDatabase, printDatabase } from "./bench-database.ts";
import { benchHostileRender } from "./bench-hostile-render.ts";
import { benchWorkers, printWorkers } from "./bench-workers.ts";

const SECONDS = arg("seconds", 3);
const CONCURRENCY = arg("concurrency", 8);
const SITES = arg("sites", 1000);
const WEBHOOKS_ONLY = process.argv.includes("--webhooks");
/** `--ipam-only 1` runs the IPAM scenarios alone. */
const IPAM_ONLY = arg("ipam-only", 0) === 1;
/** `--database-only 1` runs the contended-database scenarios alone (their own service process). */
const DATABASE_ONLY = arg("database-only", 0) === 1;
/** `--workers-only 1` runs the reads by WORKERS setting alone (a service process per setting). */
const WORKERS_ONLY = arg("workers-only", 0) === 1;
/** Seconds another process holds the write lock, and clients of the mixed load, in that section. */
const LOCK_SECONDS = arg("lock-seconds", 10);
const CLIENTS = arg("clients", 50);
/** `--hostile-render 1`: `/api/status/` latency while the consumer renders a hostile webhook, alone. */
const HOSTILE_ONLY = arg("hostile-render", 0) === 1;
/** The figures of the last run, by area, kept in the repository next to the code they measure. */
const RESULTS_FILE = new URL("../bench-results.json", import.meta.url);

function keepResults(area: string, figures: Record<string, number>) {
  const all = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, "utf8")) : {};
  all[area] = { ...figures, measured: new Date().toISOString(), seconds_per_scenario: SECONDS, connections: CONCURRENCY };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

const dir = mkdtempSync(join(tmpdir(), "inventory-bench-"));
const service = await startNodeService({
  LIBSQL_URL: `file:${dir}/bench.db`,
  PORT: "0",
  SUPERUSER_NAME: "bench",
  SUPERUSER_PASSWORD: "bench-password",
  SUPERUSER_API_TOKEN: BENCH_TOKEN,
  MAX_PAGE_SIZE: "1000",
});
const call = apiClient(service.url, CONCURRENCY);

/** Runs `make()` on CONCURRENCY connections for SECONDS; returns requests/s and latency percentiles. */
async function measure(name: string, make: (i: number) => [string, string, unknown?], seconds = SECONDS) {
  const { count, failures, pct } = await runLoad(call, CONCURRENCY, seconds, make);
  const rate = count / seconds;
  console.log(
    `${name.padEnd(44)} ${rate.toFixed(0).padStart(7)} req/s   p50 ${pct(50).padStart(7)} ms   p95 ${pct(95).padStart(7)} ms${failures ? `   ${failures} failed` : ""}`,
  );
  return { rate, p50: Number(pct(50)), p95: Number(pct(95)) };
}

/** One timed request, for big operations. */
async function once(name: string, method: string, path: string, body?: unknown) {
  const t = performance.now();
  const reply = await call(method, path, body);
  const ms = performance.now() - t;
  console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms   status ${reply.status}`);
  return ms;
}

/**
 * The two webhook figures, each measured on its own:
 * - the request path: a single-object POST with its event rule disabled and enabled, in short
 *   alternating rounds compared pair by pair (the shared machine's drift falls on both alike), with the in-process
 *   consumer paused during each timed round and drained between rounds, so the figure is the
 *   write and its outbox row, not deliveries competing for the same process; the same POST with
 *   the consumer delivering meanwhile is printed for reference;
 * - the consumer: deliveries per second from the in-process consumer to a local receiver, timed
 *   from resuming it over runs queued beforehand until none is left queued.
 */
async function benchWebhooks() {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const queue = service.deliveries;
  let k = 0;
  const post = (): [string, string, unknown] => {
    const n = `${++k}-${Math.floor(Math.random() * 1e12)}`;
    return ["POST", "/api/tenancy/tenants/", { name: `t${n}`, slug: `t-${n}` }];
  };
  try {
    const webhook = JSON.parse((await call("POST", "/api/extras/webhooks/", { name: "bench", payload_url: target })).text);
    const rule = JSON.parse(
      (
        await call("POST", "/api/extras/event-rules/", {
          name: "bench",
          object_types: ["tenancy.tenant"],
          event_types: ["object_created"],
          action_object_type: "extras.webhook",
          action_object_id: webhook.id,
        })
      ).text,
    );
    // Short alternating rounds, compared pair by pair: the machine's load drifts between pairs,
    // hardly within one, and the median pair ignores the odd disturbed one.
    const PAIRS = 10;
    const per = Math.max(0.5, SECONDS / 4);
    const rounds: { on: boolean; rate: number; cpu: number; p50: number }[] = [];
    for (let r = 0; r < PAIRS; r++) {
      for (const enabled of r % 2 ? [true, false] : [false, true]) {
        await call("PATCH", `/api/extras/event-rules/${rule.id}/`, { enabled });
        queue.pause();
        const cpu = process.cpuUsage();
        const load = await runLoad(call, CONCURRENCY, per, post);
        const used = process.cpuUsage(cpu);
        queue.resume();
        await drained();
        // Client and server share this process; the client's part is the same in both.
        rounds.push({ on: enabled, rate: load.count / per, cpu: (used.user + used.system) / 1000 / load.count, p50: Number(load.pct(50)) });
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const of = (on: boolean, key: "rate" | "cpu" | "p50") => rounds.filter((x) => x.on === on).map((x) => x[key]);
    const pairs = (key: "rate" | "cpu") => of(true, key).map((on, i) => on / of(false, key)[i]);
    for (const [name, on] of [
      ["rule disabled", false],
      ["matching rule", true],
    ] as const) {
      console.log(
        `${`POST /api/tenancy/tenants/ (${name})`.padEnd(44)} ${median(of(on, "rate")).toFixed(0).padStart(7)} req/s   p50 ${median(of(on, "p50")).toFixed(1).padStart(7)} ms   ${median(of(on, "cpu")).toFixed(3)} CPU ms/request   (medians of ${PAIRS} rounds, consumer paused)`,
      );
    }
    const added = 100 * (1 - median(pairs("rate")));
    const addedCpu = 100 * (median(pairs("cpu")) - 1);
    const offRate = median(of(false, "rate"));
    await call("PATCH", `/api/extras/event-rules/${rule.id}/`, { enabled: true });
    const delivering = await measure("POST tenants (matching rule, consumer busy)", post);
    await drained();

    // The consumer alone: runs queued while it is paused, then timed from resume until drained.
    queue.pause();
    const n = 3000;
    for (let start = 0; start < n; start += 1000) {
      const made = await call(
        "POST",
        "/api/tenancy/tenants/",
        Array.from({ length: 1000 }, (_, i) => ({ name: `c${start + i}`, slug: `c-${start + i}` })),
      );
      if (made.status !== 201) throw new Error(`bulk create failed: ${made.text.slice(0, 300)}`);
    }
    const t = performance.now();
    const before = service.db.stats.roundTrips;
    queue.resume();
    await drained();
    const deliveries = n / ((performance.now() - t) / 1000);
    const calls = service.db.stats.roundTrips - before;
    const [sent] = await service.db.batch(
      [{ sql: "SELECT count(*) AS n FROM extras_webhookdelivery WHERE status = 'succeeded'", parameters: [] }],
      "read",
    );
    console.log(
      `${"deliveries from the in-process consumer".padEnd(44)} ${deliveries.toFixed(0).padStart(7)} /s     (${n} queued, then sent to a local receiver in ${calls} database calls; ${sent.rows[0].n} succeeded in all)`,
    );
    return { added, addedCpu, busy: (100 * (offRate - delivering.rate)) / offRate, rate: deliveries };
  } finally {
    receiver.close();
  }
}

/** Waits until no delivery is left queued (or waiting for its conditions). */
async function drained() {
  for (;;) {
    const [left] = await service.db.batch(
      [{ sql: "SELECT count(*) AS n FROM extras_webhookdelivery WHERE status IN ('queued', 'pending')", parameters: [] }],
      "read",
    );
    if (Number(left.rows[0].n) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every scenario, the IPAM ones last. */
async function benchEverything() {
  const t0 = performance.now();
  await fillSites(call, SITES);
  console.log(
    `Filled ${SITES} sites (bulk POST of 500, with region, tenant and tag by attributes) in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  console.log(`Node ${process.versions.node}, embedded libSQL file, ${CONCURRENCY} keep-alive connections, ${SECONDS} s per scenario\n`);
  let big = { p50: NaN };
  if (!WEBHOOKS_ONLY) {
    await measure("GET /api/ (no database)", () => ["GET", "/api/"]);
    await measure("GET /api/dcim/sites/{id}/", (i) => ["GET", `/api/dcim/sites/${(i % SITES) + 1}/`]);
    await measure("GET /api/dcim/sites/?limit=50", (i) => ["GET", `/api/dcim/sites/?limit=50&offset=${(i * 50) % SITES}`]);
    await measure("GET /api/dcim/sites/?limit=50&brief=1", () => ["GET", "/api/dcim/sites/?limit=50&brief=1"]);
    await measure("GET /api/dcim/sites/?region=europe&q=1", () => ["GET", "/api/dcim/sites/?region=europe&q=1&limit=50"]);
    big = await measure("GET /api/dcim/sites/?limit=1000", () => ["GET", "/api/dcim/sites/?limit=1000"]);
    await measure("POST /api/extras/tags/ (one object)", (i) => [
      "POST",
      "/api/extras/tags/",
      { name: `b${i}-${Math.random()}`, slug: `b${i}-${Date.now()}-${Math.floor(Math.random() * 1e9)}` },
    ]);
    await measure("PATCH /api/dcim/sites/{id}/", (i) => ["PATCH", `/api/dcim/sites/${(i % SITES) + 1}/`, { description: `d${i}` }]);
  }
  const webhooks = await benchWebhooks();
  if (!WEBHOOKS_ONLY) {
    const ids = Array.from({ length: 400 }, (_, i) => i + 1);
    const bulk = await once(
      "PATCH 400 sites in one request",
      "PATCH",
      "/api/dcim/sites/",
      ids.map((id) => ({ id, description: "bulk", status: "planned" })),
    );
    console.log("\nAgainst NetBox figures reported by users (shared/reference/ANCHORS.md, not measured here):");
    console.log(
      `  bulk PATCH of ~400 objects: NetBox 40 s (nb#6020); here ${(bulk / 1000).toFixed(2)} s, ${(40_000 / bulk).toFixed(0)}x faster`,
    );
    console.log(`  1000-object list page: NetBox 7-9 s per 1000 interfaces (nb#12546); here p50 ${big.p50} ms for 1000 sites`);
  }
  console.log(
    `\nWebhooks: a matching event rule costs a single POST's request path ${webhooks.added.toFixed(1)} % of its rate, ${webhooks.addedCpu.toFixed(1)} % more CPU`,
  );
  console.log(`  (medians of paired rounds; target at most 10 %;`);
  console.log(`  ${webhooks.busy.toFixed(1)} % while the in-process consumer delivers in the same process);`);
  console.log(`  the in-process consumer delivers ${webhooks.rate.toFixed(0)} deliveries/s to a local receiver (target at least 500/s)`);
  keepResults("ipam", await benchIpam(call, measure, once));
  await benchContendedDatabase();
  await benchWorkerSettings();
}

/** Reads with WORKERS=0, 1 and one per core, each on its own service process. */
async function benchWorkerSettings() {
  console.log("");
  const figures = await benchWorkers({ seconds: SECONDS });
  printWorkers(figures);
  keepResults("workers", Object.fromEntries(figures.flatMap((f) => Object.entries(f).map(([k, v]) => [`w${f.workers}_${k}`, v]))));
}

/** The database section: GET /api/status/ under another process's write lock and beside 50 clients. */
async function benchContendedDatabase() {
  console.log("");
  const figures = await benchDatabase({ lockSeconds: LOCK_SECONDS, loadSeconds: Math.max(3, SECONDS + 2), clients: CLIENTS });
  printDatabase(figures, LOCK_SECONDS, CLIENTS);
  keepResults("database", { ...figures });
}

try {
  if (IPAM_ONLY) keepResults("ipam", await benchIpam(call, measure, once));
  else if (DATABASE_ONLY) await benchContendedDatabase();
  else if (WORKERS_ONLY) await benchWorkerSettings();
  else if (HOSTILE_ONLY) await benchHostileRender(service, call);
  else await benchEverything();
} finally {
  call.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Benchmarks the service on this machine over loopback and prints numbers; asserts nothing about them.
 *   npm run bench [-- --seconds 3 --concurrency 8 --sites 1000]   every section below (~5 minutes)
 *   npm run bench -- --short            the service table only, 1 s per scenario (under 2 minutes; CI runs it)
 *   npm run bench -- --large            seeds 10,000 devices, 200,000 interfaces, 1,000,000 IPs ... through
 *                                       the API's bulk POSTs, then reads on it and on a set 100 times smaller
 *   npm run bench -- --webhooks         the webhook figures only
 *   npm run bench -- --ipam-only 1      the IPAM figures only (scripts/bench-ipam.ts)
 *   npm run bench -- --database-only 1  the contended-database figures only (scripts/bench-database.ts)
 *   npm run bench -- --workers-only 1   reads by WORKERS setting only (scripts/bench-workers.ts)
 *   npm run bench -- --hostile-render 1 status latency while a hostile webhook renders, alone
 * The service runs as `npm start` runs it, in its own process (`node src/node.ts`, the settings in
 * its environment, a temporary embedded database), and is driven over HTTP on 127.0.0.1 from this
 * process; only the webhook and hostile-render sections start it in this process (they pause and
 * inspect its in-process consumer). The figures go to bench-results.json by section. The run
 * fails (exit status 1) if the service does not start or answers a request of a scenario with an
 * error; it never fails because of a figure.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNodeService } from "../src/runtime/node-service.ts";
import { apiClient, arg, BENCH_TOKEN } from "./bench-client.ts";
import { benchDatabase, printDatabase } from "./bench-database.ts";
import { type Dataset, type Sizes, seedDataset } from "./bench-dataset.ts";
import { benchHostileRender } from "./bench-hostile-render.ts";
import { benchIpam } from "./bench-ipam.ts";
import { benchLarge } from "./bench-large.ts";
import {
  type Figure,
  formerScenarios,
  type Make,
  measureCeilings,
  measureLoad,
  ratioScenarios,
  readScenarios,
  row,
  TABLE_HEADER,
} from "./bench-scenarios.ts";
import { type Child, memoryOf, startServiceProcess } from "./bench-service.ts";
import { benchWebhooks } from "./bench-webhooks.ts";
import { benchWorkers, printWorkers } from "./bench-workers.ts";

const SHORT = process.argv.includes("--short");
const LARGE = process.argv.includes("--large");
const SECONDS = arg("seconds", SHORT ? 1 : LARGE ? 2 : 3);
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

/** The dataset of the service table (`npm run bench` and `--short`). */
const SIZES: Sizes = { sites: SITES, devices: 1000, interfaces: 10_000, prefixes: 500, ips: 10_000, vlans: 50, configContexts: 1 };

/** Requests of a scenario answered with an error, in all; the run fails if any. */
let failed = 0;

function keepResults(area: string, figures: Record<string, unknown>) {
  const all = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, "utf8")) : {};
  all[area] = { ...figures, measured: new Date().toISOString(), seconds_per_scenario: SECONDS, connections: CONCURRENCY };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** One timed request, for big operations; a reply other than 2xx counts as a failure. */
async function timedOnce(call: ReturnType<typeof apiClient>, name: string, method: string, path: string, body?: unknown) {
  const t = performance.now();
  const reply = await call(method, path, body);
  const ms = performance.now() - t;
  const bad = reply.status < 200 || reply.status >= 300;
  if (bad) failed++;
  console.log(
    `${name.padEnd(46)} ${ms.toFixed(1).padStart(9)} ms   status ${reply.status}${bad ? ` FAILED ${reply.text.slice(0, 200)}` : ""}`,
  );
  return ms;
}

/** A service process on a fresh temporary database; `use` gets it, its file and a client; everything goes afterwards. */
async function withService<T>(use: (service: Child, file: string, call: ReturnType<typeof apiClient>) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "inventory-bench-"));
  const file = join(dir, "bench.db");
  const service = await startServiceProcess(file);
  const call = apiClient(service.url, CONCURRENCY);
  try {
    return await use(service, file, call);
  } finally {
    call.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The service table: ceilings, the ratio scenarios, the other reads, writes; returns the figures. */
async function benchService() {
  return withService(async (service, file, call) => {
    const t0 = performance.now();
    const d: Dataset = await seedDataset(call, SIZES, console.log);
    console.log(
      `Seeded ${SIZES.sites} sites, ${SIZES.devices} devices, ${SIZES.interfaces} interfaces, ${SIZES.prefixes} prefixes, ${SIZES.ips} IP addresses, ` +
        `${SIZES.vlans} VLANs, ${SIZES.configContexts} config context through bulk POSTs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    console.log(
      `Node ${process.versions.node}; the service as \`npm start\` runs it (pid ${service.pid}, embedded libSQL file), ` +
        `${CONCURRENCY} keep-alive connections, ${SECONDS} s per scenario\n`,
    );
    const ratio = ratioScenarios(d);
    const reads = readScenarios(d);
    const former = formerScenarios(d);
    // Warm-up: every read scenario a few times, so no row pays for the first compile of its statements.
    for (const s of [...ratio, ...reads, ...former.slice(0, 2)]) for (let i = 0; i < 5; i++) await call(...s.make(i));

    const ceilings = await measureCeilings(file, CONCURRENCY, SECONDS);
    console.log(TABLE_HEADER);
    console.log(row("ceiling: hello (constant JSON)", ceilings.hello, ceilings));
    console.log(row("ceiling: point (one select by primary key)", ceilings.point, ceilings));
    const figures: Record<string, Figure> = {};
    const measure = async (key: string, name: string, make: Make) => {
      const f = await measureLoad(call, service.pid, CONCURRENCY, SECONDS, make);
      figures[key] = f;
      failed += f.failures;
      console.log(row(name, f, ceilings));
      return f;
    };
    for (const s of [...ratio, ...reads, ...former]) await measure(s.key, s.name, s.make);
    const ratios = {
      "api_root/hello": figures.api_root.rate / ceilings.hello.rate,
      "site_detail/point": figures.site_detail.rate / ceilings.point.rate,
      "site_list_50/point": figures.site_list_50.rate / ceilings.point.rate,
      "brief_list_50/point": figures.brief_list_50.rate / ceilings.point.rate,
    };
    console.log(
      `\nratios: ${Object.entries(ratios)
        .map(([k, v]) => `${k} ${v.toFixed(3)}`)
        .join(" | ")}`,
    );
    console.log("");
    const bulkPatch = await timedOnce(
      call,
      "PATCH 400 devices in one request",
      "PATCH",
      "/api/dcim/devices/",
      d.deviceIds.slice(0, 400).map((id) => ({ id, description: "bulk", status: "planned" })),
    );
    const bulkPost = await timedOnce(
      call,
      "POST 1,000 IP addresses in one request",
      "POST",
      "/api/ipam/ip-addresses/",
      Array.from({ length: 1000 }, (_, k) => ({ address: `10.250.${Math.floor(k / 250)}.${(k % 250) + 1}/24` })),
    );
    const memory = memoryOf(service.pid);
    if (memory)
      console.log(`${"service RSS now / peak (VmRSS / VmHWM)".padEnd(46)} ${memory.rss.toFixed(0)} / ${memory.peak.toFixed(0)} MB`);
    console.log("\nAgainst NetBox figures reported by users (shared/reference/ANCHORS.md, not measured here):");
    console.log(
      `  bulk PATCH of ~400 objects: NetBox 40 s (nb#6020); here ${(bulkPatch / 1000).toFixed(2)} s, ${(40_000 / bulkPatch).toFixed(0)}x faster`,
    );
    console.log(
      `  1000-object list page: NetBox 7-9 s per 1000 interfaces (nb#12546); here p50 ${figures.interfaces_page_1000.p50} ms for 1000 interfaces`,
    );
    console.log(
      `  GraphQL devices with interfaces and their addresses: NetBox 4.2.9 1.2-1.7 s for 500 devices (issue 19); here p50 ${figures.graphql_devices_nested.p50} ms for ${Math.min(1000, d.deviceIds.length)} devices with their interfaces, addresses and link peers`,
    );
    const flat: Record<string, number> = {};
    for (const [k, f] of Object.entries({ hello: ceilings.hello, point: ceilings.point, ...figures })) {
      flat[`${k}_rate`] = Math.round(f.rate);
      flat[`${k}_p50_ms`] = f.p50;
      flat[`${k}_p99_ms`] = f.p99;
      if (!Number.isNaN(f.rss)) flat[`${k}_rss_mb`] = Math.round(f.rss);
    }
    keepResults(SHORT ? "service_short" : "service", {
      ratios: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, Number(v.toFixed(3))])),
      ...flat,
      bulk_patch_400_devices_ms: r1(bulkPatch),
      bulk_post_1000_ips_ms: r1(bulkPost),
      ...(memory ? { service_rss_mb: Math.round(memory.rss), service_peak_rss_mb: Math.round(memory.peak) } : {}),
      dataset: SIZES,
    });
  });
}

/** The IPAM section on its own service process (it seeds 100,000 addresses of its own). */
async function benchIpamSection() {
  await withService(async (service, _file, call) => {
    const measure = async (name: string, make: Make) => {
      const f = await measureLoad(call, service.pid, CONCURRENCY, SECONDS, make);
      failed += f.failures;
      console.log(row(name, f));
      return f;
    };
    keepResults("ipam", await benchIpam(call, measure, (name, method, path, body) => timedOnce(call, name, method, path, body)));
  });
}

/** A service in this process, for the sections that reach into its consumer. */
async function withInProcessService<T>(
  use: (service: Awaited<ReturnType<typeof startNodeService>>, call: ReturnType<typeof apiClient>) => Promise<T>,
) {
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
  try {
    return await use(service, call);
  } finally {
    call.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchWebhookSection() {
  console.log("\nWebhooks (service in the bench process, so the section can pause its consumer):");
  const webhooks = await withInProcessService((service, call) =>
    benchWebhooks(service, call, SECONDS, CONCURRENCY, async (name, make) => {
      const f = await measureLoad(call, process.pid, CONCURRENCY, SECONDS, make);
      console.log(row(name, f));
      return f;
    }),
  );
  console.log(
    `Webhooks: a matching event rule costs a single POST's request path ${webhooks.added.toFixed(1)} % of its rate, ${webhooks.addedCpu.toFixed(1)} % more CPU`,
  );
  console.log(`  (medians of paired rounds; target at most 10 %;`);
  console.log(`  ${webhooks.busy.toFixed(1)} % while the in-process consumer delivers in the same process);`);
  console.log(`  the in-process consumer delivers ${webhooks.rate.toFixed(0)} deliveries/s to a local receiver (target at least 500/s)`);
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

const started = performance.now();
if (IPAM_ONLY) await benchIpamSection();
else if (DATABASE_ONLY) await benchContendedDatabase();
else if (WORKERS_ONLY) await benchWorkerSettings();
else if (HOSTILE_ONLY) await withInProcessService((service, call) => benchHostileRender(service, call));
else if (WEBHOOKS_ONLY) await benchWebhookSection();
else if (LARGE) {
  const dataIndex = process.argv.indexOf("--data");
  const large = await benchLarge({
    seconds: SECONDS,
    connections: CONCURRENCY,
    scale: arg("scale", 1),
    dataDir: dataIndex > 0 ? process.argv[dataIndex + 1] : undefined,
  });
  failed += large.failures;
  keepResults("large", large.results);
} else {
  await benchService();
  if (!SHORT) {
    await benchIpamSection();
    await benchWebhookSection();
    await benchContendedDatabase();
    await benchWorkerSettings();
  }
}
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed) {
  console.error(`${failed} requests of the scenarios were answered with an error`);
  process.exitCode = 1;
}

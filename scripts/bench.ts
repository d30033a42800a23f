/**
 * Benchmarks the Node service on this machine over loopback and prints numbers; asserts nothing.
 *   npm run bench [-- --seconds 3 --concurrency 8 --sites 1000]
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

const SECONDS = arg("seconds", 3);
const CONCURRENCY = arg("concurrency", 8);
const SITES = arg("sites", 1000);
/** `--ipam-only 1` runs the IPAM scenarios alone. */
const IPAM_ONLY = arg("ipam-only", 0) === 1;
/** The figures of the last run, by area, kept in the repository next to the code they measure. */
const RESULTS_FILE = new URL("../bench-results.json", import.meta.url);

function keepResults(area: string, figures: Record<string, number>) {
  const all = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, "utf8")) : {};
  all[area] = { ...figures, measured: new Date().toISOString(), seconds_per_scenario: SECONDS, connections: CONCURRENCY };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

const dir = mkdtempSync(join(tmpdir(), "inventory-bench-"));
const service = await startNodeService({
  LIBSQL_URL: `file:${dir}/bench.db`, PORT: "0", SUPERUSER_NAME: "bench", SUPERUSER_PASSWORD: "bench-password", SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: "1000",
});
const call = apiClient(service.url, CONCURRENCY);

/** Runs `make()` on CONCURRENCY connections for SECONDS; returns requests/s and latency percentiles. */
async function measure(name: string, make: (i: number) => [string, string, unknown?], seconds = SECONDS) {
  const { count, failures, pct } = await runLoad(call, CONCURRENCY, seconds, make);
  const rate = count / seconds;
  console.log(`${name.padEnd(44)} ${rate.toFixed(0).padStart(7)} req/s   p50 ${pct(50).padStart(7)} ms   p95 ${pct(95).padStart(7)} ms${failures ? `   ${failures} failed` : ""}`);
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
 * The two webhook figures: a single-object POST without and with a matching event rule (the rule
 * adds the outbox row; the in-process consumer then sends it to a local receiver, in the same
 * process), and deliveries per second from the in-process consumer to that receiver.
 */
async function benchWebhooks() {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const post = (tag: string) => (i: number): [string, string, unknown] =>
    ["POST", "/api/tenancy/tenants/", { name: `${tag}${i}-${Math.random()}`, slug: `${tag}${i}-${Math.floor(Math.random() * 1e12)}` }];
  try {
    const without = await measure("POST /api/tenancy/tenants/ (no event rule)", post("a"));
    const webhook = JSON.parse((await call("POST", "/api/extras/webhooks/", { name: "bench", payload_url: target })).text);
    await call("POST", "/api/extras/event-rules/", {
      name: "bench", object_types: ["tenancy.tenant"], event_types: ["object_created"], action_object_type: "extras.webhook", action_object_id: webhook.id,
    });
    const withRule = await measure("POST /api/tenancy/tenants/ (matching rule)", post("b"));
    await drained();
    const n = 3000;
    const t = performance.now();
    for (let start = 0; start < n; start += 1000) {
      await call("POST", "/api/tenancy/tenants/", Array.from({ length: 1000 }, (_, k) => ({ name: `c${start + k}`, slug: `c-${start + k}` })));
    }
    await drained();
    const rate = n / ((performance.now() - t) / 1000);
    console.log(`${"deliveries from the in-process consumer".padEnd(44)} ${rate.toFixed(0).padStart(7)} /s     (${n}, bulk-created, to a local receiver)`);
    return { added: (100 * (without.rate - withRule.rate)) / without.rate, rate };
  } finally {
    receiver.close();
  }
}

/** Waits until no delivery is left queued. */
async function drained() {
  for (;;) {
    const [left] = await service.db.batch([{ sql: "SELECT count(*) AS n FROM extras_webhookdelivery WHERE status = 'queued'", parameters: [] }], "read");
    if (Number(left.rows[0].n) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every scenario, the IPAM ones last. */
async function benchEverything() {
  const t0 = performance.now();
  await fillSites(call, SITES);
  console.log(`Filled ${SITES} sites (bulk POST of 500, with region, tenant and tag by attributes) in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  console.log(`Node ${process.versions.node}, embedded libSQL file, ${CONCURRENCY} keep-alive connections, ${SECONDS} s per scenario\n`);
  await measure("GET /api/ (no database)", () => ["GET", "/api/"]);
  await measure("GET /api/dcim/sites/{id}/", (i) => ["GET", `/api/dcim/sites/${(i % SITES) + 1}/`]);
  await measure("GET /api/dcim/sites/?limit=50", (i) => ["GET", `/api/dcim/sites/?limit=50&offset=${(i * 50) % SITES}`]);
  await measure("GET /api/dcim/sites/?limit=50&brief=1", () => ["GET", "/api/dcim/sites/?limit=50&brief=1"]);
  await measure("GET /api/dcim/sites/?region=europe&q=1", () => ["GET", "/api/dcim/sites/?region=europe&q=1&limit=50"]);
  const big = await measure("GET /api/dcim/sites/?limit=1000", () => ["GET", "/api/dcim/sites/?limit=1000"]);
  await measure("POST /api/extras/tags/ (one object)", (i) => ["POST", "/api/extras/tags/", { name: `b${i}-${Math.random()}`, slug: `b${i}-${Date.now()}-${Math.floor(Math.random() * 1e9)}` }]);
  await measure("PATCH /api/dcim/sites/{id}/", (i) => ["PATCH", `/api/dcim/sites/${(i % SITES) + 1}/`, { description: `d${i}` }]);
  const webhooks = await benchWebhooks();
  const ids = Array.from({ length: 400 }, (_, i) => i + 1);
  const bulk = await once("PATCH 400 sites in one request", "PATCH", "/api/dcim/sites/", ids.map((id) => ({ id, description: "bulk", status: "planned" })));
  console.log("\nAgainst NetBox figures reported by users (shared/reference/ANCHORS.md, not measured here):");
  console.log(`  bulk PATCH of ~400 objects: NetBox 40 s (nb#6020); here ${(bulk / 1000).toFixed(2)} s, ${(40_000 / bulk).toFixed(0)}x faster`);
  console.log(`  1000-object list page: NetBox 7-9 s per 1000 interfaces (nb#12546); here p50 ${big.p50} ms for 1000 sites`);
  console.log(`\nWebhooks: a matching event rule adds ${webhooks.added.toFixed(1)} % to a single POST (target at most 10 %);`);
  console.log(`  the in-process consumer delivers ${webhooks.rate.toFixed(0)} deliveries/s to a local receiver (target at least 500/s)`);
  keepResults("ipam", await benchIpam(call, measure, once));
}

try {
  if (IPAM_ONLY) keepResults("ipam", await benchIpam(call, measure, once));
  else await benchEverything();
} finally {
  call.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

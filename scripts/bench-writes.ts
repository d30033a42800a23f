/**
 * The bulk writes alone, in one process (no HTTP, no app threads): the app's fetch over a fresh
 * embedded file database, as a profile sees them. Seeds sites, devices, interfaces, prefixes and
 * addresses through bulk POSTs, then times, `--runs N` times each (median, min), a bulk POST of
 * 1,000 IP addresses (one in ten assigned to an interface, as `--large` seeds them), a bulk POST
 * of 1,000 interfaces, a bulk POST of 1,000 devices and a bulk PATCH of 400 devices.
 * `node --cpu-prof scripts/bench-writes.ts` profiles it (the database thread gets its own profile).
 * `--ips N` and `--interfaces N` set how many addresses and interfaces are there before (default 20,000 and 10,000).
 * `SHOW_STATEMENTS=1` prints each timed write's batches: how many statements of each kind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import { nativeDatabase } from "../src/runtime/native-database.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";
import { packageAssets } from "../src/runtime/package-assets.ts";
import { folderFiles } from "../src/runtime/folder-files.ts";
import { nodeHmac } from "../src/runtime/node-hmac.ts";
import { arg } from "./bench-client.ts";

const TOKEN = "be".repeat(20);
const runs = arg("runs", 7);
const before = arg("ips", 20_000);
const interfacesBefore = arg("interfaces", 10_000);
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1].split(",") : null;

const dir = mkdtempSync(join(tmpdir(), "inventory-bench-writes-"));
const config = parseConfig({
  LIBSQL_URL: `file:${join(dir, "bench.db")}`,
  SUPERUSER_NAME: "bench",
  SUPERUSER_PASSWORD: "bench-password",
  SUPERUSER_API_TOKEN: TOKEN,
  MAX_PAGE_SIZE: "1000",
});
const db = nativeDatabase(join(dir, "bench.db"), { readers: 1 });
if (process.env.SHOW_STATEMENTS) {
  const batch = db.batch.bind(db);
  (db as { batch: typeof db.batch }).batch = async (statements, mode) => {
    if (showing) {
      const kinds = new Map<string, number>();
      for (const s of statements) kinds.set(s.sql.slice(0, 160), (kinds.get(s.sql.slice(0, 160)) ?? 0) + 1);
      console.log(`-- ${mode} batch of ${statements.length}`);
      for (const [k, n] of kinds) console.log(`   ${String(n).padStart(5)} x ${k.replace(/\s+/g, " ")}`);
    }
    return batch(statements, mode);
  };
}
let showing = false;
const app = await createApp({ config, secretKey: "bench-secret-key-0123456789abcdef0123456789", runtime: "bench", hmac: nodeHmac });
await app.prepare(db, loadMigrations());
const files = folderFiles(join(dir, "media"));
const pending: Promise<unknown>[] = [];

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await app.fetch(
    new Request(`http://bench.test${path}`, {
      method,
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { db, files, clientAddress: "127.0.0.1", waitUntil: (p) => void pending.push(p), enqueue: async () => {}, assets: packageAssets },
  );
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

const settle = async () => {
  while (pending.length) await Promise.all(pending.splice(0));
};

const t0 = performance.now();
await call("POST", "/api/tenancy/tenants/", [{ name: "Acme", slug: "acme" }]);
const sites = await call(
  "POST",
  "/api/dcim/sites/",
  Array.from({ length: 100 }, (_, i) => ({ name: `Site ${i}`, slug: `site-${i}`, status: "active" })),
);
const manufacturer = (await call("POST", "/api/dcim/manufacturers/", { name: "Bench", slug: "bench" })).id;
const deviceType = (await call("POST", "/api/dcim/device-types/", { manufacturer, model: "BN-48", slug: "bn-48" })).id;
const role = (await call("POST", "/api/dcim/device-roles/", { name: "Access", slug: "access" })).id;
const tenant = (await call("GET", "/api/tenancy/tenants/?slug=acme")).results[0].id;
const deviceIds: number[] = [];
let devicesMade = 0;
const devices = (n: number) =>
  Array.from({ length: n }, () => {
    const i = devicesMade++;
    return { name: `device-${i}`, device_type: deviceType, role, site: sites[i % sites.length].id, tenant, status: "active" };
  });
for (let k = 0; k < 2; k++) for (const d of await call("POST", "/api/dcim/devices/", devices(1000))) deviceIds.push(d.id);
const interfaceIds: number[] = [];
let interfacesMade = 0;
const interfaces = (n: number) =>
  Array.from({ length: n }, () => {
    const i = interfacesMade++;
    return { device: deviceIds[i % deviceIds.length], name: `eth${Math.floor(i / deviceIds.length)}`, type: "1000base-t" };
  });
for (let k = 0; k < interfacesBefore / 1000; k++)
  for (const d of await call("POST", "/api/dcim/interfaces/", interfaces(1000))) interfaceIds.push(d.id);
await call(
  "POST",
  "/api/ipam/prefixes/",
  Array.from({ length: 64 }, (_, n) => ({ prefix: `10.${n}.0.0/16`, status: "active" })),
);
let ipsMade = 0;
const ips = (n: number) =>
  Array.from({ length: n }, () => {
    const i = ipsMade++;
    const h = i % 62_500;
    const address = `10.${Math.floor(i / 62_500)}.${Math.floor(h / 250)}.${(h % 250) + 1}/24`;
    return i % 10 === 0
      ? { address, assigned_object_type: "dcim.interface", assigned_object_id: interfaceIds[(i / 10) % interfaceIds.length] }
      : { address };
  });
for (let k = 0; k < before / 1000; k++) await call("POST", "/api/ipam/ip-addresses/", ips(1000));
await settle();
console.log(`timed from ${process.hrtime.bigint() / 1000n} (monotonic us)`);
console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})`);

if (process.env.TIME_STATEMENTS) await new Promise((r) => setTimeout(r, Number(process.env.TIME_STATEMENTS) + 500));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(name: string, make: (run: number) => [string, string, unknown]) {
  if (only && !only.some((o) => name.includes(o))) return;
  const times: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < runs; run++) {
    const [method, path, body] = make(run);
    await settle();
    showing = run === 0 && Boolean(process.env.SHOW_STATEMENTS);
    const t = performance.now();
    const c = process.cpuUsage();
    await call(method, path, body);
    const used = process.cpuUsage(c);
    cpus.push((used.user + used.system) / 1000);
    showing = false;
    times.push(performance.now() - t);
  }
  await settle();
  console.log(
    `${name.padEnd(34)} median ${median(times).toFixed(0).padStart(5)} ms   min ${Math.min(...times)
      .toFixed(0)
      .padStart(5)} ms   cpu median ${median(cpus).toFixed(0).padStart(5)} ms   (${times.map((t) => t.toFixed(0)).join(" ")})`,
  );
}

await time("POST 1,000 IP addresses", () => ["POST", "/api/ipam/ip-addresses/", ips(1000)]);
await time("POST 1,000 interfaces", () => ["POST", "/api/dcim/interfaces/", interfaces(1000)]);
await time("POST 1,000 devices", () => ["POST", "/api/dcim/devices/", devices(1000)]);
await time("PATCH 400 devices", (run) => [
  "PATCH",
  "/api/dcim/devices/",
  deviceIds.slice(0, 400).map((id) => ({ id, description: `bulk ${run}`, status: run % 2 ? "active" : "planned" })),
]);
db.close();
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });

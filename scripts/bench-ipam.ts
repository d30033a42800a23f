/**
 * The IPAM scenarios of `npm run bench`, on a dataset the benchmark seeds through the API: a /16
 * holding 60,000 addresses, 40,000 more spread over other /24s (100,000 in all), and 10,000
 * prefixes. The machine is shared and noisy, so the figures that matter are ratios between
 * scenarios measured side by side, not absolute times.
 */
import type { apiClient } from "./bench-client.ts";

type Call = ReturnType<typeof apiClient>;
type Measure = (name: string, make: (i: number) => [string, string, unknown?]) => Promise<{ rate: number; p50: number }>;
type Once = (name: string, method: string, path: string, body?: unknown) => Promise<number>;

const CHUNK = 5000;

/** `10.<a>.<b>.<c>` for the n-th host counted from `10.<a>.0.1`. */
const host = (a: number, n: number) => `10.${a}.${Math.floor((n + 1) / 256)}.${(n + 1) % 256}`;

async function post(call: Call, path: string, body: unknown): Promise<any> {
  const reply = await call("POST", path, body);
  if (reply.status !== 201) throw new Error(`seeding ${path}: ${reply.text.slice(0, 300)}`);
  return JSON.parse(reply.text);
}

async function seed(call: Call): Promise<{ full: number; empty: number }> {
  const [container, full, empty] = await post(call, "/api/ipam/prefixes/", [
    { prefix: "10.0.0.0/8", status: "container" },
    { prefix: "10.1.0.0/16" },
    { prefix: "10.2.0.0/24" },
  ]);
  void container;
  // 60,000 addresses filling the /16 from its start.
  for (let start = 0; start < 60_000; start += CHUNK) {
    await post(
      call,
      "/api/ipam/ip-addresses/",
      Array.from({ length: CHUNK }, (_, k) => ({ address: `${host(1, start + k)}/16` })),
    );
  }
  // 40,000 more, 100 in each of 400 /24s of 10.3.0.0/15.
  for (let start = 0; start < 40_000; start += CHUNK) {
    await post(
      call,
      "/api/ipam/ip-addresses/",
      Array.from({ length: CHUNK }, (_, k) => {
        const i = start + k;
        return { address: `10.${3 + Math.floor(i / 100 / 256)}.${Math.floor(i / 100) % 256}.${(i % 100) + 1}/24` };
      }),
    );
  }
  // 10,000 prefixes: /24s of 10.64.0.0/10, with a /16 above every 256 of them.
  const prefixes = Array.from({ length: 9_960 }, (_, i) => ({ prefix: `10.${64 + Math.floor(i / 256)}.${i % 256}.0/24` }));
  const parents = Array.from({ length: 39 }, (_, i) => ({ prefix: `10.${64 + i}.0.0/16`, status: "container" }));
  await post(call, "/api/ipam/prefixes/", parents);
  for (let start = 0; start < prefixes.length; start += CHUNK)
    await post(call, "/api/ipam/prefixes/", prefixes.slice(start, start + CHUNK));
  return { full: full.id, empty: empty.id };
}

/** Seeds, measures, prints; returns the figures for the results file. */
export async function benchIpam(call: Call, measure: Measure, once: Once): Promise<Record<string, number>> {
  const t0 = performance.now();
  const { full, empty } = await seed(call);
  console.log(
    `\nIPAM: seeded 100,000 IP addresses and 10,002 prefixes through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const emptyIps = await measure("GET available-ips (empty /24)", () => ["GET", `/api/ipam/prefixes/${empty}/available-ips/`]);
  const fullIps = await measure("GET available-ips (/16 holding 60,000)", () => ["GET", `/api/ipam/prefixes/${full}/available-ips/`]);
  const parent = await measure("GET ip-addresses/?parent=<a /24>", (i) => ["GET", `/api/ipam/ip-addresses/?parent=10.1.${i % 200}.0/24`]);
  const prefixes = await measure("GET prefixes/?limit=50 (_depth, children)", (i) => [
    "GET",
    `/api/ipam/prefixes/?limit=50&offset=${(i * 50) % 9_000}`,
  ]);
  const within = await measure("GET prefixes/?within=<a /16>", (i) => [
    "GET",
    `/api/ipam/prefixes/?within=10.${64 + (i % 39)}.0.0/16&limit=50`,
  ]);
  const bulk = await once(
    "POST 1,000 IP addresses in one request",
    "POST",
    "/api/ipam/ip-addresses/",
    Array.from({ length: 1000 }, (_, k) => ({ address: `10.200.${Math.floor(k / 250)}.${(k % 250) + 1}/24` })),
  );
  const ratio = fullIps.p50 / emptyIps.p50;
  console.log(`  available-ips p50 ratio, /16 holding 60,000 vs empty /24: ${ratio.toFixed(2)} (target at most 3)`);
  console.log(`  bulk POST of 1,000 IP addresses: ${(bulk / 1000).toFixed(2)} s (target under 0.5 s)`);
  return {
    available_ips_empty_p50_ms: emptyIps.p50,
    available_ips_full_p50_ms: fullIps.p50,
    available_ips_p50_ratio: Number(ratio.toFixed(2)),
    ip_parent_filter_p50_ms: parent.p50,
    prefix_list_p50_ms: prefixes.p50,
    prefix_within_p50_ms: within.p50,
    bulk_post_1000_ips_ms: Number(bulk.toFixed(1)),
  };
}

/**
 * The HTTP scenarios of `npm run bench`, measured from the bench process against the service in
 * its own process, with the two ceilings beside them: `hello` (a constant JSON answer) and `point`
 * (one primary-key select of a site row through the native driver), both on node:http
 * (scripts/bench-ceiling.ts). Each scenario runs for a fixed time on a fixed number of keep-alive
 * connections; a row gives req/s, p50, p99, its ratio to each ceiling and the service's highest
 * RSS meanwhile.
 */
import { apiClient, runLoad } from "./bench-client.ts";
import type { Dataset } from "./bench-dataset.ts";
import { type Child, sampleRss, startCeiling } from "./bench-service.ts";

type Call = ReturnType<typeof apiClient>;
export type Make = (i: number) => [string, string, unknown?];

export interface Scenario {
  readonly key: string;
  readonly name: string;
  readonly make: Make;
}

export interface Figure {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly rss: number;
  readonly failures: number;
}

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]) => xs[random(xs.length)];

/** The four scenarios of the ratio harness (shared/bench/ratios.mjs), with its URLs. */
export function ratioScenarios(d: Dataset): Scenario[] {
  const pages = Math.max(1, Math.floor(d.siteIds.length / 50));
  return [
    { key: "api_root", name: "GET /api/", make: () => ["GET", "/api/"] },
    { key: "site_detail", name: "GET /api/dcim/sites/{id}/", make: () => ["GET", `/api/dcim/sites/${pick(d.siteIds)}/`] },
    {
      key: "site_list_50",
      name: "GET /api/dcim/sites/?limit=50&offset=",
      make: () => ["GET", `/api/dcim/sites/?limit=50&offset=${50 * random(pages)}`],
    },
    {
      key: "brief_list_50",
      name: "GET /api/dcim/sites/?brief=1&limit=50&offset=",
      make: () => ["GET", `/api/dcim/sites/?brief=1&limit=50&offset=${50 * random(pages)}`],
    },
  ];
}

/** The read scenarios on devices, interfaces and IPAM (paged ones cycle through the whole set). */
export function readScenarios(d: Dataset): Scenario[] {
  const devices = d.deviceIds.length;
  const interfaces = d.interfaceIds.length;
  return [
    { key: "device_detail", name: "GET /api/dcim/devices/{id}/", make: () => ["GET", `/api/dcim/devices/${pick(d.deviceIds)}/`] },
    {
      key: "devices_by_site",
      name: "GET devices/?site_id=&limit=50",
      make: () => ["GET", `/api/dcim/devices/?site_id=${pick(d.deviceSiteIds)}&limit=50`],
    },
    {
      key: "devices_by_tenant",
      name: "GET devices/?tenant=&limit=50&offset=",
      make: (i) => ["GET", `/api/dcim/devices/?tenant=${d.tenantSlug}&limit=50&offset=${(i * 50) % devices}`],
    },
    { key: "devices_brief_50", name: "GET devices/?brief=1&limit=50", make: () => ["GET", "/api/dcim/devices/?brief=1&limit=50"] },
    {
      key: "interfaces_by_device",
      name: "GET interfaces/?device_id=",
      make: () => ["GET", `/api/dcim/interfaces/?device_id=${pick(d.deviceIds)}`],
    },
    {
      key: "interfaces_page_1000",
      name: "GET interfaces/?limit=1000&offset=",
      make: (i) => ["GET", `/api/dcim/interfaces/?limit=1000&offset=${(i * 1000) % interfaces}`],
    },
    {
      key: "ips_by_parent",
      name: "GET ip-addresses/?parent=<a /16>&limit=50",
      make: () => ["GET", `/api/ipam/ip-addresses/?parent=${pick(d.ipNetworks)}&limit=50`],
    },
    {
      // NetBox 4.2.9 answered the same shape without peers for 500 devices in 1.2-1.7 s on this machine (issue 19).
      key: "graphql_devices_nested",
      name: "POST /graphql/ devices>interfaces>IPs,peers",
      make: () => ["POST", "/graphql/", { query: nestedDevices(d, 1000, 0) }],
    },
    {
      // The same query a page of 100 devices at a time: its answer is the same size on every set.
      key: "graphql_devices_nested_100",
      name: "POST /graphql/ the same, 100 devices&offset",
      make: (i) => ["POST", "/graphql/", { query: nestedDevices(d, 100, (i * 100) % devices) }],
    },
    {
      key: "available_ips",
      name: "GET prefixes/{/16}/available-ips/?limit=10",
      make: () => ["GET", `/api/ipam/prefixes/${d.fullPrefixId}/available-ips/?limit=10`],
    },
  ];
}

/** GraphQL's nested query: `limit` devices of the tenant from `offset`, each with its interfaces, their IPs and link peers. */
const nestedDevices = (d: Dataset, limit: number, offset: number) =>
  `{ device_list(filters: {tenant: ["${d.tenantSlug}"]}, pagination: {limit: ${limit}, offset: ${offset}}) { name site { name } interfaces { name ip_addresses { address } link_peers { ... on InterfaceType { name device { name } } } } } }`;

/** The scenarios the benchmark measured before the harness ran the service in its own process. */
export function formerScenarios(d: Dataset): Scenario[] {
  return [
    {
      key: "sites_region_q",
      name: "GET sites/?region=europe&q=1&limit=50",
      make: () => ["GET", "/api/dcim/sites/?region=europe&q=1&limit=50"],
    },
    { key: "sites_page_1000", name: "GET /api/dcim/sites/?limit=1000", make: () => ["GET", "/api/dcim/sites/?limit=1000"] },
    {
      key: "post_tag",
      name: "POST /api/extras/tags/ (one object)",
      make: (i) => ["POST", "/api/extras/tags/", { name: `b${i}-${Math.random()}`, slug: `b${i}-${Date.now()}-${random(1e9)}` }],
    },
    {
      key: "patch_site",
      name: "PATCH /api/dcim/sites/{id}/",
      make: (i) => ["PATCH", `/api/dcim/sites/${d.siteIds[i % d.siteIds.length]}/`, { description: `d${i}` }],
    },
    {
      key: "patch_device",
      name: "PATCH /api/dcim/devices/{id}/",
      make: (i) => ["PATCH", `/api/dcim/devices/${d.deviceIds[i % d.deviceIds.length]}/`, { description: `d${i}` }],
    },
  ];
}

/** Runs `make` on `connections` connections of `call` for `seconds`, sampling the RSS of `pid`. */
export async function measureLoad(call: Call, pid: number, connections: number, seconds: number, make: Make): Promise<Figure> {
  const rss = sampleRss(pid);
  const load = await runLoad(call, connections, seconds, make);
  return {
    rate: load.count / seconds,
    p50: Number(load.pct(50)),
    p99: Number(load.pct(99)),
    rss: rss.stop(),
    failures: load.failures,
  };
}

/** The two ceilings, each its own process; `file` is the service's database (read-only). */
export async function measureCeilings(file: string, connections: number, seconds: number) {
  const figures: Record<"hello" | "point", Figure> = {} as never;
  for (const mode of ["hello", "point"] as const) {
    const server: Child = await startCeiling(mode, mode === "point" ? file : undefined);
    const call = apiClient(server.url, connections);
    try {
      for (let i = 0; i < 100; i++) await call("GET", "/");
      figures[mode] = await measureLoad(call, server.pid, connections, seconds, () => ["GET", "/"]);
    } finally {
      call.close();
      await server.stop();
    }
  }
  return figures;
}

const MB = (x: number) => (Number.isNaN(x) ? "-" : x.toFixed(0));

export const TABLE_HEADER = `${"scenario".padEnd(46)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"x hello".padStart(8)} ${"x point".padStart(8)} ${"RSS MB".padStart(7)}`;

export function row(name: string, f: Figure, ceilings?: Record<"hello" | "point", Figure>) {
  const x = (c: Figure | undefined) => (c ? (f.rate / c.rate).toFixed(3) : "-");
  return (
    `${name.padEnd(46)} ${f.rate.toFixed(0).padStart(7)} ${f.p50.toFixed(1).padStart(8)} ${f.p99.toFixed(1).padStart(8)} ` +
    `${x(ceilings?.hello).padStart(8)} ${x(ceilings?.point).padStart(8)} ${MB(f.rss).padStart(7)}${f.failures ? `   ${f.failures} FAILED` : ""}`
  );
}

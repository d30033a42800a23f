/**
 * The benchmark's dataset, seeded through the API's bulk paths (bulk POSTs of lists of up to 1,000
 * objects, the engine's bulk write path): two regions, a tenant, two tags, `sites` sites, one
 * manufacturer, device type and role, `devices` devices (with the tenant, ten per site on the first
 * devices/10 sites), `interfaces` interfaces spread over the devices, `prefixes` prefixes (/16s and
 * /24s below them), `ips` IP addresses (62,500 per /16 at most, one in ten assigned to an
 * interface), `vlans` VLANs and `configContexts` config contexts (all apply to the devices' role).
 */
import { type apiClient, fillSites } from "./bench-client.ts";

type Call = ReturnType<typeof apiClient>;

export interface Sizes {
  readonly sites: number;
  readonly devices: number;
  readonly interfaces: number;
  readonly prefixes: number;
  readonly ips: number;
  readonly vlans: number;
  readonly configContexts: number;
}

/** What the scenarios refer to, and how long each model took to seed. */
export interface Dataset {
  readonly sizes: Sizes;
  readonly siteIds: number[];
  /** Sites holding devices. */
  readonly deviceSiteIds: number[];
  readonly deviceIds: number[];
  readonly interfaceIds: number[];
  readonly tenantSlug: string;
  /** The /16s holding IP addresses, as `10.n.0.0/16`, and the id of the first one's prefix. */
  readonly ipNetworks: string[];
  readonly fullPrefixId: number;
  /** Seconds per model (bulk requests of `chunk`), and in all. */
  readonly seconds: Record<string, number>;
  /** Milliseconds per request of `chunk` objects by model: [elapsed time over requests (requests overlap), slowest]. */
  readonly perRequest: Record<string, [number, number]>;
}

export const IPS_PER_16 = 62_500;
const CHUNK = 1000;
/**
 * Bulk requests of one model sent at a time: two keep both cores of a small machine busy (one
 * request's parsing, probes and rendering on an app thread while another's transaction runs on
 * the writer), as a client loading data in parallel would.
 */
const IN_FLIGHT = 2;

/** One bulk POST; the created objects' ids when `ids` is set (the reply is parsed only then). */
async function post(call: Call, path: string, body: unknown[], ids: boolean): Promise<number[]> {
  const reply = await call("POST", path, body);
  if (reply.status !== 201) throw new Error(`seeding ${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
  return ids ? (JSON.parse(reply.text) as { id: number }[]).map((o) => o.id) : [];
}

async function one(call: Call, path: string, body: unknown): Promise<number> {
  const reply = await call("POST", path, body);
  if (reply.status !== 201) throw new Error(`seeding ${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
  return (JSON.parse(reply.text) as { id: number }).id;
}

export async function seedDataset(
  call: Call,
  sizes: Sizes,
  progress: (line: string) => void = () => {},
  chunk = CHUNK,
  inFlight = IN_FLIGHT,
): Promise<Dataset> {
  const seconds: Record<string, number> = {};
  const perRequest: Record<string, [number, number]> = {};
  /**
   * Bulk-POSTs `count` objects made by `make(i)` to `path` in requests of `chunk`, `inFlight` at a
   * time (so one request's validation overlaps another's transaction); the ids when `ids`, in
   * the order of the objects.
   */
  const bulk = async (name: string, path: string, count: number, make: (i: number) => unknown, ids = true) => {
    const t0 = performance.now();
    const chunks: number[][] = [];
    let slowest = 0;
    let requests = 0;
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const start = next;
        next += chunk;
        const batch = Array.from({ length: Math.min(chunk, count - start) }, (_, k) => make(start + k));
        const t = performance.now();
        chunks[start / chunk] = await post(call, path, batch, ids);
        slowest = Math.max(slowest, performance.now() - t);
        requests++;
        if (requests % 100 === 0)
          progress(`  ${name}: ${requests * chunk} of ${count} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    const s = (performance.now() - t0) / 1000;
    seconds[name] = s;
    if (requests) perRequest[name] = [(s * 1000) / requests, slowest];
    return chunks.flat();
  };
  const t0 = performance.now();

  let t = performance.now();
  await fillSites(call, sizes.sites, chunk);
  seconds.sites = (performance.now() - t) / 1000;
  // fillSites made the sites in order on a fresh database.
  const siteIds = Array.from({ length: sizes.sites }, (_, i) => i + 1);
  const deviceSiteIds = siteIds.slice(0, Math.max(1, Math.ceil(sizes.devices / 10)));

  const manufacturer = await one(call, "/api/dcim/manufacturers/", { name: "Bench Networks", slug: "bench-networks" });
  const deviceType = await one(call, "/api/dcim/device-types/", { manufacturer, model: "BN-48", slug: "bn-48" });
  const role = await one(call, "/api/dcim/device-roles/", { name: "Access", slug: "access" });
  const tenant = (JSON.parse((await call("GET", "/api/tenancy/tenants/?slug=acme")).text) as { results: { id: number }[] }).results[0].id;

  const deviceIds = await bulk("devices", "/api/dcim/devices/", sizes.devices, (i) => ({
    name: `device-${i}`,
    device_type: deviceType,
    role,
    site: deviceSiteIds[Math.floor(i / 10) % deviceSiteIds.length],
    tenant,
    status: "active",
  }));
  const interfaceIds = await bulk("interfaces", "/api/dcim/interfaces/", sizes.interfaces, (i) => ({
    device: deviceIds[i % deviceIds.length],
    name: `eth${Math.floor(i / deviceIds.length)}`,
    type: "1000base-t",
  }));

  // Prefixes: /16s 10.n.0.0/16 first (at least one per /16 of addresses), then /24s filling them in order.
  const ipNets = Math.max(1, Math.ceil(sizes.ips / IPS_PER_16));
  const sixteens = Math.min(sizes.prefixes, Math.max(ipNets, Math.ceil(sizes.prefixes / 257)));
  t = performance.now();
  const sixteenIds = await bulk("prefixes /16", "/api/ipam/prefixes/", sixteens, (n) => ({ prefix: `10.${n}.0.0/16`, status: "active" }));
  await bulk(
    "prefixes /24",
    "/api/ipam/prefixes/",
    sizes.prefixes - sixteens,
    (j) => ({ prefix: `10.${Math.floor(j / 256)}.${j % 256}.0/24`, status: "active" }),
    false,
  );
  seconds.prefixes = (performance.now() - t) / 1000;
  delete seconds["prefixes /16"];
  perRequest.prefixes = perRequest["prefixes /24"] ?? perRequest["prefixes /16"];
  delete perRequest["prefixes /16"];
  delete perRequest["prefixes /24"];
  delete seconds["prefixes /24"];

  // IP addresses: 62,500 per /16 from 10.n.0.1 on (250 per /24); one in ten on an interface.
  await bulk(
    "ip addresses",
    "/api/ipam/ip-addresses/",
    sizes.ips,
    (i) => {
      const n = Math.floor(i / IPS_PER_16);
      const h = i % IPS_PER_16;
      const address = `10.${n}.${Math.floor(h / 250)}.${(h % 250) + 1}/24`;
      return i % 10 === 0 && interfaceIds.length
        ? { address, assigned_object_type: "dcim.interface", assigned_object_id: interfaceIds[(i / 10) % interfaceIds.length] }
        : { address };
    },
    false,
  );
  await bulk("vlans", "/api/ipam/vlans/", sizes.vlans, (i) => ({ vid: 1 + (i % 4094), name: `vlan-${i}`, status: "active" }), false);
  await bulk(
    "config contexts",
    "/api/extras/config-contexts/",
    sizes.configContexts,
    (i) => ({ name: `context-${i}`, weight: 1000 + i, roles: [role], data: { [`key${i}`]: i, ntp: [`10.0.0.${(i % 250) + 1}`] } }),
    false,
  );
  seconds.total = (performance.now() - t0) / 1000;
  return {
    sizes,
    siteIds,
    deviceSiteIds,
    deviceIds,
    interfaceIds,
    tenantSlug: "acme",
    ipNetworks: Array.from({ length: ipNets }, (_, n) => `10.${n}.0.0/16`),
    fullPrefixId: sixteenIds[0],
    seconds,
    perRequest,
  };
}

/** What both benchmarks share: their flags, a keep-alive HTTP client for the API, and the fixture. */
import { Agent, request } from "node:http";

/** `--name N` from the command line, or the fallback. */
export const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

export const BENCH_TOKEN = "be".repeat(20);

/** A client for the API at `url`, sending the benchmark's token over at most `sockets` connections. */
export function apiClient(url: string, sockets: number) {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const call = (method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method,
          path,
          agent,
          headers: { Authorization: `Token ${BENCH_TOKEN}`, "Content-Type": "application/json" },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  };
  /** Closes the kept-alive connections, so the process can end. */
  return Object.assign(call, { close: () => agent.destroy() });
}

/** Two regions, a tenant, two tags and `sites` sites referring to them by attributes, in bulk POSTs of `chunk`. */
export async function fillSites(call: ReturnType<typeof apiClient>, sites: number, chunk = 500): Promise<void> {
  await call("POST", "/api/dcim/regions/", [
    { name: "Europe", slug: "europe" },
    { name: "Asia", slug: "asia" },
  ]);
  await call("POST", "/api/tenancy/tenants/", [{ name: "Acme", slug: "acme" }]);
  await call("POST", "/api/extras/tags/", [
    { name: "Prod", slug: "prod" },
    { name: "Edge", slug: "edge" },
  ]);
  for (let start = 0; start < sites; start += chunk) {
    const batch = Array.from({ length: Math.min(chunk, sites - start) }, (_, k) => {
      const i = start + k;
      return {
        name: `Site ${i}`,
        slug: `site-${i}`,
        region: { slug: i % 2 ? "europe" : "asia" },
        tenant: { slug: "acme" },
        tags: [{ slug: "prod" }],
        status: "active",
      };
    });
    const reply = await call("POST", "/api/dcim/sites/", batch);
    if (reply.status !== 201) throw new Error(`fill failed: ${reply.text.slice(0, 300)}`);
  }
}

/** A scenario's result: requests, failures, and latency percentiles in ms. */
export interface Load {
  readonly count: number;
  readonly failures: number;
  pct(p: number): string;
}

/** Sends `make(i)` requests on `connections` connections for `seconds`, timing each. */
export async function runLoad(
  call: ReturnType<typeof apiClient>,
  connections: number,
  seconds: number,
  make: (i: number) => [string, string, unknown?],
): Promise<Load> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  let n = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const [method, path, body] = make(n++);
        const t = performance.now();
        const reply = await call(method, path, body);
        latencies.push(performance.now() - t);
        if (reply.status >= 400) failures++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const count = latencies.length;
  return { count, failures, pct: (p) => latencies[Math.min(count - 1, Math.floor((p / 100) * count))].toFixed(1) };
}

/**
 * Benchmarks the remote database path on this machine over loopback and prints numbers; asserts nothing.
 *   npm run bench:remote [-- --seconds 2 --concurrency 1 --sites 300]
 * Starts scripts/libsql-server.ts on a temporary file and the Node service on it through
 * @libsql/client over HTTP (the path Turso and the Worker take), fills it, then measures each
 * scenario for a fixed time with a fixed number of keep-alive connections, counting the HTTP
 * requests the libSQL server receives per API request. Both run in this process, on 127.0.0.1 only:
 * a real remote database adds its network round trip to every one of those requests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLibsqlServer } from "./libsql-server.ts";
import { startNodeService } from "../src/runtime/node-service.ts";
import { apiClient, arg, BENCH_TOKEN, fillSites, runLoad } from "./bench-client.ts";

const SECONDS = arg("seconds", 2);
const CONCURRENCY = arg("concurrency", 1);
const SITES = arg("sites", 300);

const dir = mkdtempSync(join(tmpdir(), "inventory-bench-remote-"));
const libsql = await startLibsqlServer({ path: join(dir, "bench.db"), host: "127.0.0.1", port: 0 });
const service = await startNodeService({
  LIBSQL_URL: libsql.url,
  HOST: "127.0.0.1",
  PORT: "0",
  SECRET_KEY: "bench-secret-key-0123456789abcdef0123456789",
  SUPERUSER_NAME: "bench",
  SUPERUSER_PASSWORD: "bench-password",
  SUPERUSER_API_TOKEN: BENCH_TOKEN,
  MAX_PAGE_SIZE: "1000",
});
const call = apiClient(service.url, CONCURRENCY);

/**
 * Runs `make()` on CONCURRENCY connections for SECONDS, after one warm-up request; prints requests/s,
 * latency percentiles, and the libSQL server's HTTP requests (and the statements) per API request.
 */
async function measure(name: string, make: (i: number) => [string, string, unknown?]) {
  const [method, path, body] = make(-1);
  await call(method, path, body);
  const before = { http: libsql.requests.pipeline + libsql.requests.other, statements: service.db.stats.statements };
  const { count, failures, pct } = await runLoad(call, CONCURRENCY, SECONDS, make);
  const http = (libsql.requests.pipeline + libsql.requests.other - before.http) / count;
  const statements = (service.db.stats.statements - before.statements) / count;
  console.log(
    `${name.padEnd(34)} ${(count / SECONDS).toFixed(0).padStart(6)} req/s   p50 ${pct(50).padStart(6)} ms   p95 ${pct(95).padStart(6)} ms` +
      `   ${http.toFixed(2).padStart(5)} db HTTP/req   ${statements.toFixed(1).padStart(5)} stmts/req${failures ? `   ${failures} failed` : ""}`,
  );
}

try {
  const t0 = performance.now();
  await fillSites(call, SITES, SITES);
  console.log(
    `Filled ${SITES} sites (one bulk POST, region, tenant and tag by attributes) in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  console.log(
    `Node ${process.versions.node}, @libsql/client over HTTP to scripts/libsql-server.ts at ${libsql.url}, ${CONCURRENCY} keep-alive connection(s), ${SECONDS} s per scenario`,
  );
  console.log("db HTTP/req: HTTP requests the libSQL server received per API request, after one warm-up request\n");
  const site = (i: number) => (((i % SITES) + SITES) % SITES) + 1;
  await measure("GET /api/dcim/sites/{id}/", (i) => ["GET", `/api/dcim/sites/${site(i)}/`]);
  await measure("GET /api/dcim/sites/?limit=50", (i) => ["GET", `/api/dcim/sites/?limit=50&offset=${((site(i) - 1) * 50) % SITES}`]);
  await measure("POST /api/dcim/sites/ (one object)", (i) => [
    "POST",
    "/api/dcim/sites/",
    {
      name: `New ${i}-${Date.now()}`,
      slug: `new-${i}-${Date.now()}`,
      region: { slug: "europe" },
      tenant: { slug: "acme" },
      tags: [{ slug: "edge" }],
    },
  ]);
  await measure("PATCH /api/dcim/sites/ (100 objects)", (i) => [
    "PATCH",
    "/api/dcim/sites/",
    Array.from({ length: 100 }, (_, k) => ({ id: site(i * 100 + k), description: `bulk ${i}`, status: i % 2 ? "planned" : "active" })),
  ]);
  const { pipeline, other } = libsql.requests;
  console.log(`\nThe libSQL server received ${pipeline} POST /v2/pipeline and ${other} other HTTP requests in all (set-up included).`);
} finally {
  call.close();
  await service.close();
  await libsql.close();
  rmSync(dir, { recursive: true, force: true });
}

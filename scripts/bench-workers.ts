/**
 * What the app threads buy (WORKERS): the same reads against a service started as `npm start`
 * does, in its own process, with WORKERS=0 (requests served on the HTTP thread), 1 and one per
 * core; for each, req/s and p50 of a site detail and a page of 50 sites on 16 connections, and
 * the p99 of GET /api/status/ while 16 clients read pages of 1,000 sites.
 * Runs alone as `node scripts/bench-workers.ts [--seconds 3]` or as a section of `npm run bench`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient, arg, fillSites, runLoad } from "./bench-client.ts";
import { pct, probeStatus, startService } from "./bench-database.ts";

export interface WorkersFigures {
  readonly workers: number;
  readonly detail_rate: number;
  readonly detail_p50: number;
  readonly list50_rate: number;
  readonly list50_p50: number;
  readonly page1000_rate: number;
  readonly page1000_status_p99: number;
}

const SITES = 1000;
const CONNECTIONS = 16;

async function measureWith(root: string, workers: number, seconds: number): Promise<WorkersFigures> {
  const dir = mkdtempSync(join(tmpdir(), "inventory-bench-workers-"));
  const service = await startService(root, join(dir, "bench.db"), { WORKERS: String(workers) });
  const call = apiClient(service.url, CONNECTIONS + 2);
  try {
    await fillSites(call, SITES);
    for (let i = 0; i < 200; i++) await call("GET", `/api/dcim/sites/${(i % SITES) + 1}/`); // warm up every thread
    const detail = await runLoad(call, CONNECTIONS, seconds, (i) => ["GET", `/api/dcim/sites/${(i % SITES) + 1}/`]);
    const list = await runLoad(call, CONNECTIONS, seconds, (i) => ["GET", `/api/dcim/sites/?limit=50&offset=${(i * 50) % SITES}`]);
    const status: number[] = [];
    let done = false;
    const [pages] = await Promise.all([
      runLoad(call, CONNECTIONS, seconds, () => ["GET", "/api/dcim/sites/?limit=1000"]).finally(() => (done = true)),
      probeStatus(call, () => done, status),
    ]);
    status.sort((a, b) => a - b);
    const r = (x: number) => Math.round(x * 10) / 10;
    return {
      workers,
      detail_rate: Math.round(detail.count / seconds),
      detail_p50: Number(detail.pct(50)),
      list50_rate: Math.round(list.count / seconds),
      list50_p50: Number(list.pct(50)),
      page1000_rate: r(pages.count / seconds),
      page1000_status_p99: r(pct(status, 99)),
    };
  } finally {
    call.close();
    await new Promise<void>((resolve) => (service.child.once("exit", () => resolve()), service.child.kill("SIGTERM")));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One service per setting, one after the other: 0, 1 and one app thread per core. */
export async function benchWorkers(options: { root?: string; seconds?: number } = {}): Promise<WorkersFigures[]> {
  const root = options.root ?? fileURLToPath(new URL("..", import.meta.url));
  const settings = [...new Set([0, 1, availableParallelism()])];
  const figures: WorkersFigures[] = [];
  for (const workers of settings) figures.push(await measureWith(root, workers, options.seconds ?? 3));
  return figures;
}

export function printWorkers(figures: readonly WorkersFigures[]) {
  const base = figures.find((f) => f.workers === 1) ?? figures[0];
  console.log(`Reads on ${CONNECTIONS} connections by WORKERS (0: served on the HTTP thread); x: against WORKERS=1`);
  console.log("WORKERS   site detail req/s (p50)   50 sites req/s (p50)   1,000 sites req/s   status p99 beside them");
  for (const f of figures) {
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    console.log(
      `${String(f.workers).padStart(7)}   ${`${f.detail_rate} (${f.detail_p50} ms) ${x(f.detail_rate, base.detail_rate)}`.padEnd(24)}` +
        `${`${f.list50_rate} (${f.list50_p50} ms) ${x(f.list50_rate, base.list50_rate)}`.padEnd(23)}` +
        `${`${f.page1000_rate} ${x(f.page1000_rate, base.page1000_rate)}`.padEnd(20)}${f.page1000_status_p99} ms`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printWorkers(await benchWorkers({ seconds: arg("seconds", 3) }));
}

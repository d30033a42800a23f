/**
 * `npm run bench -- --large`: how the reads grow with the data. Seeds, through the API's bulk POSTs
 * (1,000 objects a request), 10,000 devices (on 1,000 sites), 200,000 interfaces, 1,000,000 IP
 * addresses, 50,000 prefixes, 5,000 VLANs and 100 config contexts into one service process, and a
 * set 100 times smaller into another, then runs the same read scenarios on both and prints, per
 * scenario, p50 small, p50 large and their growth (target at most 2x), the seeding time (target
 * under 3 minutes) and the service's peak RSS under load on the large set (target under 300 MB).
 * `--scale 0.1` scales both sets down (to try the harness quickly).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiClient } from "./bench-client.ts";
import { type Dataset, type Sizes, seedDataset } from "./bench-dataset.ts";
import { type Figure, measureLoad, ratioScenarios, readScenarios, type Scenario } from "./bench-scenarios.ts";
import { memoryOf, startServiceProcess } from "./bench-service.ts";

export const LARGE: Sizes = {
  sites: 1000,
  devices: 10_000,
  interfaces: 200_000,
  prefixes: 50_000,
  ips: 1_000_000,
  vlans: 5_000,
  configContexts: 100,
};

const scaled = (s: Sizes, k: number): Sizes =>
  Object.fromEntries(Object.entries(s).map(([name, n]) => [name, Math.max(1, Math.round(n * k))])) as unknown as Sizes;

interface Run {
  readonly dataset: Dataset;
  readonly figures: Record<string, Figure>;
  /** The highest RSS sampled during the scenarios, and VmHWM at the end (seeding included), in MB. */
  readonly loadPeakRss: number;
  readonly peakRss: number;
  readonly fileMb: number;
}

const describe = (s: Sizes) =>
  `${s.sites} sites, ${s.devices} devices, ${s.interfaces} interfaces, ${s.prefixes} prefixes, ${s.ips} IP addresses, ${s.vlans} VLANs, ${s.configContexts} config contexts`;

async function runOn(label: string, sizes: Sizes, seconds: number, connections: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "inventory-bench-large-"));
  const file = join(dir, "bench.db");
  const service = await startServiceProcess(file);
  const call = apiClient(service.url, connections);
  try {
    console.log(`\n${label}: seeding ${describe(sizes)} through bulk POSTs of 1,000 ...`);
    const dataset = await seedDataset(call, sizes, console.log);
    const s = dataset.seconds;
    console.log(`${label}: seeded in ${s.total.toFixed(1)} s`);
    for (const [model, [mean, slowest]] of Object.entries(dataset.perRequest)) {
      console.log(
        `  ${model.padEnd(16)} ${s[model].toFixed(1).padStart(7)} s   ${mean.toFixed(0).padStart(5)} ms per request of 1,000 (slowest ${slowest.toFixed(0)} ms)`,
      );
    }
    const scenarios: Scenario[] = [...ratioScenarios(dataset), ...readScenarios(dataset)];
    for (const sc of scenarios) for (let i = 0; i < 5; i++) await call(...sc.make(i));
    const figures: Record<string, Figure> = {};
    let loadPeakRss = Number.NaN;
    for (const sc of scenarios) {
      const f = await measureLoad(call, service.pid, connections, seconds, sc.make);
      figures[sc.key] = f;
      if (!(f.rss <= loadPeakRss)) loadPeakRss = f.rss;
      console.log(
        `  ${sc.name.padEnd(46)} ${f.rate.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms${f.failures ? `   ${f.failures} FAILED` : ""}`,
      );
    }
    const memory = memoryOf(service.pid);
    let fileMb = 0;
    for (const suffix of ["", "-wal"]) {
      try {
        fileMb += statSync(file + suffix).size / 2 ** 20;
      } catch {
        // no WAL file
      }
    }
    return { dataset, figures, loadPeakRss, peakRss: memory?.peak ?? Number.NaN, fileMb };
  } finally {
    call.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLarge(options: { seconds: number; connections: number; scale: number }) {
  const largeSizes = scaled(LARGE, options.scale);
  const smallSizes = scaled(LARGE, options.scale / 100);
  const small = await runOn("small", smallSizes, options.seconds, options.connections);
  const large = await runOn("large", largeSizes, options.seconds, options.connections);

  console.log(`\nGrowth from the small set to the large one (${options.connections} connections, ${options.seconds} s per scenario):`);
  console.log(
    `${"scenario".padEnd(46)} ${"p50 small".padStart(10)} ${"p50 large".padStart(10)} ${"growth".padStart(7)} ${"p99 large".padStart(10)} ${"req/s large".padStart(12)}`,
  );
  const scenarios: Record<string, Record<string, number>> = {};
  let failures = 0;
  for (const sc of [...ratioScenarios(large.dataset), ...readScenarios(large.dataset)]) {
    const a = small.figures[sc.key];
    const b = large.figures[sc.key];
    failures += a.failures + b.failures;
    const growth = b.p50 / a.p50;
    scenarios[sc.key] = {
      p50_small_ms: a.p50,
      p50_large_ms: b.p50,
      growth: Number(growth.toFixed(2)),
      p99_small_ms: a.p99,
      p99_large_ms: b.p99,
      rate_small: Math.round(a.rate),
      rate_large: Math.round(b.rate),
    };
    console.log(
      `${sc.name.padEnd(46)} ${a.p50.toFixed(1).padStart(10)} ${b.p50.toFixed(1).padStart(10)} ${`${growth.toFixed(2)}x`.padStart(7)}${growth > 2 ? "!" : " "}` +
        `${b.p99.toFixed(1).padStart(10)} ${b.rate.toFixed(0).padStart(12)}`,
    );
  }
  const seed = large.dataset.seconds.total;
  console.log(`\n(! marks a growth above the 2x target)`);
  console.log(
    `Seeding the large set through the API: ${seed.toFixed(0)} s (target under 180 s); the small set: ${small.dataset.seconds.total.toFixed(1)} s`,
  );
  console.log(
    `Service RSS on the large set: peak under the read load ${large.loadPeakRss.toFixed(0)} MB (target under 300 MB); ` +
      `peak over its life, seeding included (VmHWM) ${large.peakRss.toFixed(0)} MB; on the small set ${small.loadPeakRss.toFixed(0)} MB`,
  );
  console.log(`Database file of the large set: ${large.fileMb.toFixed(0)} MB`);
  const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(v.toFixed(1))]));
  return {
    failures,
    results: {
      sizes_large: largeSizes,
      sizes_small: smallSizes,
      seed_seconds_large: Number(seed.toFixed(1)),
      seed_seconds_small: Number(small.dataset.seconds.total.toFixed(1)),
      seed_seconds_by_model_large: round(large.dataset.seconds),
      seed_ms_per_request_of_1000_large: Object.fromEntries(
        Object.entries(large.dataset.perRequest).map(([k, [mean]]) => [k, Math.round(mean)]),
      ),
      peak_rss_under_load_mb_large: Math.round(large.loadPeakRss),
      peak_rss_mb_large_with_seeding: Math.round(large.peakRss),
      peak_rss_under_load_mb_small: Math.round(small.loadPeakRss),
      database_mb_large: Math.round(large.fileMb),
      scenarios,
    },
  };
}

/**
 * `npm run bench -- --large`: how the reads grow with the data. Seeds, through the API's bulk POSTs
 * (1,000 objects a request), 10,000 devices (on 1,000 sites), 200,000 interfaces, 1,000,000 IP
 * addresses, 50,000 prefixes, 5,000 VLANs and 100 config contexts into one service process, and a
 * set 100 times smaller (but for its sites: 50, a page of the site scenarios) into another, then runs the same read scenarios on both and prints, per
 * scenario, p50 small, p50 large and their growth (target at most 2x), the seeding time (target
 * under 3 minutes) and the service's peak RSS under load on the large set (target under 300 MB).
 * `--scale 0.1` scales both sets down (to try the harness quickly); `--data DIR` keeps the seeded
 * sets in DIR and reuses them in later runs with the same sizes (seeding the large set takes long).
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiClient } from "./bench-client.ts";
import { type Dataset, type Sizes, seedDataset } from "./bench-dataset.ts";
import { type Make, measureLoad, ratioScenarios, readScenarios } from "./bench-scenarios.ts";
import { type Child, memoryOf, startServiceProcess } from "./bench-service.ts";

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

/** A service process on a seeded set, kept running until `close()`. */
interface Prepared {
  readonly label: string;
  readonly dataset: Dataset;
  readonly service: Child;
  readonly call: ReturnType<typeof apiClient>;
  readonly file: string;
  /** Whether the set was seeded by an earlier run (`--data DIR`) rather than by this one. */
  readonly reused: boolean;
  /** The seeding service's VmHWM in MB (NaN when reused or off Linux). */
  readonly seedingPeakRss: number;
  close(): Promise<void>;
}

const describe = (s: Sizes) =>
  `${s.sites} sites, ${s.devices} devices, ${s.interfaces} interfaces, ${s.prefixes} prefixes, ${s.ips} IP addresses, ${s.vlans} VLANs, ${s.configContexts} config contexts`;

/**
 * Starts a service on the set `label` and seeds it, or, with `dataDir`, reuses the set an earlier
 * run seeded there with the same sizes (and keeps what it seeds there for later runs).
 */
async function prepare(label: string, sizes: Sizes, connections: number, dataDir?: string): Promise<Prepared> {
  const dir = dataDir ? join(dataDir, label) : mkdtempSync(join(tmpdir(), `inventory-bench-${label}-`));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "bench.db");
  const meta = join(dir, "dataset.json");
  const kept = dataDir && existsSync(meta) ? (JSON.parse(readFileSync(meta, "utf8")) as Dataset) : undefined;
  const reused = kept !== undefined && JSON.stringify(kept.sizes) === JSON.stringify(sizes);
  if (!reused) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  let service = await startServiceProcess(file);
  let call = apiClient(service.url, connections);
  const close = async () => {
    call.close();
    await service.stop();
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    let dataset: Dataset;
    let seedingPeakRss = Number.NaN;
    if (reused) {
      dataset = kept;
      console.log(
        `\n${label}: reusing ${describe(sizes)} seeded by an earlier run in ${dir} (in ${dataset.seconds.total.toFixed(1)} s then)`,
      );
    } else {
      console.log(`\n${label}: seeding ${describe(sizes)} through bulk POSTs of 1,000 ...`);
      dataset = await seedDataset(call, sizes, console.log);
      if (dataDir) writeFileSync(meta, JSON.stringify(dataset));
      seedingPeakRss = memoryOf(service.pid)?.peak ?? Number.NaN;
      console.log(
        `${label}: seeded in ${dataset.seconds.total.toFixed(1)} s; the service's peak RSS while seeding ${seedingPeakRss.toFixed(0)} MB`,
      );
      // The reads are measured on a service started afresh on the seeded file, as after a restart,
      // so its RSS is that of the reads, not what the bulk writes left behind.
      call.close();
      await service.stop();
      service = await startServiceProcess(file);
      call = apiClient(service.url, connections);
    }
    for (const [model, [mean, slowest]] of Object.entries(dataset.perRequest)) {
      console.log(
        `  ${model.padEnd(16)} ${dataset.seconds[model].toFixed(1).padStart(7)} s   ${mean.toFixed(0).padStart(5)} ms per request of 1,000, two in flight (slowest ${slowest.toFixed(0)} ms)`,
      );
    }
    for (const sc of [...ratioScenarios(dataset), ...readScenarios(dataset)]) for (let i = 0; i < 5; i++) await call(...sc.make(i));
    // Read the file once, so both sets are measured from the page cache as a running service's
    // are: a scenario paging through the large set otherwise measured its first reads from disk
    // (GraphQL's 100-device pages: 33 req/s on a 2 s run, 65-70 on the next ones).
    await pipeline(createReadStream(file), new Writable({ write: (_chunk, _encoding, done) => done() }));
    return { label, dataset, service, call, file, reused, seedingPeakRss, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The mean size in KB of a scenario's first three answers. */
async function answerKb(call: Prepared["call"], make: Make): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < 3; i++) bytes += Buffer.byteLength((await call(...make(i))).text);
  return bytes / 3 / 1024;
}

function fileMb(file: string) {
  let mb = 0;
  for (const suffix of ["", "-wal"]) if (existsSync(file + suffix)) mb += statSync(file + suffix).size / 2 ** 20;
  return mb;
}

export async function benchLarge(options: { seconds: number; connections: number; scale: number; dataDir?: string }) {
  const largeSizes = scaled(LARGE, options.scale);
  // At least a page of sites on the small set too: with 10, its 50-site pages held 10 sites.
  const smallSizes = { ...scaled(LARGE, options.scale / 100), sites: Math.min(largeSizes.sites, 50) };
  const small = await prepare("small", smallSizes, options.connections, options.dataDir);
  let large: Prepared | undefined;
  try {
    large = await prepare("large", largeSizes, options.connections, options.dataDir);
    return await measureBoth(small, large, options);
  } finally {
    await small.close();
    await large?.close();
  }
}

/** Each scenario on the small set, then at once on the large one, so the machine's drift falls on both alike. */
async function measureBoth(small: Prepared, large: Prepared, options: { seconds: number; connections: number }) {
  console.log(
    `\nEach read scenario on the small set, then on the large one (${options.connections} connections, ${options.seconds} s each):`,
  );
  console.log(
    `${"scenario".padEnd(46)} ${"p50 small".padStart(10)} ${"p50 large".padStart(10)} ${"growth".padStart(7)}  ${"KB small".padStart(9)} ${"KB large".padStart(9)} ${"per KB".padStart(7)}  ${"p99 small".padStart(10)} ${"p99 large".padStart(10)} ${"req/s small".padStart(12)} ${"req/s large".padStart(12)} ${"RSS large".padStart(10)}`,
  );
  const scenarios: Record<string, Record<string, number>> = {};
  let failures = 0;
  let loadPeakRss = Number.NaN;
  let smallPeakRss = Number.NaN;
  const smallScenarios = [...ratioScenarios(small.dataset), ...readScenarios(small.dataset)];
  const largeScenarios = [...ratioScenarios(large.dataset), ...readScenarios(large.dataset)];
  for (let k = 0; k < largeScenarios.length; k++) {
    const sc = largeScenarios[k];
    const a = await measureLoad(small.call, small.service.pid, options.connections, options.seconds, smallScenarios[k].make);
    const b = await measureLoad(large.call, large.service.pid, options.connections, options.seconds, sc.make);
    failures += a.failures + b.failures;
    if (!(b.rss <= loadPeakRss)) loadPeakRss = b.rss;
    if (!(a.rss <= smallPeakRss)) smallPeakRss = a.rss;
    const growth = b.p50 / a.p50;
    // The answers differ where the sets do (a page of 10 sites on the small set, of 50 on the large;
    // 1 config context merged into each device, or 100): growth per KB of answer is what the
    // table's size adds.
    const kbSmall = await answerKb(small.call, smallScenarios[k].make);
    const kbLarge = await answerKb(large.call, sc.make);
    const perKb = growth / (kbLarge / kbSmall);
    scenarios[sc.key] = {
      p50_small_ms: a.p50,
      p50_large_ms: b.p50,
      growth: Number(growth.toFixed(2)),
      kb_small: Number(kbSmall.toFixed(1)),
      kb_large: Number(kbLarge.toFixed(1)),
      growth_per_kb: Number(perKb.toFixed(2)),
      p99_small_ms: a.p99,
      p99_large_ms: b.p99,
      rate_small: Math.round(a.rate),
      rate_large: Math.round(b.rate),
    };
    console.log(
      `${sc.name.padEnd(46)} ${a.p50.toFixed(1).padStart(10)} ${b.p50.toFixed(1).padStart(10)} ${`${growth.toFixed(2)}x`.padStart(7)}${growth > 2 ? "!" : " "} ` +
        `${kbSmall.toFixed(1).padStart(9)} ${kbLarge.toFixed(1).padStart(9)} ${`${perKb.toFixed(2)}x`.padStart(7)}${perKb > 2 ? "!" : " "} ` +
        `${a.p99.toFixed(1).padStart(10)} ${b.p99.toFixed(1).padStart(10)} ${a.rate.toFixed(0).padStart(12)} ${b.rate.toFixed(0).padStart(12)} ${b.rss.toFixed(0).padStart(10)}` +
        `${a.failures + b.failures ? `   ${a.failures + b.failures} FAILED` : ""}`,
    );
  }
  const peakRss = memoryOf(large.service.pid)?.peak ?? Number.NaN;
  const seed = large.dataset.seconds.total;
  const databaseMb = fileMb(large.file);
  console.log(
    `\n(! marks a growth above the 2x target; KB: the mean size of the scenario's first three answers; per KB: the growth over` +
      ` that of the answer's size; RSS large: the service's highest RSS during the scenario, MB)`,
  );
  console.log(
    `Seeding the large set through the API: ${seed.toFixed(0)} s${large.reused ? " (by an earlier run)" : ""} (target under 180 s); the small set: ${small.dataset.seconds.total.toFixed(1)} s`,
  );
  console.log(
    `Service RSS on the large set: peak under the read load ${loadPeakRss.toFixed(0)} MB (target under 300 MB); ` +
      `its VmHWM ${peakRss.toFixed(0)} MB; on the small set ${smallPeakRss.toFixed(0)} MB` +
      (large.reused
        ? ""
        : `; the service that seeded the large set peaked at ${large.seedingPeakRss.toFixed(0)} MB (the reads run on one started afresh on the seeded file)`),
  );
  console.log(`Database file of the large set: ${databaseMb.toFixed(0)} MB`);
  const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(v.toFixed(1))]));
  return {
    failures,
    results: {
      sizes_large: large.dataset.sizes,
      sizes_small: small.dataset.sizes,
      seed_seconds_large: Number(seed.toFixed(1)),
      seed_seconds_small: Number(small.dataset.seconds.total.toFixed(1)),
      seed_seconds_by_model_large: round(large.dataset.seconds),
      seed_ms_per_request_of_1000_large: Object.fromEntries(
        Object.entries(large.dataset.perRequest).map(([k, [mean]]) => [k, Math.round(mean)]),
      ),
      peak_rss_under_load_mb_large: Math.round(loadPeakRss),
      peak_rss_mb_large: Math.round(peakRss),
      ...(Number.isNaN(large.seedingPeakRss) ? {} : { seeding_peak_rss_mb_large: Math.round(large.seedingPeakRss) }),
      seeded_by_earlier_run: large.reused,
      peak_rss_under_load_mb_small: Math.round(smallPeakRss),
      database_mb_large: Math.round(databaseMb),
      scenarios,
    },
  };
}

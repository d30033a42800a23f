/**
 * Settings a Node process reads only as it starts, given to the service's own process by
 * restarting it once, in place (`execve`: the same pid, arguments, standard streams and signals),
 * with those not given already. Nothing is done off Linux or where `process.execve` is missing
 * (before Node 22.15): the service then runs with Node's and glibc's defaults.
 *
 * - MALLOC_ARENA_MAX=2. glibc's malloc gives threads that allocate at once arenas of their own, up
 *   to eight per core, and memory freed stays in the arena it came from: with app threads,
 *   database threads and V8's helpers each keeping freed memory in arenas of their own, the
 *   service's RSS grew under 1,000-interface pages and GraphQL's 1.3 MB answers on the large set
 *   to a peak of 409-432 MB, against 379-403 MB with two arenas (alternating runs, the same rate
 *   within the noise). Node has no `mallopt`. A value given is kept (eight times the cores is
 *   glibc's own limit); other C libraries ignore it.
 * - `--max-semi-space-size` (V8's nursery, for the HTTP thread's isolate; app threads set theirs as
 *   they start, app-threads.ts). Left to V8, a semi-space grows to 16 MB as soon as start-up's
 *   allocations fill it, and stays: see SEMI_SPACE_MB and HTTP_THREAD_SEMI_SPACE_MB.
 * - `--max-old-space-size` for the HTTP thread where app threads serve: see HTTP_THREAD_HEAP_MB.
 *
 * A V8 flag given in NODE_OPTIONS or Node's own arguments is kept as given.
 */
import { setFlagsFromString } from "node:v8";
import { parseConfig } from "../config.ts";
import { appThreadCount } from "./local-path.ts";

const ARENAS = "2";

/**
 * Megabytes of each of an app thread's two semi-spaces (and the HTTP thread's where it serves
 * alone). Until the flag was left to each thread (leaveNurseriesToThreads), every app thread ran
 * on the HTTP thread's 2 MB whatever this said. The large benchmark's peak RSS under the read load
 * (`npm run bench -- --large`) was 289 MB with 2, 305-317 with 4 and 325 with 8 (290 with 4 once
 * long reads went as one row, one-row-read.ts); its
 * 1,000-interface pages at 8 clients had a p50 of 346 ms with 2, 288-292 with 4 and 204 with 8.
 * Service set, 4 clients: 1,000-interface pages 19.7 req/s with 2 against 30.7 with 4 (the same
 * run), 25.7-26.2 against 37.9-46.8 with 8 (alternating runs); devices by tenant within the noise.
 */
export const SEMI_SPACE_MB = 4;

/**
 * The HTTP thread's semi-spaces where app threads serve the heavy requests: its answers arrive from
 * them as moved bytes, outside its heap, and it builds only light reads' answers itself. Rotated
 * runs on the service set (16 clients): the process's VmHWM after /api/, site details and 50-site
 * pages was 262-270 MB with 8, 238-241 with 4, 221-231 with 2 and 219-230 with 1; 50-site pages,
 * served there, came to 851-995 req/s with 8, 826-911 with 2 (-4 %) and 766-881 with 1; /api/
 * and site details moved within the noise. On the large set the peak RSS under the read load went
 * from 312 to 297 MB. Without app threads the HTTP thread builds every answer: SEMI_SPACE_MB.
 */
const HTTP_THREAD_SEMI_SPACE_MB = 2;

const SEMI_SPACE_FLAG = "--max-semi-space-size";

/**
 * Megabytes of old generation the HTTP thread may grow to, where app threads serve the heavy
 * requests (it serves reads measured light, the status check and the webhook consumer). V8 grows
 * a heap whose bound is 2 GB or more by up to 4x after each collection, one bounded at 512 MB by
 * about 1.4x: on the large set under 8 clients, unbounded, the HTTP thread's heap came to 66 MB
 * and the service peaked at 393-411 MB; bounded, at 305-329 MB. The price is collections the HTTP
 * thread runs more often: in rotated runs of 50-site pages at 16 clients (mostly light reads it
 * serves itself) a request cost 601-704 us of CPU unbounded against 665-859 us bounded at 512
 * (743-1,051 at 1,024), 10-20 % fewer pages a second at saturation; site detail moved within the
 * noise. The semi-space bound cost nothing measurable there. App threads are bounded by
 * WORKER_HEAP_MB (the same 512 by default). Without app threads
 * (WORKERS=0, `:memory:`, a remote database) the HTTP thread serves every request, bulk writes
 * included, and its heap is left to V8: there, a heap past its bound would end the process, not a
 * thread that is replaced.
 */
const HTTP_THREAD_HEAP_MB = 512;

const OLD_SPACE_FLAG = "--max-old-space-size";

/** Whether the service will run app threads, read from its settings as it will read them. */
function servesOnAppThreads(env: NodeJS.ProcessEnv): boolean {
  try {
    const config = parseConfig(env);
    return appThreadCount(config.LIBSQL_URL, config.WORKERS) > 0;
  } catch {
    return false; // a bad setting: the service refuses to start, naming it (node-main.ts)
  }
}

/**
 * Set in the restarted process's environment when the restart gave it the semi-space flag (not
 * the user), so that the restarted process knows the flag is the HTTP thread's alone.
 */
const OWN_SEMI_SPACE = "INVENTORY_OWN_SEMI_SPACE";

/**
 * V8 reads `--max-semi-space-size` for every isolate it creates, and the flag wins over a worker's
 * own `resourceLimits`: with the HTTP thread's 2 MB, every app thread ran on 2 MB semi-spaces, not
 * SEMI_SPACE_MB, and each 1.3 MB page of interfaces was promoted and collected again as old. Once
 * the HTTP thread's isolate is made, the flag is cleared, and each thread's young generation is
 * what it asks for as it starts (app threads, database threads, the render thread). A page of
 * 1,000 interfaces on a worker with 24 MB of young generation took 48-58 ms of CPU with the flag
 * at 2 and 36-39 without (alternating runs).
 */
function leaveNurseriesToThreads(): void {
  if (process.env[OWN_SEMI_SPACE] === undefined) return;
  delete process.env[OWN_SEMI_SPACE];
  setFlagsFromString(`${SEMI_SPACE_FLAG}=0`);
}

export function applyStartSettings(): void {
  leaveNurseriesToThreads();
  if (process.platform !== "linux") return;
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== "function") return;
  const env = { ...process.env };
  const execArgv = [...process.execArgv];
  // V8 takes its flags with dashes or underscores.
  const given = (flag: string) =>
    [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) => arg.replaceAll("_", "-").startsWith(flag));
  let missing = false;
  if (!env.MALLOC_ARENA_MAX) {
    env.MALLOC_ARENA_MAX = ARENAS;
    missing = true;
  }
  const appThreads = servesOnAppThreads(env);
  if (!given(SEMI_SPACE_FLAG)) {
    execArgv.push(`${SEMI_SPACE_FLAG}=${appThreads ? HTTP_THREAD_SEMI_SPACE_MB : SEMI_SPACE_MB}`);
    env[OWN_SEMI_SPACE] = "1";
    missing = true;
  }
  if (!given(OLD_SPACE_FLAG) && appThreads) {
    execArgv.push(`${OLD_SPACE_FLAG}=${HTTP_THREAD_HEAP_MB}`);
    missing = true;
  }
  if (missing) execve(process.execPath, [process.execPath, ...execArgv, ...process.argv.slice(1)], env);
}

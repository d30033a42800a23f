/**
 * Child processes of the benchmark: the service started as `npm start` starts it (`node src/node.ts`
 * with its settings in the environment), the ceiling servers (scripts/bench-ceiling.ts), and the
 * resident memory of a child (Linux: /proc/<pid>/status; undefined elsewhere).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { BENCH_TOKEN } from "./bench-client.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Child {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  /** SIGTERM, then SIGKILL if it has not ended within 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A port nothing listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Spawns `node args` in the project root and resolves once its standard output shows `ready` (its first group is the URL). */
function spawnUntil(args: string[], env: Record<string, string>, ready: RegExp, what: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => exited || child.kill("SIGKILL"), 10_000);
    await gone;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (stop(), reject(new Error(`${what} did not start within 60 s:\n${out}`))), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (out.length < 100_000) out += chunk;
      const match = ready.exec(out);
      if (match && child.pid !== undefined) {
        clearTimeout(timer);
        ready = /$^/; // resolve once
        resolve({ child, pid: child.pid, url: match[1], stop });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code ?? signal} before it answered:\n${out}`));
    });
  });
}

/** The service as `npm start` runs it: `node src/node.ts` on 127.0.0.1, a free port and the embedded file `file`. */
export async function startServiceProcess(file: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  return spawnUntil(
    ["src/node.ts"],
    {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LIBSQL_URL: `file:${file}`,
      SUPERUSER_NAME: "bench",
      SUPERUSER_PASSWORD: "bench-password",
      SUPERUSER_API_TOKEN: BENCH_TOKEN,
      MAX_PAGE_SIZE: "1000",
    },
    /listening on (http:\/\/\S+)\/api\//,
    "the service (node src/node.ts)",
  );
}

/** A ceiling server of scripts/bench-ceiling.ts: `hello`, or `point` over the site table of `file`. */
export function startCeiling(mode: "hello" | "point", file?: string): Promise<Child> {
  return spawnUntil(
    ["scripts/bench-ceiling.ts", mode, "0", ...(file ? [file] : [])],
    {},
    /listening on (http:\/\/\S+)/,
    `the ${mode} ceiling`,
  );
}

/** Resident memory of process `pid` in MB, now (VmRSS) and at its peak so far (VmHWM); undefined off Linux. */
export function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

/** Samples the RSS of `pid` every `ms` until `stop()`, which gives the highest sample in MB (NaN off Linux). */
export function sampleRss(pid: number, ms = 100): { stop(): number } {
  let max = Number.NaN;
  const take = () => {
    const m = memoryOf(pid);
    if (m && !(m.rss <= max)) max = m.rss;
  };
  take();
  const timer = setInterval(take, ms);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return max;
    },
  };
}

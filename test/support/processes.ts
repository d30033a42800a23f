/** Real processes for the tests that need them: the service as `npm start` runs it, and a foreign lock holder. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A service started as `npm start` starts it. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** What it printed up to the moment it listened (and the credentials just after). */
  readonly output: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
}

/** Runs `node src/node.ts` and resolves with its output once it listens. */
export function startProcess(env: Record<string, string>): Promise<ServiceProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/node.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\/api\//.exec(output);
      // The credentials are printed right after the address; give them a moment to arrive.
      if (match) setTimeout(() => (clearTimeout(timer), resolve({ child, output, url: match[1] })), 300);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** Ends a child with `signal` and waits until it has exited. */
export const stop = (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

/** The lock holder: takes the write lock, says so, and on any input commits its (empty) transaction and exits. */
const HOLDER = `
const Database = require("libsql");
const db = new Database(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
process.stdin.once("data", () => { db.exec("COMMIT"); db.close(); process.exit(0); });
`;

/**
 * Another program holding the database file's write lock (as a backup, \`sqlite3\` or a second
 * instance would): a separate Node process that runs BEGIN IMMEDIATE through the libsql addon and
 * keeps the transaction open until `release()`.
 */
export async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const child = spawn(process.execPath, ["-e", HOLDER, file], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return {
    async release() {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.stdin!.end("release\n");
      await exited;
    },
  };
}

/** A JSON call to the service at `url` with `token`: its status and its parsed body (null for 204). */
export const tokenCall =
  (url: string, token: string) =>
  async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const reply = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: reply.status, body: reply.status === 204 ? null : await reply.json() };
  };

/** Temporary folders, removed by `cleanup()` (call it in afterAll). */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), "inventory-"));
      dirs.push(dir);
      return dir;
    },
    cleanup: () => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/** What `deno serve` needs, and nothing that reaches the network (see src/deno.ts). */
export const DENO_SERVE_FLAGS = [
  "--no-remote",
  "--no-lock",
  "--node-modules-dir=manual",
  "--no-prompt",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net=127.0.0.1",
  "--allow-sys",
  "--allow-ffi",
];

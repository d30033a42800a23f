import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A service started as `npm start` starts it: `node src/node.ts` in its own process. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** What it printed up to the moment it listened (and the credentials just after). */
  readonly output: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
}

/** Runs `node src/node.ts` with these settings added to the environment; resolves once it listens. */
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

/** Stops a started service with SIGTERM and waits for it to exit. */
export const stopProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

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

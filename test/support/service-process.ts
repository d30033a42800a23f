import { spawn, type ChildProcess } from "node:child_process";

/** A service started as `npm start` starts it: `node src/node.ts` in its own process. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once it has exited. */
  readonly exited: Promise<void>;
}

/** Runs `node src/node.ts` with `env` and resolves once it listens (PORT=0 in `env` for any free port). */
export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/node.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\/api\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, exited });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

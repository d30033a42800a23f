/**
 * Our sources as JavaScript, stripped of their types once per process, for the HTTP thread and
 * every worker thread it starts.
 *
 * Node strips a `.ts` file's types with a WebAssembly build of a TypeScript parser, loaded into
 * each isolate that imports one; its code and the memory it grows to while stripping stay for the
 * life of the thread (measured: 17 MB to load it; the whole app's files made an isolate 40 MB
 * larger than the same files as JavaScript). The service runs an isolate per app thread and
 * database connection, so a short-lived process strips every source file once (about 0.4 s at
 * startup) and ends, taking the parser's memory with it; each isolate's module loader then takes
 * its modules' JavaScript from that (`module.registerHooks`), and only the entry file is stripped
 * by Node.
 */
import { spawnSync } from "node:child_process";
import * as nodeModule from "node:module";
import { fileURLToPath } from "node:url";
import { setEnvironmentData, Worker, type WorkerOptions } from "node:worker_threads";

const SOURCES_KEY = "inventory:stripped-sources";

/** The folder every source file lives under (`src/`). */
const SOURCE_ROOT = new URL("../", import.meta.url);

type Sources = Map<string, string>;
type LoadHook = (url: string, context: object, next: (url: string, context: object) => unknown) => unknown;
type RegisterHooks = (hooks: { load: LoadHook }) => unknown;

/**
 * The load hook serving `sources`: a module among them is that JavaScript, as it is (positions
 * kept, so stack traces point into the `.ts` file); any other is loaded as Node loads it.
 * `forget`: drop each source once loaded (a worker's own copy; the HTTP thread keeps its copy for
 * the threads it starts later).
 */
const loadFrom =
  (sources: Sources, forget: boolean): LoadHook =>
  (url, context, next) => {
    const source = sources.get(url);
    if (source === undefined) return next(url, context);
    if (forget) sources.delete(url);
    return { format: "module", source, shortCircuit: true };
  };

/** A thread's first code (CommonJS, as `eval` threads run it): the hook over its copy of the sources, then its entry file. */
const BOOT = `
const { registerHooks } = require("node:module");
const { getEnvironmentData } = require("node:worker_threads");
const sources = getEnvironmentData(${JSON.stringify(SOURCES_KEY)});
const loadFrom = ${loadFrom.toString()};
registerHooks({ load: loadFrom(sources, true) });
import(process.argv[process.argv.length - 1]).then(
  () => sources.clear(), // nothing imports later: the rest was for other threads
  (error) => process.nextTick(() => { throw error; }),
);
`;

/** The stripping process: every `.ts` file under the folder given on standard input, as JSON `[[url, javascript], ...]`. */
const STRIP = `
const { stripTypeScriptTypes } = require("node:module");
const { readdirSync, readFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
process.emitWarning = () => {}; // Node's notice that the stripping API is experimental
const root = readFileSync(0, "utf8");
const sources = [];
for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
  if (!entry.endsWith(".ts") || entry.endsWith(".d.ts")) continue;
  sources.push([pathToFileURL(root + entry).href, stripTypeScriptTypes(readFileSync(root + entry, "utf8"))]);
}
process.stdout.write(JSON.stringify(sources));
`;

let stripped: Sources | null | undefined;

/**
 * Every source file as JavaScript, stripped once per process by a short-lived process of its own
 * (a thread's memory stayed with this process after it ended: 44 MB, measured); null where the
 * runtime cannot load them so (no `registerHooks` or `stripTypeScriptTypes`, sources that are not
 * files, as in a bundle, or a failed stripping), and then each thread loads its files as Node does.
 */
function strippedSources(): Sources | null {
  if (stripped !== undefined) return stripped;
  stripped = null;
  if (!("registerHooks" in nodeModule) || !("stripTypeScriptTypes" in nodeModule) || SOURCE_ROOT.protocol !== "file:") return stripped;
  const run = spawnSync(process.execPath, ["-e", STRIP], {
    input: fileURLToPath(SOURCE_ROOT),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["pipe", "pipe", "ignore"],
    timeout: 60_000,
  });
  if (run.status !== 0) return stripped;
  stripped = new Map(JSON.parse(run.stdout) as [string, string][]);
  setEnvironmentData(SOURCES_KEY, stripped);
  return stripped;
}

/**
 * From here on, this thread loads our modules from the stripped sources (the HTTP thread, before
 * it imports the app); nothing where they are not available.
 */
export function loadStrippedSources(): void {
  const sources = strippedSources();
  if (sources) (nodeModule as unknown as { registerHooks: RegisterHooks }).registerHooks({ load: loadFrom(sources, false) });
}

/** A worker thread running the source file `file` (a `.ts` URL under `src/`), with `options` as `new Worker` takes them. */
export function startThread(file: URL, options: WorkerOptions = {}): Worker {
  if (!strippedSources()) return new Worker(file, options);
  return new Worker(BOOT, { ...options, eval: true, argv: [...(options.argv ?? []), file.href] });
}

/**
 * The Deno entry, for `deno serve` (Deno 2, from the npm package `deno`):
 *
 *   DENO_NO_UPDATE_CHECK=1 deno serve --host 127.0.0.1 --port 8787 \
 *     --no-remote --no-lock --node-modules-dir=manual --no-prompt \
 *     --allow-env --allow-read --allow-write --allow-net --allow-sys --allow-ffi src/deno.ts
 *
 * Offline: the npm packages come from the existing node_modules (`--node-modules-dir=manual`),
 * remote imports are refused (`--no-remote`), no deno.lock is written (`--no-lock`), and
 * DENO_NO_UPDATE_CHECK=1 stops the upgrade check that would otherwise look up dl.deno.land.
 * `deno serve` does not type-check. --allow-ffi and --allow-sys are for the native `libsql`
 * addon (its loader reads the CPU list to tell glibc from musl); --allow-write for the database
 * file and a generated `secret_key`; --allow-net for the listener and a remote database.
 *
 * Same defaults as the Node entry: the embedded libSQL file LIBSQL_URL (file:data/inventory.db)
 * through the native `libsql` addon, which Deno loads as a Node addon, on database threads
 * (node:worker_threads, which Deno provides; the threads inherit these permissions); remote URLs (Turso, a
 * libsql server) through @libsql/client. Set up once at module load; `deno serve` then calls
 * `fetch` with the client's socket address in `info.remoteAddr`.
 *
 * Not in the project's `tsc` run (it excludes this file): Deno globals are typed loosely here.
 */
import { createApp } from "./app.ts";
import { bootstrapMessage } from "./auth/bootstrap.ts";
import { ConfigError, parseConfig } from "./config.ts";
import { openDatabase } from "./runtime/node-database.ts";
import { loadMigrations, resolveSecretKey } from "./runtime/local-files.ts";
import { backgroundTasks, localDeliveryQueue } from "./runtime/background.ts";
import { packageAssets } from "./runtime/package-assets.ts";
import { nodeHmac } from "./runtime/node-hmac.ts";
import { folderFiles, mediaRoot } from "./runtime/folder-files.ts";
import { withLength } from "./lib/responses.ts";

// deno-lint-ignore no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: Deno's own types are not installed; the entry uses a few of its members
declare const Deno: any;

/** What `deno serve` passes beside the request (Deno.ServeHandlerInfo). */
interface ServeInfo {
  readonly remoteAddr?: { readonly hostname?: string };
}

function setUp() {
  try {
    return parseConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
}

const config = setUp();
const { key, generated } = resolveSecretKey(config);
const db = openDatabase(config);
const files = folderFiles(mediaRoot(config));
const app = await createApp({ config, secretKey: key, runtime: `deno ${Deno.version.deno}`, hmac: nodeHmac });
const bootstrap = await app.prepare(db, loadMigrations());

/** Printed once listening: the address, and what the first start created (shown only once). */
function announce(url: string) {
  console.log(`Inventory API listening on ${url}/api/ (Deno ${Deno.version.deno}, database ${config.LIBSQL_URL})`);
  if (generated) console.log(`Generated SECRET_KEY and kept it in ${generated}`);
  for (const line of bootstrapMessage(bootstrap, url)) console.log(line);
}

const background = backgroundTasks();
const waitUntil = background.waitUntil;
const deliveries = localDeliveryQueue(app, db, files);
const enqueue = deliveries.push;

// Finish background work and close the database on Ctrl-C / SIGTERM.
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await background.settled();
  await deliveries.stop();
  try {
    db.close();
  } finally {
    Deno.exit(0);
  }
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  try {
    Deno.addSignalListener(signal, stop);
  } catch {
    // Signals not supported on this platform (Windows has no SIGTERM listener).
  }
}

let listenOrigin = "http://127.0.0.1";

/**
 * Deno builds `request.url` from the Host header, so a malformed Host gives a URL that does not
 * parse; such a request reaches the app on the listen address with its headers, and the app
 * answers the Host with its 400 (src/http/host.ts). Its path does not matter: that check is first.
 */
function withParsableUrl(request: Request): Request {
  return URL.canParse(request.url) ? request : new Request(`${listenOrigin}/`, { headers: request.headers });
}

export default {
  onListen(addr: { hostname?: string; port?: number }) {
    const host = addr.hostname?.includes(":") ? `[${addr.hostname}]` : addr.hostname;
    listenOrigin = `http://${host}:${addr.port}`;
    announce(listenOrigin);
  },
  async fetch(request: Request, info?: ServeInfo): Promise<Response> {
    try {
      const response = await app.fetch(withParsableUrl(request), {
        db,
        files,
        clientAddress: info?.remoteAddr?.hostname ?? null,
        waitUntil,
        enqueue,
        assets: packageAssets,
      });
      return withLength(response);
    } catch (error) {
      console.error("unhandled error serving a request:", error);
      return new Response(JSON.stringify({ detail: "Server error." }), {
        status: 500,
        headers: { "Content-Type": "application/json" },
      });
    }
  },
};

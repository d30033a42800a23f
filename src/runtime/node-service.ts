import type { Server } from "node:http";
import { createApp, type App } from "../app.ts";
import { parseConfig, type Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Bootstrap } from "../auth/bootstrap.ts";
import { backgroundTasks, localDeliveryQueue } from "./background.ts";
import { listen, quickAnswer, quickRequest, toAnswer, toRequest, type NodeHandler } from "./node-http.ts";
import { openDatabase } from "./node-database.ts";
import { appThreadCount, localPath } from "./local-path.ts";
import { loadMigrations, resolveSecretKey } from "./local-files.ts";
import type { LocalQueue } from "../events/local-queue.ts";
import { packageAssets } from "./package-assets.ts";
import { appThreads } from "./app-threads.ts";
import { nodeHmac } from "./node-hmac.ts";
import { folderFiles, mediaRoot } from "./folder-files.ts";
import { ADMITTED, admission, isPriority, PER_THREAD } from "./admission.ts";
import { costBook, readShape } from "./request-costs.ts";
import type { NativeDatabase } from "./native-database.ts";

/** A running service on Node: its address, what the first start created, and how to stop it. */
export interface NodeService {
  readonly url: string;
  readonly app: App;
  /** The HTTP thread's database (the webhook consumer's; app threads have connections of their own). */
  readonly db: Database;
  readonly config: Config;
  readonly bootstrap: Bootstrap | null;
  readonly secretKeyFile: string | null;
  /** The in-process webhook consumer (the benchmark pauses it to time the request path alone). */
  readonly deliveries: LocalQueue;
  /** App threads serving requests (WORKERS); 0 when the HTTP thread serves them itself. */
  readonly workers: number;
  /** With app threads: requests handed to them, and reads the HTTP thread served itself as light. */
  readonly served: { readonly threads: number; readonly light: number };
  close(): Promise<void>;
}

/**
 * Starts the service from environment variables: database, migrations, superuser, then the app
 * on WORKERS threads (default: one per core) behind one HTTP thread, which serves reads measured
 * light itself (request-costs.ts). With WORKERS=0, or a `:memory:` database (which one connection
 * alone can hold), the HTTP thread serves every request itself.
 */
export async function startNodeService(env: Record<string, string | undefined>): Promise<NodeService> {
  const config = parseConfig(env);
  const { key, generated } = resolveSecretKey(config);
  const path = localPath(config.LIBSQL_URL);
  const workers = appThreadCount(config.LIBSQL_URL, config.WORKERS);
  // With app threads, this side reads for the webhook consumer, the status check and light reads
  // (request-costs.ts): one reader thread keeps up (a second served no more site reads at 8 clients).
  const db = openDatabase(config, workers > 0 ? { readers: 1 } : {});
  const runtime = `node ${process.versions.node}`;
  const app = await createApp({ config, secretKey: key, runtime, hmac: nodeHmac });
  const bootstrap = await app.prepare(db, loadMigrations());
  const background = backgroundTasks();
  const waitUntil = background.waitUntil;
  const files = folderFiles(mediaRoot(config));
  const deliveries = localDeliveryQueue(app, db, files);
  const enqueue = deliveries.push;

  // A plain read (App.quick) is answered before any Request is made; the rest by the pipeline.
  const here: NodeHandler = async (req, url) => {
    const clientAddress = req.socket.remoteAddress ?? null;
    const environment = { db, files, clientAddress, waitUntil, enqueue, assets: packageAssets };
    const quick = await app.quick(quickRequest(req.method ?? "GET", url, req.rawHeaders, clientAddress), environment);
    return quick ? quickAnswer(quick) : toAnswer(await app.fetch(toRequest(req, url), environment));
  };
  const pool =
    workers > 0
      ? appThreads({
          count: workers,
          perThread: PER_THREAD,
          heapMb: config.WORKER_HEAP_MB,
          env: { ...env },
          secretKey: key,
          runtime,
          path: path!,
          maxBodySize: config.MAX_BODY_SIZE,
          db: db as NativeDatabase,
          enqueue,
        })
      : null;
  // The HTTP thread serves the status check and the API root at once, and the rest through the
  // gate: every request without app threads, and with them the reads of shapes light enough.
  const admit = admission(ADMITTED);
  const served = { threads: 0, light: 0 };
  const local: NodeHandler = (req, url) => admit(() => here(req, url));
  let handler: NodeHandler = (req, url) => (isPriority(req.method, req.url) ? here(req, url) : local(req, url));
  if (pool) {
    await pool.ready().catch(async (error) => {
      await pool.close();
      db.close();
      throw error;
    });
    const costs = costBook();
    handler = (req, url) => {
      if (isPriority(req.method, req.url)) return here(req, url);
      const shape = readShape(req.method, req.url);
      if (shape !== null && costs.light(shape)) {
        served.light++;
        return admit(async () => {
          const started = performance.now();
          try {
            return await here(req, url);
          } finally {
            costs.servedHere(shape, performance.now() - started);
          }
        });
      }
      served.threads++;
      return pool.serve(req, url, shape === null ? undefined : (ms, bytes) => costs.record(shape, ms, bytes));
    };
  }
  const { server, url } = await listen(handler, config.HOST, config.PORT);
  return {
    url,
    app,
    db,
    config,
    bootstrap,
    secretKeyFile: generated,
    deliveries,
    workers,
    served,
    async close() {
      await new Promise<void>((resolve) => (server as Server).close(() => resolve()));
      await pool?.close();
      await background.settled();
      await deliveries.stop();
      db.close();
    },
  };
}

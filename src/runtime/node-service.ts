import type { Server } from "node:http";
import { createApp, type App } from "../app.ts";
import { parseConfig, type Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Bootstrap } from "../auth/bootstrap.ts";
import { backgroundTasks, localDeliveryQueue } from "./background.ts";
import { listen } from "./node-http.ts";
import { openDatabase } from "./node-database.ts";
import { loadMigrations, resolveSecretKey } from "./local-files.ts";
import type { LocalQueue } from "../events/local-queue.ts";
import { packageAssets } from "./package-assets.ts";

/** A running service on Node: its address, what the first start created, and how to stop it. */
export interface NodeService {
  readonly url: string;
  readonly app: App;
  readonly db: Database;
  readonly config: Config;
  readonly bootstrap: Bootstrap | null;
  readonly secretKeyFile: string | null;
  /** The in-process webhook consumer (the benchmark pauses it to time the request path alone). */
  readonly deliveries: LocalQueue;
  close(): Promise<void>;
}

/** Starts the service from environment variables: database, migrations, superuser, listener. */
export async function startNodeService(env: Record<string, string | undefined>): Promise<NodeService> {
  const config = parseConfig(env);
  const { key, generated } = resolveSecretKey(config);
  const db = openDatabase(config);
  const app = await createApp({ config, secretKey: key, runtime: `node ${process.versions.node}` });
  const bootstrap = await app.prepare(db, loadMigrations());
  const background = backgroundTasks();
  const waitUntil = background.waitUntil;
  const deliveries = localDeliveryQueue(app, db);
  const enqueue = deliveries.push;
  const { server, url } = await listen(
    (request, clientAddress) => app.fetch(request, { db, clientAddress, waitUntil, enqueue, assets: packageAssets }),
    config.HOST,
    config.PORT,
  );
  return {
    url, app, db, config, bootstrap, secretKeyFile: generated, deliveries,
    async close() {
      await new Promise<void>((resolve) => (server as Server).close(() => resolve()));
      await background.settled();
      await deliveries.stop();
      db.close();
    },
  };
}

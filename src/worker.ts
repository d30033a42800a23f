/**
 * The Cloudflare Workers entry: Turso (or any libSQL server) over HTTP with the web client, one
 * client per request, because one client shared across requests hangs workerd under concurrency.
 * Migrations are bundled as text (wrangler.toml `rules`) and applied on an isolate's first request.
 */
import { createClient } from "@libsql/client/web";
import { createApp, type App } from "./app.ts";
import { ConfigError, parseConfig } from "./config.ts";
import type { Migration } from "./db/migrate.ts";
import { libsqlClientDatabase } from "./db/libsql-client.ts";
import { json } from "./http/responses.ts";
import initial from "../migrations/0001_initial.sql";
import engine from "../migrations/0002_engine.sql";
import macAddresses from "../migrations/0003_mac_addresses.sql";
import sharedInventory from "../migrations/0004_shared_inventory.sql";
import components from "../migrations/0006_components.sql";

/** Every migration file, in order; a test checks this list against migrations/. */
export const MIGRATIONS: readonly Migration[] = [
  { name: "0001_initial.sql", sql: initial },
  { name: "0002_engine.sql", sql: engine },
  { name: "0003_mac_addresses.sql", sql: macAddresses },
  { name: "0004_shared_inventory.sql", sql: sharedInventory },
  { name: "0006_components.sql", sql: components },
];

export interface Env {
  LIBSQL_URL: string;
  LIBSQL_AUTH_TOKEN?: string;
  SECRET_KEY?: string;
  [setting: string]: unknown;
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

let ready: Promise<App> | undefined;

function openDatabase(env: Env) {
  return libsqlClientDatabase(createClient({ url: env.LIBSQL_URL, authToken: env.LIBSQL_AUTH_TOKEN, intMode: "number" }));
}

async function setUp(env: Env): Promise<App> {
  const config = parseConfig(env);
  if (!config.SECRET_KEY) throw new ConfigError("SECRET_KEY must be set on Workers (wrangler secret put SECRET_KEY).");
  const app = await createApp({ config, secretKey: config.SECRET_KEY, runtime: "workerd" });
  const db = openDatabase(env);
  try {
    // Worker logs are kept (wrangler tail, Workers Logs), so a generated password or token must
    // never go there: on Workers the first superuser comes only from the SUPERUSER_* secrets.
    await app.prepare(db, MIGRATIONS, { generateAdmin: false });
    if (!config.SUPERUSER_NAME) {
      console.log("No superuser configured: set SUPERUSER_NAME, SUPERUSER_PASSWORD and SUPERUSER_API_TOKEN as secrets to create one.");
    }
  } finally {
    db.close();
  }
  return app;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    // A failed set-up is retried by the next request instead of poisoning the isolate.
    ready ??= setUp(env).catch((error) => {
      ready = undefined;
      throw error;
    });
    let app: App;
    try {
      app = await ready;
    } catch (error) {
      console.error("set-up failed:", error);
      const detail = error instanceof ConfigError ? error.message : "The service could not start; see the worker logs.";
      return json({ detail }, 503);
    }
    const db = openDatabase(env);
    const background: Promise<unknown>[] = [];
    try {
      return await app.fetch(request, {
        db,
        clientAddress: request.headers.get("CF-Connecting-IP"),
        waitUntil: (p) => void background.push(p),
      });
    } finally {
      ctx.waitUntil(Promise.allSettled(background).then(() => db.close()));
    }
  },
};

import { createApp, type App } from "../../src/app.ts";
import { parseConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/database.ts";
import { nativeDatabase } from "../../src/runtime/native-database.ts";
import { libsqlClientDatabase } from "../../src/db/libsql-client.ts";
import { createClient } from "@libsql/client";
import { loadMigrations } from "../../src/runtime/local-files.ts";
import { createLocalQueue, type LocalQueue } from "../../src/events/local-queue.ts";
import { packageAssets } from "../../src/runtime/package-assets.ts";
import { compileStats } from "../../src/db/query-builder.ts";
import { folderFiles } from "../../src/runtime/folder-files.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567";
export const ORIGIN = "http://inventory.test";

/** One API response, decoded. */
export interface Reply {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** A token key, or null for no Authorization header (default: the superuser's). */
  token?: string | null;
  headers?: Record<string, string>;
  clientAddress?: string;
  /** false: committed deliveries are not handed to the queue (a lost enqueue, healed by the sweep). */
  enqueue?: boolean;
}

/** The real app over a real in-memory libSQL database, driven through `app.fetch`. */
export interface Harness {
  app: App;
  db: Database;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  patch(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  put(path: string, body: unknown, options?: RequestOptions): Promise<Reply>;
  delete(path: string, body?: unknown, options?: RequestOptions): Promise<Reply>;
  /** Creates a token for a new user and returns its key. */
  token(options?: { superuser?: boolean; write_enabled?: boolean; username?: string }): Promise<string>;
  /** Waits for work the app left running after its responses (token last-use updates). */
  settle(): Promise<void>;
  /** The in-process webhook consumer the app hands committed deliveries to (no sweep timer: `queue.sweepNow()`). */
  queue: LocalQueue;
  /** Statements and round trips a call costs, once background work has settled. */
  cost(fn: () => Promise<unknown>): Promise<{ statements: number; roundTrips: number }>;
  /** `cost`, and the SQL compiled from query builders and the statements whose text the database had not been sent before. */
  work(fn: () => Promise<unknown>): Promise<Cost>;
  close(): void;
}

let users = 0;

/** Which database driver the harness runs on: the native addon (embedded default) or @libsql/client. */
export type Driver = "native" | "client";

export interface Cost {
  readonly statements: number;
  readonly roundTrips: number;
  readonly compilations: number;
  readonly newTexts: number;
}

/** Where harnesses keep files: the test run's scratch folder (scratch.ts), removed when the run ends. */
const scratchRoot = (): string => process.env.INVENTORY_TEST_SCRATCH ?? tmpdir();

export async function createHarness(env: Record<string, string> = {}, driver: Driver = "native"): Promise<Harness> {
  const config = parseConfig({
    LIBSQL_URL: ":memory:",
    SUPERUSER_NAME: "admin",
    SUPERUSER_PASSWORD: "admin-password",
    SUPERUSER_API_TOKEN: ADMIN_TOKEN,
    ...env,
  });
  const db = driver === "native" ? nativeHarnessDatabase() : libsqlClientDatabase(createClient({ url: ":memory:", intMode: "number" }));
  const app = await createApp({ config, secretKey: "test-secret-key-0123456789abcdef0123456789", runtime: "test" });
  await app.prepare(db, loadMigrations());
  const pending: Promise<unknown>[] = [];
  // Uploaded files go where Node keeps them: a folder (here a fresh one per harness).
  const files = folderFiles(mkdtempSync(join(scratchRoot(), "media-")));
  const queue = createLocalQueue({
    deliver: app.deliverer(db).deliver,
    sweep: () => app.sweep(db, undefined, files),
    concurrency: config.WEBHOOK_CONCURRENCY,
    sweepIntervalMs: 0,
  });

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? ADMIN_TOKEN : options.token;
    if (token !== null) headers.Authorization = `Token ${token}`;
    let body: string | FormData | undefined;
    // A form is sent as multipart/form-data, its boundary set by Request (image uploads).
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await app.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }), {
      db,
      files,
      clientAddress: options.clientAddress ?? "127.0.0.1",
      waitUntil: (p) => void pending.push(p),
      enqueue: options.enqueue === false ? undefined : queue.push,
      assets: packageAssets,
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, headers: response.headers, text };
  };

  const settle = async () => {
    while (pending.length) await Promise.all(pending.splice(0));
  };

  const harness: Harness = {
    app,
    db,
    request,
    get: (path, o) => request("GET", path, o),
    post: (path, body, o) => request("POST", path, { ...o, body }),
    patch: (path, body, o) => request("PATCH", path, { ...o, body }),
    put: (path, body, o) => request("PUT", path, { ...o, body }),
    delete: (path, body, o) => request("DELETE", path, { ...o, body }),
    async token({ superuser = true, write_enabled = true, username } = {}) {
      const name = username ?? `user${++users}`;
      const user = await harness.post("/api/users/users/", { username: name, password: "A-password-123", is_superuser: superuser });
      if (user.status !== 201) throw new Error(`could not create user: ${user.text}`);
      const token = await harness.post("/api/users/tokens/", { user: user.body.id, write_enabled });
      if (token.status !== 201) throw new Error(`could not create token: ${token.text}`);
      return token.body.key as string;
    },
    settle,
    // Deliveries reach the queue from work left running after the response (the event data is
    // kept, then the ids enqueued): a drain includes that hand-over, however long the database takes.
    queue: { ...queue, drain: async () => (await settle(), queue.drain()) },
    async cost(fn) {
      const { statements, roundTrips } = await harness.work(fn);
      return { statements, roundTrips };
    },
    async work(fn) {
      await settle();
      const before = { ...db.stats };
      const compiled = compileStats.compilations;
      await fn();
      await settle();
      return {
        statements: db.stats.statements - before.statements,
        roundTrips: db.stats.roundTrips - before.roundTrips,
        compilations: compileStats.compilations - compiled,
        newTexts: db.stats.newTexts - before.newTexts,
      };
    },
    close: () => {
      void queue.stop();
      db.close();
    },
  };
  return harness;
}

/**
 * The native driver's database: `:memory:`, or with TEST_DATABASE=file a file of its own read
 * through a reader thread that keeps its reads (READ_CACHE_MB's cache), as a served file is with it set:
 * `TEST_DATABASE=file npx vitest run` holds every test's writes and reads to that path too
 * (TEST_READ_CACHE_MB sizes its cache, default 4; 0 tries the file without one).
 */
function nativeHarnessDatabase(): Database {
  if (process.env.TEST_DATABASE !== "file") return nativeDatabase(":memory:");
  return nativeDatabase(join(mkdtempSync(join(scratchRoot(), "database-")), "test.db"), {
    readers: 1,
    readCacheMb: Number(process.env.TEST_READ_CACHE_MB ?? 4),
  });
}

/** Deletes every event rule, then every webhook: what a webhook test set up for itself. */
export async function removeWebhooks(api: Harness): Promise<void> {
  for (const path of ["/api/extras/event-rules/", "/api/extras/webhooks/"]) {
    const { results } = (await api.get(`${path}?limit=0`)).body;
    if (results.length)
      await api.delete(
        path,
        results.map((r: { id: number }) => ({ id: r.id })),
      );
  }
}

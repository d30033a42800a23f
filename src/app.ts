import { registry } from "./apps/index.ts";
import { knownObjectTypes, objectTypeRows } from "./apps/extras/object-types.ts";
import { removeListedFiles } from "./apps/extras/image-attachments.ts";
import type { DeliveryDependencies, Outcome } from "./events/delivery-types.ts";
import { createAuthCache } from "./engine/unit-of-work.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { FileStore } from "./lib/file-store.ts";
import { clientAddressOf } from "./http/client-address.ts";
import { bodyOnce, readJson } from "./http/body.ts";
import { applyMigrations, type Migration } from "./db/migrate.ts";
import { deriveSecrets, type HmacSha256, type Secrets } from "./lib/secrets.ts";
import { ensureSuperuser, type Bootstrap } from "./auth/bootstrap.ts";
import type { RequestContext } from "./http/context.ts";
import { requestUrl } from "./http/host.ts";
import { createRouter } from "./http/router.ts";
import { quickRoot as quickRootOf } from "./http/quick-root.ts";
import { plainRequests, type QuickAnswer, type QuickRequest } from "./http/quick-request.ts";
import { quickRead } from "./http/quick-read.ts";
import { createDeliverer, recover, sweep, type Deliverer } from "./events/deliver.ts";
import { plannerStatistics, STATISTICS_KEPT } from "./db/planner-statistics.ts";
import { serveStatic, type AssetSource } from "./ui/assets.ts";

/** The release of this service, reported by /api/status/. */
export const RELEASE = "0.1.0";

/** What an entry passes with each request. */
export interface RequestEnvironment {
  /** The database for this request: shared on Node and Deno, one client per request on Workers. */
  readonly db: Database;
  /** Where uploaded files are kept: a folder beside the database on Node and Deno, an R2 bucket on Workers. */
  readonly files?: FileStore;
  readonly clientAddress?: string | null;
  /** Keeps work going after the response (Workers' ctx.waitUntil); errors are the caller's to log. */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Hands committed webhook deliveries to the queue. Absent, they wait for the sweep: nothing is
   * lost, only later.
   */
  readonly enqueue?: (deliveryIds: readonly number[]) => Promise<void>;
  /** Where other projects' files (Swagger UI's, GraphiQL's) come from: the packages on Node and Deno, static assets on Workers. */
  readonly assets?: AssetSource;
}

/**
 * How a deliverer sends: the runtime's fetch unless given, a fetch without TLS verification where
 * one exists, where templates are rendered (inline unless given), and who it claims runs as.
 */
export type DeliveryOptions = Pick<DeliveryDependencies, "fetch" | "insecureFetch" | "render" | "claimer">;

/** The portable application: a fetch handler over web-standard APIs, and its set-up. */
export interface App {
  fetch(request: Request, env: RequestEnvironment): Promise<Response>;
  /**
   * The answer to a request that needs no pipeline, from what an entry has before it makes a
   * Request: the plain `GET /api/` (http/quick-root.ts) and, given the request's environment, a
   * model's list or object read with a cached token (http/quick-read.ts); null: serve it with `fetch`.
   */
  quick(request: QuickRequest, env?: RequestEnvironment): Promise<QuickAnswer | null>;
  /**
   * Applies pending migrations and ensures the superuser; returns what must be shown once.
   * `generateAdmin: false` skips creating `admin` with random secrets on an empty database.
   */
  prepare(db: Database, migrations: readonly Migration[], options?: { generateAdmin?: boolean }): Promise<Bootstrap | null>;
  /**
   * The queue consumer's work, on every runtime: each `deliver(id)` is one attempt at one webhook
   * delivery; attempts made about the same time share their statements.
   */
  deliverer(db: Database, options?: DeliveryOptions): Deliverer;
  /** One attempt at one webhook delivery, from a fresh deliverer. */
  deliver(db: Database, id: number, options?: DeliveryOptions): Promise<Outcome>;
  /**
   * The ids of deliveries to enqueue again (lost messages, crashed consumers); prunes old change
   * records; with the file store, removes the files of replaced and deleted images.
   */
  sweep(db: Database, now?: Date, files?: FileStore): Promise<number[]>;
  /** At the start of an in-process consumer: frees the claims of dead claimers, and returns every due run to enqueue. */
  recover(db: Database, isDead: (claimer: string) => boolean): Promise<number[]>;
  readonly config: Config;
  readonly secrets: Secrets;
}

export interface AppOptions {
  readonly config: Config;
  /** SECRET_KEY, resolved by the entry (generated and kept beside the database on Node/Deno). */
  readonly secretKey: string;
  /** Names the runtime in /api/status/: "node", "workerd", "deno". */
  readonly runtime: string;
  /** A faster HMAC for token digests where the runtime has one (Node's); Web Crypto otherwise. */
  readonly hmac?: HmacSha256;
}

const nothingToEnqueue = async (): Promise<void> => {};

/** Builds the application once per process or isolate; requests then share nothing mutable. */
export async function createApp({ config, secretKey, runtime, hmac }: AppOptions): Promise<App> {
  const secrets = await deriveSecrets(secretKey, hmac);
  const router = createRouter({ registry, runtime, release: RELEASE });
  const authCache = createAuthCache();
  const statistics = plannerStatistics();
  // Statistics are the planner's, not the data's: a database that refuses ANALYZE still serves.
  const refreshStatistics = (db: Database) =>
    statistics.refresh(db).catch((e) => console.error("could not refresh the query planner's statistics:", (e as Error).message));
  const background = (promise: Promise<unknown>) => void promise.catch((e) => console.error("background task failed:", e));
  const plain = plainRequests(config, secrets, authCache);
  const quickRoot = quickRootOf(config);
  const read = quickRead(config, secrets, authCache, registry);

  return {
    config,
    secrets,
    async quick(request, env) {
      const asked = await plain(request);
      if (asked === null) return null;
      const root = quickRoot(asked);
      if (root !== null || !env) return root;
      return read(asked, {
        db: env.db,
        files: env.files,
        waitUntil: env.waitUntil ?? background,
        enqueue: env.enqueue ?? nothingToEnqueue,
      });
    },
    deliverer: (db, options = {}) => createDeliverer({ db, config, secrets, ...options }),
    deliver: (db, id, options = {}) => createDeliverer({ db, config, secrets, ...options }).deliver(id),
    async sweep(db, now, files) {
      const due = await sweep(db, config, now);
      if (files) await removeListedFiles(db, files).catch((e) => console.error("could not remove image files:", (e as Error).message));
      await refreshStatistics(db);
      return due;
    },
    recover: (db, isDead) => recover(db, config, isDead),
    async prepare(db, migrations, { generateAdmin = true } = {}) {
      await applyMigrations(db, migrations);
      // Object types new to this database get their rows; a start that adds no model writes nothing.
      const [known, kept] = await db.batch([knownObjectTypes(), STATISTICS_KEPT], "read");
      const have = new Set(known.rows.map((r) => String(r.name)));
      const missing = registry.models.filter((m) => !have.has(m.objectType));
      if (missing.length) await db.batch([objectTypeRows(missing)], "write");
      // A database the sweeps have kept is left to them: a start (each Workers isolate's first
      // request) reads nothing more for statistics unless there are none yet.
      if (!kept.rows.length) await refreshStatistics(db);
      return ensureSuperuser(db, config, secrets, { generateAdmin });
    },
    async fetch(request, env) {
      const url = requestUrl(request, config.ALLOWED_HOSTS);
      // Scripts, styles, Swagger UI's and GraphiQL's files: public, the same for everyone, no database.
      if (url.pathname.startsWith("/static/")) return serveStatic(request, url, env.assets ?? null);
      const body = bodyOnce(request, config.MAX_BODY_SIZE);
      const ctx: RequestContext = {
        request,
        method: request.method,
        body: body.text,
        bytes: body.bytes,
        json: () => readJson(ctx),
        url,
        origin: url.origin,
        requestId: crypto.randomUUID(),
        now: new Date(),
        config,
        db: env.db,
        ...(env.files ? { files: env.files } : {}),
        secrets,
        // On Workers the entry passes CF-Connecting-IP, which only Cloudflare sets; elsewhere the peer.
        clientAddress: clientAddressOf(request.headers.get("X-Forwarded-For"), env.clientAddress ?? null, config.TRUSTED_PROXIES),
        waitUntil: env.waitUntil ?? background,
        enqueue: env.enqueue ?? nothingToEnqueue,
        user: null,
        token: null,
        revealedKeys: new Map(),
        auth: null,
        authCache,
      };
      return router.fetch(request, ctx);
    },
  };
}

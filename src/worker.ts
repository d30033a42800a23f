/**
 * The Cloudflare Workers entry: Turso (or any libSQL server) over HTTP with the web client, one
 * client per request, because one client shared across requests hangs workerd under concurrency.
 * Migrations are bundled as text (wrangler.toml `rules`) and applied on an isolate's first request.
 */
import { createClient } from "@libsql/client/web";
import { createApp, type App } from "./app.ts";
import { ConfigError, parseConfig } from "./config.ts";
import { MIGRATIONS } from "./db/migration-files.ts";
import { libsqlClientDatabase } from "./db/libsql-client.ts";
import { json, withLength } from "./lib/responses.ts";
import { deadLetterRuns } from "./events/runs.ts";
import { r2Files, type R2BucketLike } from "./runtime/r2-files.ts";

/** Every migration file, in order (generated: `npm run list-migrations`); a test checks it against migrations/. */
export { MIGRATIONS };

/** The webhook queue's message: a delivery id; the row holds everything else. */
export interface DeliveryMessage {
  readonly id: number;
}

/** The parts of the Cloudflare Queues API the worker uses (producer binding, consumer batch). */
interface Queue {
  sendBatch(messages: readonly { body: DeliveryMessage }[]): Promise<void>;
}
interface Message {
  readonly body: DeliveryMessage;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}
interface MessageBatch {
  readonly queue: string;
  readonly messages: readonly Message[];
}

export interface Env {
  LIBSQL_URL: string;
  LIBSQL_AUTH_TOKEN?: string;
  SECRET_KEY?: string;
  /** wrangler.toml `[[queues.producers]]`: deliveries committed by a write go here. */
  WEBHOOK_QUEUE?: Queue;
  /** wrangler.toml `[assets]`: the files of other projects the pages load (VENDOR_FILES), as `<package>/<path>`. */
  ASSETS?: { fetch(request: Request): Promise<Response> };
  /** wrangler.toml `[[r2_buckets]]`: uploaded files (image attachments, device type images). */
  MEDIA?: R2BucketLike;
  [setting: string]: unknown;
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** The dead-letter queue's name ends so (wrangler.toml `dead_letter_queue`). */
const DEAD_LETTER_SUFFIX = "-dlq";
/** Messages per `sendBatch` (Cloudflare's limit is 100). */
const SEND_BATCH = 100;

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

/** The app of this isolate; a failed set-up is retried by the next event instead of poisoning the isolate. */
function appOf(env: Env): Promise<App> {
  ready ??= setUp(env).catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/** Sends delivery ids to the queue, in batches Cloudflare accepts. */
async function enqueueDeliveries(queue: Queue, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SEND_BATCH) await queue.sendBatch(ids.slice(i, i + SEND_BATCH).map((id) => ({ body: { id } })));
}

/**
 * Enqueues the runs that waited for a run just settled (the same webhook and object, later). Should
 * that fail, they are not lost: no longer waiting, the cron sweep finds them.
 */
async function enqueueNext(env: Env, ids: readonly number[]): Promise<void> {
  if (!ids.length || !env.WEBHOOK_QUEUE) return;
  await enqueueDeliveries(env.WEBHOOK_QUEUE, ids).catch((error) => console.error("could not enqueue the next runs:", error));
}

/** Seconds before a message whose processing threw (the database unreachable) is tried again. */
const infrastructureBackoff = (attempts: number) => Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1));

/**
 * The queue consumer: each message is one delivery, acked or retried on its own. A failed send
 * the retry policy allows is retried with its backoff; an error of our own (the database
 * unreachable) is retried with backoff from the attempt count; after `max_retries` the queue moves
 * the message to the dead-letter queue, whose consumer marks the run failed. The sweep still
 * finds anything left queued, so no event is lost on the way.
 */
async function consume(batch: MessageBatch, env: Env): Promise<void> {
  const app = await appOf(env);
  const db = openDatabase(env);
  try {
    if (batch.queue.endsWith(DEAD_LETTER_SUFFIX)) {
      await enqueueNext(
        env,
        await deadLetterRuns(
          db,
          batch.messages.map((m) => Number(m.body.id)),
          new Date(),
        ),
      );
      batch.messages.forEach((m) => m.ack());
      return;
    }
    // One deliverer for the batch: its claims and results are each one statement.
    const deliverer = app.deliverer(db);
    // Runs that waited for a run of this batch to settle (the same webhook and object, later).
    const next: number[] = [];
    await Promise.all(
      batch.messages.map(async (message) => {
        try {
          const outcome = await deliverer.deliver(Number(message.body.id));
          if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
          else message.ack();
          if (outcome.kind === "done" && outcome.next !== undefined) next.push(outcome.next);
        } catch (error) {
          console.error(`webhook delivery ${message.body.id} could not be processed:`, error);
          message.retry({ delaySeconds: infrastructureBackoff(message.attempts) });
        }
      }),
    );
    await enqueueNext(env, next);
  } finally {
    db.close();
  }
}

/** The cron trigger: enqueues runs left queued (a `send()` lost in waitUntil), prunes old change records, removes dropped images' files. */
async function sweepOutbox(env: Env): Promise<void> {
  const app = await appOf(env);
  const db = openDatabase(env);
  try {
    const due = await app.sweep(db, undefined, env.MEDIA ? r2Files(env.MEDIA) : undefined);
    if (due.length && env.WEBHOOK_QUEUE) await enqueueDeliveries(env.WEBHOOK_QUEUE, due);
  } finally {
    db.close();
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    let app: App;
    try {
      app = await appOf(env);
    } catch (error) {
      console.error("set-up failed:", error);
      const detail = error instanceof ConfigError ? error.message : "The service could not start; see the worker logs.";
      return json({ detail }, 503);
    }
    const db = openDatabase(env);
    const background: Promise<unknown>[] = [];
    try {
      const response = await app.fetch(request, {
        db,
        files: env.MEDIA ? r2Files(env.MEDIA) : undefined,
        clientAddress: request.headers.get("CF-Connecting-IP"),
        waitUntil: (p) => void background.push(p),
        enqueue: env.WEBHOOK_QUEUE ? (ids) => enqueueDeliveries(env.WEBHOOK_QUEUE!, ids) : undefined,
        assets: env.ASSETS ? (file) => env.ASSETS!.fetch(new Request(`https://assets.invalid/${file}`)) : undefined,
      });
      return withLength(response);
    } finally {
      ctx.waitUntil(Promise.allSettled(background).then(() => db.close()));
    }
  },

  async queue(batch: MessageBatch, env: Env): Promise<void> {
    await consume(batch, env);
  },

  async scheduled(_controller: unknown, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(sweepOutbox(env));
  },
};

import { availableParallelism } from "node:os";
import { MessageChannel, type MessagePort, type Worker } from "node:worker_threads";
import { startThread } from "./threads.ts";
import { Kysely } from "kysely";
import { batchDialect } from "../db/batch-dialect.ts";
import {
  batchCounter,
  normalizeDatabaseError,
  type Database,
  type Schemaless,
  type Statement,
  type StatementResult,
} from "../db/database.ts";
import type { ConnectionRole, WireResult } from "./native-connection.ts";
import { megabytesOfText } from "./read-cache.ts";
import type { ThreadData } from "./database-thread.ts";
import { threadClient, type ThreadClient } from "./thread-client.ts";

export interface NativeDatabaseOptions {
  /** Longest wait for the write lock, counted from when a batch is sent (DATABASE_BUSY_TIMEOUT). */
  readonly busyTimeoutMs?: number;
  /** Reader threads for a file (default: one per core). `:memory:` always has one thread. */
  readonly readers?: number;
  /** Megabytes of rows each reader keeps while the file does not change (READ_CACHE_MB; default none). */
  readonly readCacheMb?: number;
}

/** A local database as the app sees it, plus handing its writer to another thread. */
export interface NativeDatabase extends Database {
  /**
   * A port to this database's writer thread for another thread (an app thread) to send its writes
   * through, so that the process keeps one writer connection; null for `:memory:`, which cannot
   * be shared between threads.
   */
  writerPort(): MessagePort | null;
}

const THREAD_FILE = new URL("./database-thread.ts", import.meta.url);

/**
 * Megabytes of young generation (V8's nursery) a database thread may grow. Left to V8, each grew
 * to 8 MB at start-up and to 32 MB under reads of 1,000-interface pages, and kept it: those pages
 * peaked the service at 396-401 MB with WORKERS=0 against 332-350 MB with this, at the same rate.
 * What a database thread allocates (rows on their way out) lives no longer than one batch.
 */
const DATABASE_THREAD_YOUNG_MB = 6;

/**
 * The database port over the native `libsql` addon, for an embedded file or `:memory:`.
 * The addon is synchronous, so its connections live on database threads (database-thread.ts), never
 * on the thread that answers HTTP: a statement that runs long, or a write waiting for a lock held
 * by another process, delays only the batches queued behind it on that connection.
 *
 * A file gets one writer thread (SQLite has one writer at a time; a write batch is one
 * `BEGIN IMMEDIATE ... COMMIT` there) and `readers` reader threads (WAL lets them read while the
 * lock is held, also by another process); a read goes to the reader with the fewest batches
 * waiting. `:memory:` cannot be shared between connections, so it gets one thread that serves both.
 * Each connection keeps its own prepared statements. Statements and rows cross as plain arrays
 * and objects, each SQL text only once per thread (then its number).
 * Statistics count on this side, exactly as one call per batch: a round trip is one `batch`.
 */
export function nativeDatabase(path: string, options: NativeDatabaseOptions = {}): NativeDatabase {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const memory = path === ":memory:";
  let closed = false;
  const workers: Worker[] = [];

  const start = (role: ConnectionRole): ThreadClient => {
    const workerData: ThreadData = { path, role, busyTimeoutMs, readCacheChars: megabytesOfText(options.readCacheMb ?? 0) };
    const worker = startThread(THREAD_FILE, {
      workerData,
      name: `database ${role}`,
      resourceLimits: { maxYoungGenerationSizeMb: DATABASE_THREAD_YOUNG_MB },
    });
    workers.push(worker);
    const client = threadClient(worker, busyTimeoutMs);
    worker.on("error", (error) => client.fail(error));
    worker.on("exit", () => client.fail(new Error(closed ? "the database is closed" : `database ${role} thread exited`)));
    return client;
  };

  const writer = start(memory ? "both" : "writer");
  const readers = memory ? [writer] : Array.from({ length: Math.max(1, options.readers ?? availableParallelism()) }, () => start("reader"));

  /** The reader with the fewest batches waiting (the first such, so a quiet service uses one). */
  const reader = (): ThreadClient => {
    let best = readers[0];
    for (const r of readers) if (r.inFlight < best.inFlight) best = r;
    return best;
  };

  const database = portDatabase({
    send: (kind, payload) => {
      if (closed) return Promise.reject(new Error("the database is closed"));
      return (kind === "read" ? reader() : writer).send(kind, payload);
    },
    close() {
      if (closed) return;
      closed = true;
      for (const worker of workers) {
        // The thread closes its connection after the batches already sent, then ends; a thread
        // stuck in a long statement is ended anyway, so no test or process waits on it.
        worker.postMessage("close");
        setTimeout(() => void worker.terminate(), 2000).unref();
      }
    },
  });
  return {
    ...database,
    writerPort() {
      if (memory || closed) return null;
      const { port1, port2 } = new MessageChannel();
      workers[0].postMessage(["port", port1], [port1]);
      return port2;
    },
  };
}

/** How a Database built by `portDatabase` reaches its connections. */
export interface DatabaseIo {
  send(kind: "read" | "write" | "script", payload: readonly Statement[] | string): Promise<WireResult[] | null> | WireResult[] | null;
  close(): void;
}

/**
 * The Database port over connections reached by `io`: counting, error classification and Kysely,
 * the same for the database threads of the HTTP thread and for an app thread's own reader.
 */
export function portDatabase(io: DatabaseIo): Database {
  /** Runs a batch without counting it (the counted path is `batch`; Kysely's ad-hoc queries are not counted). */
  const run = async (statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> => {
    try {
      const results = await io.send(mode, statements);
      return results!.map(([rows, rowsAffected]) => ({ rows, rowsAffected }));
    } catch (error) {
      throw normalizeDatabaseError(error);
    }
  };
  const { stats, count } = batchCounter();
  return {
    stats,
    kysely: new Kysely<Schemaless>({ dialect: batchDialect(run) }),
    async batch(statements, mode) {
      if (statements.length === 0) return [];
      count(statements, mode);
      return run(statements, mode);
    },
    async executeScript(sql) {
      stats.roundTrips += 1;
      try {
        await io.send("script", sql);
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    close: () => io.close(),
  };
}

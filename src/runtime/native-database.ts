import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { Kysely } from "kysely";
import { batchDialect } from "../db/batch-dialect.ts";
import { normalizeDatabaseError, type Database, type Statement, type StatementResult } from "../db/database.ts";
import type { ConnectionRole, WireResult } from "./native-connection.ts";
import type { SentStatement, ThreadData, ThreadRequest, ThreadResponse } from "./database-thread.ts";

export interface NativeDatabaseOptions {
  /** Longest wait for the write lock, counted from when a batch is sent (DATABASE_BUSY_TIMEOUT). */
  readonly busyTimeoutMs?: number;
  /** Reader threads for a file (default: one per core). `:memory:` always has one thread. */
  readonly readers?: number;
}

/** A database thread and the batches it has not answered yet. */
interface Thread {
  readonly worker: Worker;
  readonly role: ConnectionRole;
  /** Answers awaited from this thread; while any is, the thread keeps the process alive. */
  inFlight: number;
  /** Why the thread cannot serve (it failed to open, or died); later batches fail with it. */
  failed: Error | null;
  /** The number of each SQL text this thread has been sent (it keeps the text; later, the number goes). */
  readonly sqlRefs: Map<string, number>;
  /** The table grew past its bound: the next request tells the thread to forget it. */
  forget: boolean;
}

/** SQL texts a thread keeps by number before both sides start afresh (shapes from `?fields=` are many). */
const SQL_REFS = 2000;

interface Waiter {
  readonly thread: Thread;
  resolve(results: WireResult[] | null): void;
  reject(error: Error): void;
}

const THREAD_FILE = new URL("./database-thread.ts", import.meta.url);

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
export function nativeDatabase(path: string, options: NativeDatabaseOptions = {}): Database {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const memory = path === ":memory:";
  const waiters = new Map<number, Waiter>();
  let nextId = 1;
  let closed = false;

  const start = (role: ConnectionRole): Thread => {
    const workerData: ThreadData = { path, role, busyTimeoutMs };
    const worker = new Worker(THREAD_FILE, { workerData, name: `database ${role}` });
    const thread: Thread = { worker, role, inFlight: 0, failed: null, sqlRefs: new Map(), forget: false };
    // Idle threads never keep the process alive; a thread with answers awaited does (ref in send).
    worker.unref();
    worker.on("message", (message: ThreadResponse | "ready" | ["open", null, ErrorShape]) => {
      if (message === "ready") return;
      const [id, results, error] = message as [number | "open", WireResult[] | null, ErrorShape?];
      if (id === "open") return fail(thread, toError(error!));
      const waiter = waiters.get(id);
      if (!waiter) return;
      waiters.delete(id);
      if (--thread.inFlight === 0) worker.unref();
      if (error) waiter.reject(toError(error));
      else waiter.resolve(results);
    });
    worker.on("error", (error) => fail(thread, error));
    worker.on("exit", () => fail(thread, new Error(closed ? "the database is closed" : `database ${role} thread exited`)));
    return thread;
  };

  /** Fails what a thread still owed; later batches sent to it fail the same way. */
  const fail = (thread: Thread, error: Error) => {
    thread.failed ??= error;
    for (const [id, waiter] of waiters) {
      if (waiter.thread !== thread) continue;
      waiters.delete(id);
      waiter.reject(thread.failed);
    }
    thread.inFlight = 0;
    thread.worker.unref();
  };

  const writer = start(memory ? "both" : "writer");
  const readers = memory ? [writer] : Array.from({ length: Math.max(1, options.readers ?? availableParallelism()) }, () => start("reader"));
  const threads = memory ? [writer] : [writer, ...readers];

  /** The reader with the fewest batches waiting (the first such, so a quiet service uses one). */
  const reader = (): Thread => {
    let best = readers[0];
    for (const r of readers) if (r.inFlight < best.inFlight) best = r;
    return best;
  };

  /** Statements as the thread is sent them: each SQL text once, then its number. */
  const encode = (thread: Thread, statements: readonly Statement[]): SentStatement[] => {
    // Start afresh before the batch, never within it: the thread forgets before reading any of it.
    if (thread.sqlRefs.size + statements.length > SQL_REFS) {
      thread.sqlRefs.clear();
      thread.forget = true;
    }
    return statements.map((s) => {
      const ref = thread.sqlRefs.get(s.sql);
      if (ref !== undefined) return [ref, null, s.parameters];
      const fresh = thread.sqlRefs.size;
      thread.sqlRefs.set(s.sql, fresh);
      return [fresh, s.sql, s.parameters];
    });
  };

  const send = (thread: Thread, kind: ThreadRequest[1], payload: readonly Statement[] | string): Promise<WireResult[] | null> => {
    if (closed) return Promise.reject(new Error("the database is closed"));
    if (thread.failed) return Promise.reject(thread.failed);
    const id = nextId++;
    const body = typeof payload === "string" ? payload : encode(thread, payload);
    // The lock wait is bounded from now, so a write queued behind a waiting one gives up in time too.
    const request = [id, kind, body, Date.now() + busyTimeoutMs, thread.forget] as ThreadRequest;
    thread.forget = false;
    return new Promise((resolve, reject) => {
      try {
        thread.worker.postMessage(request);
      } catch (error) {
        // Not sent (a parameter that cannot be copied): the texts numbered for it never arrived.
        thread.sqlRefs.clear();
        thread.forget = true;
        return reject(error);
      }
      waiters.set(id, { thread, resolve, reject });
      if (thread.inFlight++ === 0) thread.worker.ref();
    });
  };

  /** Runs a batch without counting it (the counted path is `batch`; Kysely's ad-hoc queries are not counted). */
  const run = async (statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> => {
    try {
      const results = await send(mode === "write" ? writer : reader(), mode, statements);
      return results!.map(([rows, rowsAffected]) => ({ rows, rowsAffected }));
    } catch (error) {
      throw normalizeDatabaseError(error);
    }
  };

  const stats = { statements: 0, roundTrips: 0 };
  return {
    stats,
    kysely: new Kysely<any>({ dialect: batchDialect(run) }),
    async batch(statements, mode) {
      if (statements.length === 0) return [];
      stats.statements += statements.length;
      stats.roundTrips += 1;
      return run(statements, mode);
    },
    async executeScript(sql) {
      stats.roundTrips += 1;
      try {
        await send(writer, "script", sql);
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      for (const thread of threads) {
        // The thread closes its connection after the batches already sent, then ends; a thread
        // stuck in a long statement is ended anyway, so no test or process waits on it.
        thread.worker.postMessage("close");
        setTimeout(() => void thread.worker.terminate(), 2000).unref();
      }
    },
  };
}

interface ErrorShape {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** An error from a thread, with the SQLite code the port's classification looks at. */
function toError(shape: ErrorShape): Error {
  const error = Object.assign(new Error(shape.message), shape.code ? { code: shape.code } : {});
  if (shape.name !== "Error") Object.defineProperty(error, "name", { value: shape.name });
  return error;
}

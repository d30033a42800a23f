import type { Statement } from "../db/database.ts";
import type { WireResult } from "./native-connection.ts";
import type { SentStatement, ThreadRequest } from "./database-thread.ts";

/** What a database thread is reached through: its Worker, or a MessagePort its parent handed over. */
export interface ThreadPort {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: unknown) => void): unknown;
  ref(): void;
  unref(): void;
}

interface ErrorShape {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** SQL texts a thread keeps by number before both sides start afresh (shapes from `?fields=` are many). */
const SQL_REFS = 2000;

/**
 * The sending side of one database thread (database-thread.ts): batches go out with each SQL text
 * only once (then its number), answers come back matched by id. While any answer is awaited the
 * port keeps the process alive; an idle one never does.
 */
export function threadClient(port: ThreadPort, busyTimeoutMs: number) {
  const waiters = new Map<number, { resolve(results: WireResult[] | null): void; reject(error: Error): void }>();
  const sqlRefs = new Map<string, number>();
  let forget = false;
  let nextId = 1;
  let failed: Error | null = null;

  port.unref();
  port.on("message", (message: unknown) => {
    if (message === "ready") return;
    const [id, results, error] = message as [number | "open", WireResult[] | null, ErrorShape?];
    if (id === "open") return client.fail(toError(error!));
    const waiter = waiters.get(id);
    if (!waiter) return;
    waiters.delete(id);
    if (waiters.size === 0) port.unref();
    if (error) waiter.reject(toError(error));
    else waiter.resolve(results);
  });

  /** Statements as the thread is sent them: each SQL text once, then its number. */
  const encode = (statements: readonly Statement[]): SentStatement[] => {
    // Start afresh before the batch, never within it: the thread forgets before reading any of it.
    if (sqlRefs.size + statements.length > SQL_REFS) {
      sqlRefs.clear();
      forget = true;
    }
    return statements.map((s) => {
      const ref = sqlRefs.get(s.sql);
      if (ref !== undefined) return [ref, null, s.parameters];
      const fresh = sqlRefs.size;
      sqlRefs.set(s.sql, fresh);
      return [fresh, s.sql, s.parameters];
    });
  };

  const client = {
    /** Batches sent and not answered yet. */
    get inFlight(): number {
      return waiters.size;
    },
    send(kind: ThreadRequest[1], payload: readonly Statement[] | string): Promise<WireResult[] | null> {
      if (failed) return Promise.reject(failed);
      const id = nextId++;
      const body = typeof payload === "string" ? payload : encode(payload);
      // The lock wait is bounded from now, so a write queued behind a waiting one gives up in time too.
      const request = [id, kind, body, Date.now() + busyTimeoutMs, forget] as ThreadRequest;
      forget = false;
      return new Promise((resolve, reject) => {
        try {
          port.postMessage(request);
        } catch (error) {
          // Not sent (a parameter that cannot be copied): the texts numbered for it never arrived.
          sqlRefs.clear();
          forget = true;
          return reject(error);
        }
        if (waiters.size === 0) port.ref();
        waiters.set(id, { resolve, reject });
      });
    },
    /** Fails what the thread still owed (it failed to open, died, or the database closed); later batches fail the same way. */
    fail(error: Error): void {
      failed ??= error;
      for (const waiter of waiters.values()) waiter.reject(failed);
      waiters.clear();
      port.unref();
    },
  };
  return client;
}

export type ThreadClient = ReturnType<typeof threadClient>;

/** An error from a thread, with the SQLite code the port's classification looks at. */
function toError(shape: ErrorShape): Error {
  const error = Object.assign(new Error(shape.message), shape.code ? { code: shape.code } : {});
  if (shape.name !== "Error") Object.defineProperty(error, "name", { value: shape.name });
  return error;
}

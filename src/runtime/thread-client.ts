import { setImmediate } from "node:timers";
import type { Statement } from "../db/database.ts";
import type { WireResult } from "./native-connection.ts";
import type { SentStatement, ThreadRequest, ThreadResponse } from "./database-thread.ts";

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

/** A batch waiting for this turn of the event loop to end, not yet numbered. */
interface Queued {
  readonly id: number;
  readonly kind: ThreadRequest[1];
  readonly payload: readonly Statement[] | string;
  readonly deadline: number;
}

/**
 * The sending side of one database thread (database-thread.ts): batches go out with each SQL text
 * only once (then its number), answers come back matched by id. The batches sent in one turn of
 * the event loop (the requests of every socket it read) go in one message, answered in one:
 * a message costs each side a wake-up, and the HTTP thread spent 12 % of its time serving site
 * details in `postMessage` with one message a batch. While any answer is awaited the port keeps
 * the process alive; an idle one never does.
 */
export function threadClient(port: ThreadPort, busyTimeoutMs: number) {
  const waiters = new Map<number, { resolve(results: WireResult[] | null): void; reject(error: Error): void }>();
  const sqlRefs = new Map<string, number>();
  let forget = false;
  let nextId = 1;
  let failed: Error | null = null;
  let queued: Queued[] = [];

  port.unref();
  port.on("message", (message: unknown) => {
    if (message === "ready") return;
    const [id, results, error] = message as [number | "open" | "answers", WireResult[] | null, ErrorShape?];
    if (id === "open") return client.fail(toError(error!));
    if (id === "answers") {
      for (const answer of results as unknown as ThreadResponse[]) answered(answer);
    } else answered(message as ThreadResponse);
    if (waiters.size === 0) port.unref();
  });

  const answered = ([id, results, error]: ThreadResponse) => {
    const waiter = waiters.get(id);
    if (!waiter) return;
    waiters.delete(id);
    if (error) waiter.reject(toError(error));
    else waiter.resolve(results);
  };

  /** The request of a queued batch, its SQL numbered now (in the order the thread will read them). */
  const request = ({ id, kind, payload, deadline }: Queued): ThreadRequest => {
    const body = typeof payload === "string" ? payload : encode(payload);
    const sent = [id, kind, body, deadline, forget] as ThreadRequest;
    forget = false;
    return sent;
  };

  /** Sends what this turn queued, in one message; on one that cannot be copied, each batch alone. */
  const flush = () => {
    const batches = queued;
    queued = [];
    try {
      port.postMessage(batches.length === 1 ? request(batches[0]) : ["batches", batches.map(request)]);
      return;
    } catch {
      // Not sent: the texts numbered for it never arrived.
      sqlRefs.clear();
      forget = true;
    }
    for (const batch of batches) {
      try {
        port.postMessage(request(batch));
      } catch (error) {
        // Not sent (a parameter that cannot be copied): the texts numbered for it never arrived.
        sqlRefs.clear();
        forget = true;
        const waiter = waiters.get(batch.id);
        waiters.delete(batch.id);
        waiter?.reject(error as Error);
      }
    }
    if (waiters.size === 0) port.unref();
  };

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
      // The lock wait is bounded from now, so a write queued behind a waiting one gives up in time too.
      if (queued.push({ id, kind, payload, deadline: Date.now() + busyTimeoutMs }) === 1) setImmediate(flush);
      return new Promise((resolve, reject) => {
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

/**
 * The body of a database thread (node:worker_threads, which Deno supports too): one native
 * connection, fed batches by native-database.ts. Requests are answered in order; a batch's error
 * travels back as its name, message and SQLite code so the port can classify it (constraint, busy).
 *
 * Besides its parent, the thread serves every MessagePort its parent hands it (`["port", port]`):
 * the writer thread of a file takes the writes of every app thread (app-threads.ts) that way, so a
 * process still has one writer connection, and writes queue here in the order they arrive.
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { nativeConnection, type ConnectionRole, type WireResult, type WireStatement } from "./native-connection.ts";
import { wholeBuffer } from "../lib/buffers.ts";

/**
 * A statement as the port sends it: its SQL's number on this thread, the SQL itself only the
 * first time (a model's select is tens of kilobytes; copying it to the thread for every request
 * cost more than the rest of the message), and its parameters.
 */
export type SentStatement = readonly [ref: number, sql: string | null, parameters: readonly unknown[]];

/**
 * What the port sends: [id, kind, statements or script, deadline in ms since the epoch, forget].
 * `forget`: drop the numbered SQL first (the port numbers afresh, keeping the table bounded).
 */
export type ThreadRequest =
  | readonly [id: number, kind: "read" | "write", statements: readonly SentStatement[], deadline: number, forget: boolean]
  | readonly [id: number, kind: "script", sql: string, deadline: number, forget: boolean];

/** What the thread answers: [id, results] or [id, null, error]. */
export type ThreadResponse =
  | readonly [id: number, results: WireResult[] | null]
  | readonly [id: number, results: null, error: { name: string; message: string; code?: string }];

export interface ThreadData {
  readonly path: string;
  readonly role: ConnectionRole;
  readonly busyTimeoutMs: number;
  /** Characters of rows a reader keeps (READ_CACHE_MB); its rows are copied to the asking thread anyway. */
  readonly readCacheChars: number;
}

const { path, role, busyTimeoutMs, readCacheChars } = workerData as ThreadData;
const parent = parentPort!;
let connection: ReturnType<typeof nativeConnection>;
try {
  connection = nativeConnection(path, role, busyTimeoutMs, { chars: readCacheChars, shared: false });
  parent.postMessage("ready");
} catch (error) {
  // Opening failed (a bad path, a locked file while switching to WAL): the port reports it.
  parent.postMessage(["open", null, describe(error)]);
  throw error;
}

const served: MessagePort[] = [];

/** Answers the batches of one port; each port numbers its own SQL texts. */
function serve(port: MessagePort | typeof parent, onClose?: () => void) {
  const texts = new Map<number, string>();
  const resolve = ([ref, sql, parameters]: SentStatement): WireStatement => {
    if (sql !== null) texts.set(ref, sql);
    return [sql ?? texts.get(ref)!, parameters];
  };
  port.on("message", (request: ThreadRequest | "close" | readonly ["port", MessagePort]) => {
    if (request === "close") return onClose?.();
    if (request[0] === "port") {
      const other = request[1] as MessagePort;
      served.push(other);
      return serve(other);
    }
    const [id, kind, payload, deadline, forget] = request as ThreadRequest;
    if (forget) texts.clear();
    try {
      if (kind === "script") port.postMessage([id, (connection.script(payload, deadline), null)]);
      else {
        const statements = payload.map(resolve);
        const results = kind === "read" ? connection.read(statements) : connection.write(statements, deadline);
        port.postMessage([id, results], ownBuffers(results));
      }
    } catch (error) {
      port.postMessage([id, null, describe(error)]);
    }
  });
}

serve(parent, () => {
  connection.close();
  for (const port of served) port.close();
  parent.close();
});

/**
 * The buffers of the bytes in `results`' one-row results (a long page's text, one-row-read.ts):
 * moved to the asking thread, not copied. Each is a buffer the addon made for that value alone,
 * and no cache keeps it (read-cache.ts keeps no bytes). Results of many rows are not looked at.
 */
function ownBuffers(results: readonly WireResult[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const [rows] of results) {
    if (rows.length !== 1) continue;
    for (const value of Object.values(rows[0])) {
      const whole = value instanceof Uint8Array ? wholeBuffer(value) : null;
      if (whole) buffers.push(whole);
    }
  }
  return buffers;
}

function describe(error: unknown) {
  const e = error as { name?: unknown; message?: unknown; code?: unknown };
  return {
    name: String(e?.name ?? "Error"),
    message: String(e?.message ?? error),
    ...(typeof e?.code === "string" ? { code: e.code } : {}),
  };
}

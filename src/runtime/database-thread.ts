/**
 * The body of a database thread (node:worker_threads, which Deno supports too): one native
 * connection, fed batches by native-database.ts. Requests are answered in order; a batch's error
 * travels back as its name, message and SQLite code so the port can classify it (constraint, busy).
 */
import { parentPort, workerData } from "node:worker_threads";
import { nativeConnection, type ConnectionRole, type WireResult, type WireStatement } from "./native-connection.ts";

/** What the port sends: [id, kind, statements or script, deadline in ms since the epoch]. */
export type ThreadRequest =
  | readonly [id: number, kind: "read", statements: readonly WireStatement[], deadline: number]
  | readonly [id: number, kind: "write", statements: readonly WireStatement[], deadline: number]
  | readonly [id: number, kind: "script", sql: string, deadline: number];

/** What the thread answers: [id, results] or [id, null, error]. */
export type ThreadResponse =
  | readonly [id: number, results: WireResult[] | null]
  | readonly [id: number, results: null, error: { name: string; message: string; code?: string }];

export interface ThreadData {
  readonly path: string;
  readonly role: ConnectionRole;
  readonly busyTimeoutMs: number;
}

const { path, role, busyTimeoutMs } = workerData as ThreadData;
const port = parentPort!;
let connection: ReturnType<typeof nativeConnection>;
try {
  connection = nativeConnection(path, role, busyTimeoutMs);
  port.postMessage("ready");
} catch (error) {
  // Opening failed (a bad path, a locked file while switching to WAL): the port reports it.
  port.postMessage(["open", null, describe(error)]);
  throw error;
}

port.on("message", (request: ThreadRequest | "close") => {
  if (request === "close") {
    connection.close();
    port.close();
    return;
  }
  const [id, kind, payload, deadline] = request;
  try {
    if (kind === "read") port.postMessage([id, connection.read(payload)]);
    else if (kind === "write") port.postMessage([id, connection.write(payload, deadline)]);
    else port.postMessage([id, (connection.script(payload, deadline), null)]);
  } catch (error) {
    port.postMessage([id, null, describe(error)]);
  }
});

function describe(error: unknown) {
  const e = error as { name?: unknown; message?: unknown; code?: unknown };
  return {
    name: String(e?.name ?? "Error"),
    message: String(e?.message ?? error),
    ...(typeof e?.code === "string" ? { code: e.code } : {}),
  };
}

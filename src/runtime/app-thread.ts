/**
 * The body of an app thread (app-threads.ts starts one per WORKERS): the whole application, on a
 * thread that never answers a socket. It reads through a connection of its own, synchronously
 * (a read costs no hop to another thread), and writes through the process's one writer thread,
 * whose port it was given; webhook deliveries it commits go to the HTTP thread's consumer.
 */
import { setPriority } from "node:os";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { createApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { portDatabase } from "./native-database.ts";
import { nativeConnection } from "./native-connection.ts";
import { megabytesOfText } from "./read-cache.ts";
import { threadClient } from "./thread-client.ts";
import { backgroundTasks } from "./background.ts";
import { packageAssets } from "./package-assets.ts";
import { quickAnswer, quickRequest, toAnswer, webRequest, type Answer } from "./node-http.ts";
import { nodeHmac } from "./node-hmac.ts";
import { folderFiles, mediaRoot } from "./folder-files.ts";
import { utf8Bytes } from "../lib/json-text.ts";

export interface AppThreadData {
  readonly env: Record<string, string | undefined>;
  readonly secretKey: string;
  readonly runtime: string;
  /** The database file (never `:memory:`, which one connection alone can hold). */
  readonly path: string;
  readonly writer: MessagePort;
}

/** What the HTTP thread sends: a request, or "close" (finish what runs, then end). */
export type AppThreadRequest =
  | readonly [id: number, method: string, url: string, rawHeaders: readonly string[], clientAddress: string | null, body: Uint8Array | null]
  | "close";

/** What the thread sends back: "ready", an answer with the milliseconds of work it took, or delivery ids to enqueue. */
export type AppThreadMessage =
  | "ready"
  | readonly ["answer", id: number, answer: Answer, ms: number]
  | readonly ["enqueue", ids: readonly number[]];

const { env, secretKey, runtime, path, writer } = workerData as AppThreadData;

/**
 * App threads yield the CPU to the HTTP thread (and the writer): on Linux a thread's nice value is
 * its own, so when every core is busy with requests, the HTTP thread still gets one at once to
 * hand over the next request and to answer the status check, instead of waiting its turn behind
 * them. Where the platform refuses, or applies it to the whole process, nothing is set.
 */
const APP_THREAD_NICE = 5;
if (process.platform === "linux") {
  try {
    setPriority(APP_THREAD_NICE);
  } catch {}
}
const parent = parentPort!;
const config = parseConfig(env);
const reader = nativeConnection(path, "reader", config.DATABASE_BUSY_TIMEOUT, {
  chars: megabytesOfText(config.READ_CACHE_MB),
  shared: true,
});
const writes = threadClient(writer, config.DATABASE_BUSY_TIMEOUT);
const db = portDatabase({
  send: (kind, payload) =>
    kind === "read"
      ? reader.read((payload as { sql: string; parameters: unknown[] }[]).map((s) => [s.sql, s.parameters]))
      : writes.send(kind, payload),
  close() {
    reader.close();
    writer.close();
  },
});
const app = await createApp({ config, secretKey, runtime, hmac: nodeHmac });
const background = backgroundTasks();
const waitUntil = background.waitUntil;
const enqueue = async (ids: readonly number[]) => parent.postMessage(["enqueue", ids]);
const files = folderFiles(mediaRoot(config));

/**
 * Text longer than this crosses to the HTTP thread as UTF-8 bytes, moved rather than copied (the
 * HTTP thread would encode it to write it anyway). A string crosses as a copy into the HTTP
 * thread's heap: under 8 clients reading 1,000-interface pages, then 50-site pages, the service's
 * peak RSS was 442-452 MB with every answer a string and 411-413 MB with this, at the same
 * rate, and 408-417 against 318-324 MB at the end of the 50-site load. Shorter text stays a
 * string: a copy costs less than encoding and moving it.
 */
const MOVED_TEXT = 16 * 1024;

const crossing = (answer: Answer): Answer =>
  typeof answer.body === "string" && answer.body.length > MOVED_TEXT ? { ...answer, body: utf8Bytes([answer.body]), owned: true } : answer;

/**
 * Milliseconds of CPU this thread has used (Node 22.19 and later), else of the clock: what a
 * request costs, for the HTTP thread's choice of where reads of its shape run (request-costs.ts).
 * The clock would count the turns the thread waited for a core, which grow with the load. A read
 * that waits for nothing runs from start to answer without yielding; one that yields may have other
 * requests' work counted, which errs towards keeping its shape on the app threads.
 */
const workTime: () => number =
  typeof process.threadCpuUsage === "function"
    ? () => {
        const { user, system } = process.threadCpuUsage();
        return (user + system) / 1000;
      }
    : () => performance.now();

const SERVER_ERROR = Response.json({ detail: "Server error." }, { status: 500 });

parent.on("message", async (message: AppThreadRequest) => {
  if (message === "close") {
    await background.settled();
    db.close();
    parent.close();
    return;
  }
  const [id, method, url, rawHeaders, clientAddress, body] = message;
  const started = workTime();
  let answer: Answer;
  try {
    const environment = { db, files, clientAddress, waitUntil, enqueue, assets: packageAssets };
    const quick = await app.quick(quickRequest(method, url, rawHeaders, clientAddress), environment);
    answer = quick
      ? quickAnswer(quick)
      : await toAnswer(await app.fetch(webRequest(method, url, rawHeaders, body as Uint8Array<ArrayBuffer> | null), environment));
  } catch (error) {
    console.error("unhandled error serving a request:", error);
    answer = await toAnswer(SERVER_ERROR.clone());
  }
  answer = crossing(answer);
  parent.postMessage(
    ["answer", id, answer, workTime() - started],
    answer.body instanceof Uint8Array ? [answer.body.buffer as ArrayBuffer] : [],
  );
});
parent.postMessage("ready");

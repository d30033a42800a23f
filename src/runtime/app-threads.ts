import type { IncomingMessage } from "node:http";
import type { Worker } from "node:worker_threads";
import { startThread } from "./threads.ts";
import { SEMI_SPACE_MB } from "./start-settings.ts";
import type { AppThreadData, AppThreadMessage, AppThreadRequest } from "./app-thread.ts";
import { bodyLength, detailAnswer, readBody, SERVER_ERROR, type Answer } from "./node-http.ts";
import type { NativeDatabase } from "./native-database.ts";

export interface AppThreadsOptions {
  /** How many app threads (WORKERS). */
  readonly count: number;
  /** Requests one thread works on at once; the rest wait here, first come, first served. */
  readonly perThread: number;
  readonly env: Record<string, string | undefined>;
  readonly secretKey: string;
  readonly runtime: string;
  readonly path: string;
  readonly maxBodySize: number;
  /** The database whose writer thread the app threads write through. */
  readonly db: NativeDatabase;
  /** Takes the webhook deliveries an app thread committed (the HTTP thread's consumer). */
  readonly enqueue: (ids: readonly number[]) => unknown;
  /**
   * Megabytes each thread's old generation may grow to (WORKER_HEAP_MB). Unbounded, V8 let each
   * thread's heap grow far past what it keeps alive: under 8 clients reading 1,000-interface pages
   * the service's peak RSS was 560-645 MB, bounded about 445 MB at the same rate (128, 256, 384 and
   * 512 gave the same peak). A thread that outgrows it ends, its requests answered 500, and is replaced.
   */
  readonly heapMb: number;
}

interface AppThread {
  worker: Worker;
  readonly ready: Promise<void>;
  readonly waiting: Map<number, (answer: Answer, ms?: number) => void>;
  /** It has built its app and answers. */
  serving: boolean;
  /** It exited; a replacement is on its way. */
  gone: boolean;
}

const THREAD_FILE = new URL("./app-thread.ts", import.meta.url);

/**
 * The application on `count` threads, fed by the thread that answers HTTP, which then reads
 * requests and writes answers, and serves itself only the status check, the API root and reads
 * measured light (request-costs.ts): a request's work, its reads included, never delays another
 * thread's, and a heavy one never the HTTP thread. A request goes to the thread with the fewest
 * requests in hand, at most `perThread` each; beyond that it waits here. A thread that dies
 * answers its requests 500 and is replaced.
 */
export function appThreads(options: AppThreadsOptions) {
  const threads: AppThread[] = [];
  const queue: (() => void)[] = [];
  let nextId = 1;
  let closing = false;
  /** Per thread, how many starts in a row ended before it served. */
  const failedStarts: number[] = [];

  const start = (index: number): AppThread => {
    const writer = options.db.writerPort();
    if (!writer) throw new Error("app threads need a database file");
    const workerData: AppThreadData = {
      env: options.env,
      secretKey: options.secretKey,
      runtime: options.runtime,
      path: options.path,
      writer,
    };
    const worker = startThread(THREAD_FILE, {
      workerData,
      transferList: [writer],
      name: `app ${index + 1}`,
      // V8's young generation is its two semi-spaces and a large-object space of the same size.
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB },
    });
    let ready!: () => void;
    let failed!: (error: Error) => void;
    const thread: AppThread = {
      worker,
      ready: new Promise((resolve, reject) => ((ready = resolve), (failed = reject))),
      waiting: new Map(),
      serving: false,
      gone: false,
    };
    // Only the first start's promises are awaited (by `ready()`); a replacement that fails to start
    // is logged below and retried, and its rejection must not end the process as unhandled.
    thread.ready.catch(() => {});
    worker.on("message", (message: AppThreadMessage) => {
      if (message === "ready") {
        thread.serving = true;
        failedStarts[index] = 0;
        ready();
        // Requests may have waited here while no thread could take them.
        for (let i = 0; i < options.perThread; i++) release();
        return;
      }
      if (message[0] === "enqueue") return void options.enqueue(message[1]);
      const [, id, answer, ms] = message;
      const resolve = thread.waiting.get(id);
      thread.waiting.delete(id);
      resolve?.(answer, ms);
    });
    worker.on("error", (error) => {
      failed(error);
      console.error(`app thread ${index + 1} failed:`, error);
    });
    worker.on("exit", () => {
      for (const resolve of thread.waiting.values()) resolve(SERVER_ERROR);
      thread.waiting.clear();
      thread.gone = true;
      if (closing) return;
      // A thread that dies serving is replaced at once; one that cannot even start (its database
      // file gone) is retried ever more slowly, not in a loop.
      const restart = () => void (closing || (threads[index] = start(index)));
      if (thread.serving) return restart();
      failedStarts[index] = (failedStarts[index] ?? 0) + 1;
      setTimeout(restart, Math.min(30_000, 250 * 2 ** failedStarts[index])).unref();
    });
    return thread;
  };
  for (let i = 0; i < options.count; i++) threads.push(start(i));

  /** The thread with the fewest requests in hand, if one has room. */
  const free = (): AppThread | null => {
    let best: AppThread | null = null;
    for (const t of threads) {
      if (!t.gone && t.waiting.size < options.perThread && (!best || t.waiting.size < best.waiting.size)) best = t;
    }
    return best;
  };

  const release = () => queue.shift()?.();

  return {
    /** Resolves once every thread has built its app (or rejects with the first that could not). */
    ready: (): Promise<unknown> => Promise.all(threads.map((t) => t.ready)),

    /** Serves a request on the thread with the fewest in hand; `took` learns how long the thread worked on it and how long its answer is. */
    async serve(req: IncomingMessage, url: string, took?: (ms: number, bytes: number) => void): Promise<Answer> {
      let body: Uint8Array | null;
      try {
        body = await readBody(req, options.maxBodySize);
      } catch {
        // The client went away mid-upload: its fault, not the server's, and no one reads the answer.
        return detailAnswer(400, "The request body was not received in full.");
      }
      let thread = queue.length ? null : free();
      // Woken but overtaken by a newcomer: back to the head of the line, not its end.
      for (let first = true; !thread; first = false) {
        await new Promise<void>((resolve) => (first ? queue.push(resolve) : queue.unshift(resolve)));
        thread = free();
      }
      const id = nextId++;
      const target = thread;
      const answered = new Promise<Answer>((resolve) =>
        target.waiting.set(id, (answer, ms) => {
          if (ms !== undefined) took?.(ms, bodyLength(answer.body));
          resolve(answer);
        }),
      );
      const request: AppThreadRequest = [id, req.method ?? "GET", url, req.rawHeaders, req.socket.remoteAddress ?? null, body];
      target.worker.postMessage(request, body ? [body.buffer as ArrayBuffer] : []);
      try {
        return await answered;
      } finally {
        release();
      }
    },

    /** Lets each thread finish its requests and background work, then ends it. */
    async close(): Promise<void> {
      closing = true;
      await Promise.all(
        threads.map(async (t) => {
          const exited = new Promise((resolve) => t.worker.once("exit", resolve));
          t.worker.postMessage("close");
          const timer = setTimeout(() => void t.worker.terminate(), 5000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}

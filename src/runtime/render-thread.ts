import type { Worker } from "node:worker_threads";
import { startThread } from "./threads.ts";
import type { Rendered, RenderJob } from "../apps/extras/render.ts";

/** Renders webhook requests on a worker thread; `close()` ends the thread. */
export interface RenderThread {
  render(job: RenderJob): Promise<Rendered>;
  close(): Promise<void>;
}

interface Pending {
  readonly id: number;
  readonly job: RenderJob;
  resolve(value: Rendered): void;
  reject(error: Error): void;
}

/** What the worker answers (src/runtime/render-worker.ts). */
type Answer = { id: number; ok: true; value: Rendered } | { id: number; ok: false; error: string };
// ... and "ready", once its modules are loaded.

/**
 * The in-process consumer's renderer (Node, Deno): templates a writer controls run on one worker
 * thread, so however long a render takes, the thread answering HTTP does not wait for it. Jobs go
 * to the worker as they come and it renders them in order, so the oldest unanswered job is the
 * one running: it alone gets `timeLimitMs`, counted from when it reached the head of a ready
 * thread. Past that (or should the thread die, out of its heap limit), the thread is terminated,
 * that job fails, and the jobs behind it go to a fresh thread.
 */
export function renderThread(options: { readonly timeLimitMs: number; readonly heapMb?: number }): RenderThread {
  const pending: Pending[] = [];
  let worker: Worker | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let next = 0;
  // Loading the thread's modules is not the job's time: its clock starts once the thread is ready.
  let ready = false;

  const watchHead = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending.length || !ready) return;
    timer = setTimeout(
      () => fail(`rendering took longer than ${options.timeLimitMs / 1000} s; stopped, nothing sent`),
      options.timeLimitMs,
    );
    timer.unref?.();
  };

  /** Ends the thread, fails the job it was on, and hands the rest to a new one. */
  const fail = (reason: string) => {
    const stuck = worker;
    worker = null;
    ready = false;
    void stuck?.terminate();
    pending.shift()?.reject(new Error(reason));
    if (pending.length) {
      const w = start();
      for (const p of pending) w.postMessage({ id: p.id, job: p.job });
    }
    watchHead();
  };

  const start = (): Worker => {
    const w = startThread(new URL("./render-worker.ts", import.meta.url), {
      // Two 2 MB semi-spaces and their large-object space: what it had while the HTTP thread's
      // flag sized every isolate's (start-settings.ts); a page's render lives no longer than its job.
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 256, maxYoungGenerationSizeMb: 6 },
    });
    w.unref();
    w.on("message", (answer: Answer | "ready") => {
      // A terminated thread's last words are not about the current jobs.
      if (worker !== w) return;
      if (answer === "ready") {
        ready = true;
        return watchHead();
      }
      const i = pending.findIndex((p) => p.id === answer.id);
      if (i < 0) return;
      const [p] = pending.splice(i, 1);
      if (answer.ok) p.resolve(answer.value);
      else p.reject(new Error(answer.error));
      if (i === 0) watchHead();
    });
    w.on("error", (error) => {
      if (worker === w) fail(`the render thread stopped: ${error.message}`);
    });
    w.on("exit", () => {
      if (worker === w) fail("the render thread exited");
    });
    worker = w;
    return w;
  };

  return {
    render(job) {
      return new Promise<Rendered>((resolve, reject) => {
        const id = ++next;
        pending.push({ id, job, resolve, reject });
        (worker ?? start()).postMessage({ id, job });
        if (pending.length === 1) watchHead();
      });
    },
    async close() {
      if (timer) clearTimeout(timer);
      const w = worker;
      worker = null;
      ready = false;
      for (const p of pending.splice(0)) p.reject(new Error("the render thread was closed"));
      await w?.terminate();
    },
  };
}

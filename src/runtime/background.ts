import type { App } from "../app.ts";
import type { Database } from "../db/database.ts";
import type { FileStore } from "../lib/file-store.ts";
import { createLocalQueue, type LocalQueue } from "../events/local-queue.ts";
import { insecureFetch } from "./insecure-fetch.ts";
import { renderThread } from "./render-thread.ts";
import { claimerIsDead, processClaimer } from "./claimer.ts";

/**
 * Work a response leaves running (token last-use updates), for the long-lived Node and Deno
 * processes: failures are logged, and `settled()` lets a shutdown wait for what is still running.
 */
export function backgroundTasks() {
  const pending = new Set<Promise<unknown>>();
  return {
    waitUntil(promise: Promise<unknown>): void {
      const tracked: Promise<unknown> = promise
        .catch((error) => console.error("background task failed:", error))
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    settled: (): Promise<unknown> => Promise.allSettled(pending),
  };
}

/**
 * The in-process webhook consumer of a Node or Deno server: fed after each commit, and at start
 * with every due run, once the claims of a dead predecessor (killed mid-delivery) are taken back,
 * so a restart resends them at once rather than after their leases; then swept every
 * WEBHOOK_SWEEP_INTERVAL seconds (the sweep also removes replaced and deleted images' files). Templates render on a worker thread, each within WEBHOOK_TIMEOUT
 * (the time an attempt's request gets), so a hostile one never holds up the API's answers;
 * stopping the queue ends the thread.
 */
export function localDeliveryQueue(app: App, db: Database, files?: FileStore): LocalQueue {
  const renderer = renderThread({ timeLimitMs: app.config.WEBHOOK_TIMEOUT * 1000 });
  const claimer = processClaimer();
  const deliverer = app.deliverer(db, { insecureFetch, render: renderer.render, claimer });
  const queue = createLocalQueue({
    deliver: deliverer.deliver,
    sweep: () => app.sweep(db, undefined, files),
    concurrency: app.config.WEBHOOK_CONCURRENCY,
    sweepIntervalMs: app.config.WEBHOOK_SWEEP_INTERVAL * 1000,
  });
  app
    .recover(db, (other) => claimerIsDead(other, claimer))
    .then(queue.push, (error) => console.error("webhook recovery at start failed:", error));
  return {
    ...queue,
    async stop() {
      await queue.stop();
      await renderer.close();
    },
  };
}

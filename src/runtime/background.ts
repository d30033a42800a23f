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

import { availableParallelism } from "node:os";

/**
 * How many requests the Node server works on at once. Beyond the database threads' capacity more
 * concurrency only lengthens the queue of finished database work waiting for the one HTTP thread,
 * and a cheap request arriving then waits behind all of it; a waiting request costs nothing here.
 */
export const ADMITTED = 4 * availableParallelism();

/**
 * Requests an app thread works on at once (app-threads.ts). Its reads are synchronous, so more in
 * hand only overlap its writes, which wait for the writer thread; the rest wait on the HTTP
 * thread, where waiting costs nothing, rather than behind a busy thread while another is free.
 */
export const PER_THREAD = 4;

/**
 * Requests never queued behind the load: the status check that monitors and load balancers
 * poll, and the API root, which read nothing. The HTTP thread serves them itself, with app threads
 * or without (then past the gate).
 */
const PRIORITY = new Set(["/api/status/", "/api/"]);

export const isPriority = (method: string | undefined, url: string | undefined): boolean =>
  (method === "GET" || method === "HEAD") && PRIORITY.has((url ?? "").split("?")[0]);

/** A first-come first-served gate admitting at most `limit` tasks at a time. */
export function admission(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `active` counts it throughout.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

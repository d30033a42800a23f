import { availableParallelism } from "node:os";

/**
 * How many requests the Node server works on at once. Beyond the database threads' capacity more
 * concurrency only lengthens the queue of finished database work waiting for the one HTTP thread,
 * and a cheap request arriving then waits behind all of it; a waiting request costs nothing here.
 */
export const ADMITTED = 4 * availableParallelism();

/**
 * Requests never queued behind the load: the status check that monitors and load balancers
 * poll, and the API root, which read nothing. Beside 50 clients the status p99 went from about
 * 100 ms to under 40 ms with this gate and lane (`npm run bench -- --database-only 1`).
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

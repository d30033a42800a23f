/** Runs `fn` after the I/O events already waiting (Node, Deno), or on the next timer turn (Workers). */
const later: (fn: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (fn) => void (globalThis as unknown as { setImmediate: (f: () => void) => unknown }).setImmediate(fn)
    : (fn) => void setTimeout(fn, 0);

/**
 * Group commit: calls made about the same time (or while the previous group runs) are handed to
 * `run` together, so a burst of deliveries costs one statement per step, not one per delivery,
 * while a lone call waits no more than a turn of the event loop. `run` returns one result per
 * item, in order; if it throws, every call of the group rejects.
 */
export function batcher<T, R>(run: (items: T[]) => Promise<R[]>, max = 256): (item: T) => Promise<R> {
  let waiting: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let busy = false;

  const flush = async () => {
    const group = waiting.slice(0, max);
    waiting = waiting.slice(max);
    try {
      const results = await run(group.map((g) => g.item));
      group.forEach((g, i) => g.resolve(results[i]));
    } catch (error) {
      group.forEach((g) => g.reject(error));
    } finally {
      if (waiting.length) later(() => void flush());
      else busy = false;
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (busy) return;
      busy = true;
      later(() => void flush());
    });
}

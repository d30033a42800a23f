/**
 * Which reads the HTTP thread serves itself, by what requests of their shape have cost.
 *
 * Handing a request to an app thread and its answer back costs CPU on both sides, and while the app
 * threads and the HTTP thread are all busy they share the cores by preempting each other, which
 * costs more. For a read that takes a fraction of a millisecond that is most of its cost: on two
 * cores at 8 clients, site detail took 0.37-0.56 ms of CPU per request through two app threads
 * (0.09 of it the app's work) and 0.25-0.26 served on the HTTP thread, its reads on a database
 * thread, at 5,300-5,600 req/s against 4,400. A read of several milliseconds is
 * better off on an app thread, where it runs beside the others instead of delaying the HTTP thread.
 * So the HTTP thread serves a read itself when reads of its shape have taken under `LIGHT_MS` of an
 * app thread's CPU and answered under `LIGHT_BYTES`, a few at a time (the admission gate);
 * everything else, and every shape not yet measured, goes to the app threads, which report each
 * request's time and answer. One light read in `RESAMPLE` still goes there, so a shape that grew
 * heavy (its table grew) is noticed.
 */

/** App-thread milliseconds under which a shape of read is served on the HTTP thread. */
export const LIGHT_MS = 1;

/**
 * Bytes of answer from which a shape of read is served on an app thread whatever its time. On
 * the HTTP thread a read's rows cross from its database thread as a copy into that thread's heap
 * and are made into the answer there; an app thread reads them itself and hands over the finished
 * answer, its bytes moved. A tenant's page of 50 devices (94 KB, 0.86 ms on an app thread) came
 * to 899-943 pages a second at 4 clients served on the HTTP thread and to 1,597-1,655 on app
 * threads; answers of 13-42 KB (a device's interfaces, addresses by parent, 50 sites) were served
 * as fast either way, and smaller ones faster on the HTTP thread (interleaved runs, wrk).
 */
export const LIGHT_BYTES = 64 * 1024;

/** Of a light shape's reads, one in this many is measured again on an app thread. */
export const RESAMPLE = 32;

/**
 * Milliseconds a read served on the HTTP thread may take, from admission to answer, before its
 * shape counts as heavy. Reads of one shape can differ in cost (a count under a /8 or a /30, a
 * far offset): one that runs long there holds the HTTP thread's one database reader, and the
 * status check's reads queue behind it. Light reads at 50 clients finish far under this.
 */
export const SLOW_HERE_MS = 20;

/** Shapes remembered; the book starts over beyond this (shapes are few, but the client chooses them). */
const SHAPES_KEPT = 2000;

/** A query parameter whose value changes a read's cost as much as its name does. */
const SIZING = new Set(["limit", "brief", "fields", "omit", "exclude"]);

/**
 * What a read's cost depends on, without what varies between otherwise equal reads: the path with
 * its numbers as `#` (one object as another), its query's parameter names, and the value of those
 * that size the answer (a page of 1,000 costs what 20 pages of 50 do). Null for a write, which
 * always goes to an app thread.
 */
export function readShape(method = "GET", target = "/"): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const at = target.indexOf("?");
  const path = (at < 0 ? target : target.slice(0, at)).replace(/\/\d+(?=\/|$)/g, "/#");
  if (at < 0) return `${method} ${path}`;
  const parts: string[] = [];
  for (const [name, value] of new URLSearchParams(target.slice(at + 1))) parts.push(SIZING.has(name) ? `${name}=${value}` : name);
  return `${method} ${path}?${parts.sort().join("&")}`;
}

/** The app-thread time and answer size of each shape of read, as moving averages of its latest measurements. */
export function costBook() {
  const costs = new Map<string, { ms: number; bytes: number; served: number }>();
  /** What a read of this shape took on an app thread, and how long its answer was. */
  const record = (shape: string, ms: number, bytes = 0): void => {
    const cost = costs.get(shape);
    if (cost) {
      cost.ms += (ms - cost.ms) / 4;
      cost.bytes += (bytes - cost.bytes) / 4;
    } else {
      if (costs.size >= SHAPES_KEPT) costs.clear();
      costs.set(shape, { ms, bytes, served: 0 });
    }
  };
  return {
    /** Whether a read of this shape is light enough for the HTTP thread (false: measure it on an app thread). */
    light(shape: string): boolean {
      const cost = costs.get(shape);
      if (!cost || cost.ms >= LIGHT_MS || cost.bytes >= LIGHT_BYTES) return false;
      return ++cost.served % RESAMPLE !== 0;
    },
    record,
    /**
     * What a read served on the HTTP thread took from admission to answer, its waits for the
     * database reader included: past `SLOW_HERE_MS` its shape is measured on app threads again
     * until its average is back under `LIGHT_MS`.
     */
    servedHere(shape: string, ms: number): void {
      if (ms > SLOW_HERE_MS) record(shape, ms, costs.get(shape)?.bytes);
    },
  };
}

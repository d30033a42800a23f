import type { Outcome } from "./delivery-types.ts";

/** The in-process consumer's queue (Node, Deno): the same delivery code the Workers consumer runs. */
export interface LocalQueue {
  /** Takes committed delivery ids; sends them in the background. */
  push(ids: readonly number[]): Promise<void>;
  /** Runs the sweep now and enqueues what it finds. */
  sweepNow(): Promise<void>;
  /** Resolves when nothing is waiting or being sent (scheduled retries aside). */
  drain(): Promise<void>;
  /** Holds what is pushed without sending it (what is in flight finishes), until `resume()`. */
  pause(): void;
  resume(): void;
  /** Stops the timers and waits for the deliveries in flight. */
  stop(): Promise<void>;
}

export interface LocalQueueOptions {
  deliver(id: number): Promise<Outcome>;
  sweep(): Promise<number[]>;
  readonly concurrency: number;
  /** Milliseconds between sweeps; 0: no timer (tests sweep by hand). */
  readonly sweepIntervalMs: number;
}

/**
 * Fed after each commit and by the sweep on a timer. Nothing is kept only in memory: every
 * delivery is a `queued` row until it is recorded, so after a crash or restart the sweep finds
 * what was waiting or in flight and sends it.
 */
export function createLocalQueue(options: LocalQueueOptions): LocalQueue {
  const waiting: number[] = [];
  const queued = new Set<number>();
  const running = new Set<number>();
  // Pushed while being attempted: it goes once more when this attempt ends, for the attempt may
  // have found its run waiting for an earlier one that settled since and named it `next`.
  const again = new Set<number>();
  const retries = new Set<ReturnType<typeof setTimeout>>();
  let active = 0;
  let idle: (() => void)[] = [];
  let stopped = false;
  let paused = false;

  const settleIdle = () => {
    if (active || (waiting.length && !paused)) return;
    const callbacks = idle;
    idle = [];
    callbacks.forEach((f) => f());
  };

  const run = async (id: number) => {
    try {
      const outcome = await options.deliver(id);
      // Its webhook's next event of the same object waited for this run to settle.
      if (outcome.kind === "done" && outcome.next !== undefined) void push([outcome.next]);
      if (outcome.kind === "retry" && !stopped) {
        const timer = setTimeout(() => {
          retries.delete(timer);
          void push([id]);
        }, outcome.delaySeconds * 1000);
        retries.add(timer);
      }
    } catch (error) {
      // The run stays queued; the sweep takes it again once its lease runs out.
      console.error(`webhook delivery ${id} could not be processed:`, error);
    } finally {
      running.delete(id);
      active--;
      if (again.delete(id)) void push([id]);
      pump();
      settleIdle();
    }
  };

  const pump = () => {
    while (!stopped && !paused && active < options.concurrency && waiting.length) {
      active++;
      const id = waiting.shift()!;
      queued.delete(id);
      running.add(id);
      void run(id);
    }
  };

  const push = async (ids: readonly number[]) => {
    for (const id of ids) {
      if (running.has(id)) again.add(id);
      if (running.has(id) || queued.has(id)) continue;
      queued.add(id);
      waiting.push(id);
    }
    pump();
  };

  const sweepNow = async () => {
    try {
      await push(await options.sweep());
    } catch (error) {
      console.error("webhook sweep failed:", error);
    }
  };

  const timer = options.sweepIntervalMs > 0 ? setInterval(() => void sweepNow(), options.sweepIntervalMs) : null;
  (timer as { unref?: () => void } | null)?.unref?.();

  return {
    push,
    sweepNow,
    drain: () =>
      new Promise<void>((resolve) => {
        idle.push(resolve);
        settleIdle();
      }),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      pump();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      retries.forEach((t) => clearTimeout(t));
      waiting.length = 0;
      queued.clear();
      await new Promise<void>((resolve) => {
        idle.push(resolve);
        settleIdle();
      });
    },
  };
}

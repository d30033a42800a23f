import type { Actor } from "../schema/actor.ts";
import { readBatch } from "./unit-of-work.ts";
import type { Probe } from "../schema/hooks.ts";

/** Runs every probe in one read round trip, then settles each with its own result. */
export async function runProbes(ctx: Actor, probes: readonly Probe[]): Promise<void> {
  if (probes.length === 0) return;
  const results = await readBatch(
    ctx,
    probes.map((p) => p.statement),
  );
  probes.forEach((p, i) => p.settle(results[i]));
}

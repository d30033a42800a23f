import type { Statement, StatementResult } from "../db/database.ts";
import type { RequestContext } from "../http/context.ts";
import { readBatch } from "../auth/authenticate.ts";

/** A read a write depends on, with what to do with its result. */
export interface Probe {
  readonly statement: Statement;
  readonly settle: (result: StatementResult) => void;
}

/** Runs every probe in one read round trip, then settles each with its own result. */
export async function runProbes(ctx: RequestContext, probes: readonly Probe[]): Promise<void> {
  if (probes.length === 0) return;
  const results = await readBatch(
    ctx,
    probes.map((p) => p.statement),
  );
  probes.forEach((p, i) => p.settle(results[i]));
}

import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { Rendered, RenderJob } from "../apps/extras/render.ts";

/*
 * What the delivery pipeline (deliver.ts, runs.ts, event-data.ts) is given and gives back, in a
 * file of its own so that those three import it and not each other in a circle.
 */

/** What the queue does with a delivery's message after an attempt. */
export type Outcome =
  /** Settled or not to be sent; `next`: the run of the same webhook and object that waited for this one, to send now. */
  | { readonly kind: "done"; readonly next?: number }
  /** Failed, and the retry policy allows another attempt after this many seconds. */
  | { readonly kind: "retry"; readonly delaySeconds: number };

export interface DeliveryDependencies {
  readonly db: Database;
  readonly config: Config;
  readonly secrets: Secrets;
  /** The fetch to send with (default: the runtime's). */
  readonly fetch?: typeof fetch;
  /** A fetch that skips TLS verification, where the runtime allows one (Node); else verification stays on. */
  readonly insecureFetch?: typeof fetch;
  /**
   * Renders a request's templates: off the thread that answers HTTP where the runtime can (a
   * worker thread on Node and Deno, with a time limit); inline by default (Workers, whose
   * consumer runs in its own invocation), always within WEBHOOK_RENDER_MAX_SIZE.
   */
  readonly render?: (job: RenderJob) => Promise<Rendered>;
  /** Who claims (a Node or Deno process, see src/runtime/claimer.ts); none on Workers, whose claims only expire. */
  readonly claimer?: string;
}

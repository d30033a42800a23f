import type { Config } from "../config.ts";
import { apiRoot } from "./roots.ts";
import { remembered } from "../lib/memo.ts";
import type { PlainRequest, QuickAnswer } from "./quick-request.ts";

/** Origins whose API root is kept; past this the set starts over (the client names the host). */
const ORIGINS_KEPT = 64;

/**
 * `GET /api/`, answered without building a Request, a Response or a route: it is every client's
 * first request (pynetbox and Ansible read API-Version from it) and it reads nothing, so at load
 * the pipeline's own cost was all of its cost (0.2 of a constant answer's throughput). Only a
 * plain request (quick-request.ts) with no query is answered here; anything else returns null and
 * takes the pipeline, which answers it as it always has; `test/quick-root.test.ts` holds the two
 * to the same answer.
 */
export function quickRoot(config: Config) {
  const bodies = new Map<string, string>();
  return (plain: PlainRequest): QuickAnswer | null => {
    if (plain.path !== "/api/" || plain.query !== "") return null;
    return {
      status: 200,
      headers: {
        allow: "GET, HEAD, OPTIONS",
        "api-version": config.API_VERSION,
        "content-type": "application/json",
        vary: "Accept",
        "x-request-id": crypto.randomUUID(),
      },
      body: remembered(bodies, plain.origin, () => JSON.stringify(apiRoot({ origin: plain.origin })), ORIGINS_KEPT),
    };
  };
}

import type { Config } from "../config.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { AuthCache } from "../schema/actor.ts";
import { acceptedFromCache, tokenKeyOf } from "../auth/authenticate.ts";
import { acceptsHtml } from "../ui/html.ts";
import { hostProblem } from "./host.ts";
import { apiRoot } from "./roots.ts";
import { remembered } from "../lib/memo.ts";

/** A request as an entry has it before any web Request is made: enough to tell whether it can be answered at once. */
export interface QuickRequest {
  readonly method: string;
  /** The listen address joined with the request's path and query, as `App.fetch`'s Request has it. */
  readonly url: string;
  /** A header's value by its lowercase name (node:http joins repeated ones), undefined when absent. */
  header(name: string): string | undefined;
  readonly clientAddress: string | null;
}

/** An answer made without the pipeline: status, lowercase headers and a JSON body. */
export interface QuickAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Hosts whose API root (or refusal) is kept; past this the set starts over (the client names the host). */
const HOSTS_KEPT = 64;

/**
 * `GET /api/`, answered without building a Request, a Response or a route: it is every client's
 * first request (pynetbox and Ansible read API-Version from it) and it reads nothing, so at load
 * the pipeline's own cost was all of its cost (0.2 of a constant answer's throughput). Only the
 * plain case is answered here: a host ALLOWED_HOSTS accepts, JSON wanted, no query, no session
 * cookie, and no token or one the cache accepts as it stands. Anything else returns null and takes
 * the pipeline, which answers it as it always has; `test/quick-root.test.ts` holds the two to the
 * same answer.
 */
export function quickRoot(config: Config, secrets: Secrets, authCache: AuthCache) {
  // By origin, null for a host ALLOWED_HOSTS refuses (the pipeline then answers its 400).
  const bodies = new Map<string, string | null>();
  const bodyFor = (origin: string, host: string): string | null =>
    remembered(
      bodies,
      origin,
      () => (hostProblem(host, config.ALLOWED_HOSTS) === null ? JSON.stringify(apiRoot({ origin })) : null),
      HOSTS_KEPT,
    );
  return async (request: QuickRequest): Promise<QuickAnswer | null> => {
    if (request.method !== "GET") return null;
    const { url } = request;
    const scheme = url.indexOf("://");
    const path = url.indexOf("/", scheme + 3);
    if (scheme < 0 || path < 0 || url.slice(path) !== "/api/") return null;
    const host = request.header("host");
    if (host === undefined || request.header("cookie") !== undefined || acceptsHtml(request.header("accept") ?? "")) return null;
    const authorization = request.header("authorization");
    if (authorization !== undefined && !(await acceptedToken(authorization, request.clientAddress))) return null;
    const body = bodyFor(`${url.slice(0, scheme)}://${host}`, host);
    if (body === null) return null;
    return {
      status: 200,
      headers: {
        allow: "GET, HEAD, OPTIONS",
        "api-version": config.API_VERSION,
        "content-type": "application/json",
        vary: "Accept",
        "x-request-id": crypto.randomUUID(),
      },
      body,
    };
  };

  /** Whether the header presents a token the cache accepts as it stands; another scheme is anonymous, as in `authenticate`. */
  async function acceptedToken(header: string, clientAddress: string | null): Promise<boolean> {
    let key: string | null;
    try {
      key = tokenKeyOf(header);
    } catch {
      return false;
    }
    if (key === null) return true;
    return acceptedFromCache(authCache, await secrets.tokenDigest(key), clientAddress, Date.now()) !== null;
  }
}

import type { Config } from "../config.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { AuthCache, CachedToken } from "../schema/actor.ts";
import { acceptedFromCache, tokenKeyOf } from "../auth/authenticate.ts";
import { acceptsHtml } from "../ui/html.ts";
import { hostProblem } from "./host.ts";
import { clientAddressOf } from "./client-address.ts";
import { remembered } from "../lib/memo.ts";

/** A request as an entry has it before any web Request is made: enough to tell whether it can be answered at once. */
export interface QuickRequest {
  readonly method: string;
  /** The listen address joined with the request's path and query, as `App.fetch`'s Request has it. */
  readonly url: string;
  /** A header's value by its lowercase name (node:http joins repeated ones), undefined when absent. */
  header(name: string): string | undefined;
  /** The socket peer. */
  readonly clientAddress: string | null;
}

/** An answer made without the pipeline: status, lowercase headers and a JSON body (text, or its UTF-8 bytes when long). */
export interface QuickAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array<ArrayBuffer>;
}

/**
 * A GET the pipeline would serve as plain JSON, and who asks: the origin the client addressed (a
 * host ALLOWED_HOSTS accepts), the path and query, the client's address as the pipeline reads it,
 * and the cached token it presents (null: anonymous).
 */
export interface PlainRequest {
  readonly origin: string;
  readonly path: string;
  /** The query string without its `?`; empty when there is none. */
  readonly query: string;
  readonly clientAddress: string | null;
  readonly token: CachedToken | null;
}

/** Hosts whose check is kept; past this the set starts over (the client names the host). */
const HOSTS_KEPT = 64;

/**
 * Tells a plain request from every other: a GET with a host ALLOWED_HOSTS accepts, JSON wanted
 * (no browser's Accept), no session cookie, and no credentials or a token the cache accepts as it
 * stands (known, not expired, from an allowed address, no `last_used` due to be written). Null
 * for anything else, which the pipeline then serves as it always has, refusals included.
 */
export function plainRequests(config: Config, secrets: Secrets, authCache: AuthCache) {
  const hosts = new Map<string, boolean>();
  const allowed = (host: string): boolean => remembered(hosts, host, () => hostProblem(host, config.ALLOWED_HOSTS) === null, HOSTS_KEPT);
  return async (request: QuickRequest): Promise<PlainRequest | null> => {
    if (request.method !== "GET") return null;
    const { url } = request;
    const scheme = url.indexOf("://");
    const at = scheme < 0 ? -1 : url.indexOf("/", scheme + 3);
    if (at < 0) return null;
    const host = request.header("host");
    if (host === undefined || !allowed(host) || request.header("cookie") !== undefined || acceptsHtml(request.header("accept") ?? "")) {
      return null;
    }
    const clientAddress = clientAddressOf(request.header("x-forwarded-for"), request.clientAddress, config.TRUSTED_PROXIES);
    let token: CachedToken | null = null;
    const authorization = request.header("authorization");
    if (authorization !== undefined) {
      let key: string | null;
      try {
        key = tokenKeyOf(authorization);
      } catch {
        return null;
      }
      if (key !== null) {
        token = acceptedFromCache(authCache, await secrets.tokenDigest(key), clientAddress, Date.now());
        if (token === null) return null;
      }
    }
    const mark = url.indexOf("?", at);
    return {
      origin: `${url.slice(0, scheme)}://${host}`,
      path: mark < 0 ? url.slice(at) : url.slice(at, mark),
      query: mark < 0 ? "" : url.slice(mark + 1),
      clientAddress,
      token,
    };
  };
}

export type PlainRequests = ReturnType<typeof plainRequests>;

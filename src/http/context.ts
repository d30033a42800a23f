import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { AuthCache } from "../auth/authenticate.ts";
import type { Grant } from "../engine/permissions.ts";

/** The user a request acts as. */
export interface User {
  readonly id: number;
  readonly username: string;
  readonly is_superuser: boolean;
  readonly is_active: boolean;
  /** The user's enabled object permissions, direct and through groups. */
  readonly grants: readonly Grant[];
}

/** The token that authenticated a request. */
export interface AuthToken {
  readonly id: number;
  readonly write_enabled: boolean;
}

/** Everything a handler knows about the request it serves. One per request; never shared. */
export interface RequestContext {
  /** The request, for its method and headers; its body is read through `body` only. */
  readonly request: Request;
  /**
   * The body as text, read from the stream by the pipeline on the first call (within
   * MAX_BODY_SIZE, else 413) and the same text on every later one, also when the request is served
   * again after its cached credentials went stale. Handlers never read the stream themselves.
   */
  readonly body: () => Promise<string>;
  readonly url: URL;
  /** `scheme://host` of the request, for absolute URLs in responses. */
  readonly origin: string;
  readonly requestId: string;
  /** The request's clock: every timestamp one request writes is the same. */
  readonly now: Date;
  readonly config: Config;
  readonly db: Database;
  readonly secrets: Secrets;
  /** The client address (socket peer on Node/Deno, CF-Connecting-IP on Workers), when known. */
  readonly clientAddress: string | null;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /** Hands committed webhook deliveries to the queue (Cloudflare Queues, or the in-process consumer). */
  readonly enqueue: (deliveryIds: readonly number[]) => Promise<void>;
  user: User | null;
  token: AuthToken | null;
  /** The auth version the request's identity was read at (every batch re-checks it), and whether it came from the cache. */
  auth: { readonly version: number; readonly cached: boolean } | null;
  /** Token data kept between requests of this process or isolate (absent: no caching). */
  readonly authCache?: AuthCache;
  /** Plain token keys created by this request, by digest: shown once in the create response. */
  readonly revealedKeys: Map<string, string>;
}

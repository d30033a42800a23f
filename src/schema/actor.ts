import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { FileStore } from "../lib/file-store.ts";

/** NetBox's four model actions, or a custom one a permission names (`retry`, `grant`). */
export type Action = "view" | "add" | "change" | "delete" | (string & {});

/** Constraints of one permission: each object's keys are ANDed, the objects ORed. */
export type Constraints = readonly Record<string, unknown>[];

/** One object permission as the engine applies it. */
export interface Grant {
  readonly objectTypes: readonly string[];
  readonly actions: readonly string[];
  /** Null: every object of the types. */
  readonly constraints: Constraints | null;
}

/** The user an actor acts as. */
export interface User {
  readonly id: number;
  readonly username: string;
  readonly is_superuser: boolean;
  readonly is_active: boolean;
  /** The user's enabled object permissions, direct and through groups. */
  readonly grants: readonly Grant[];
}

/** The token that authenticated an actor. */
export interface AuthToken {
  readonly id: number;
  readonly write_enabled: boolean;
}

/**
 * Every object type that has custom fields, with the related object types its fields of type
 * object or multiobject name: as of the auth version, which their changes bump (migrations 0020
 * and 0033), so a read's SQL asks for custom fields only where some are defined, resolves those
 * types' objects only, and is proven current by the same check.
 */
export type ObjectFields = ReadonlyMap<string, readonly string[]>;

/** What authentication learnt of one token, as of one value of the `auth_state` version. */
export interface CachedToken {
  readonly digest: string;
  readonly version: number;
  readonly objectFields: ObjectFields;
  readonly user: User;
  readonly token: AuthToken;
  readonly expires: number | null;
  readonly allowedIps: readonly string[];
  lastUsed: number;
}

/**
 * Token data kept by the app instance between requests, so a request that presents a
 * known token costs no round trip of its own. It is trusted only together with proof that it is
 * current: every batch of the request also reads the `auth_state` version, which every change to
 * tokens, users and group membership bumps (triggers in migrations/0002_engine.sql); a batch that
 * sees another version throws `StaleAuth` and the request is served again with fresh data.
 */
export interface AuthCache {
  readonly tokens: Map<string, CachedToken>;
}

/**
 * Who does something to the data, and with what: the engine's whole view of a caller. One per
 * request (or per delivery, per admin page); never shared. It carries no request, URL or response:
 * the REST adapter, the browser pages and the webhook consumer each make one.
 */
export interface Actor {
  /** `scheme://host` the actor is served at, for absolute URLs in representations. */
  readonly origin: string;
  readonly requestId: string;
  /** The actor's clock: every timestamp one request writes is the same. */
  readonly now: Date;
  readonly config: Config;
  readonly db: Database;
  /** Where uploaded files are kept (a folder on Node and Deno, R2 on Workers); absent: uploads are refused. */
  readonly files?: FileStore;
  readonly secrets: Secrets;
  /** The client address (socket peer on Node/Deno, CF-Connecting-IP on Workers), when known. */
  readonly clientAddress: string | null;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /** Hands committed webhook deliveries to the queue (Cloudflare Queues, or the in-process consumer). */
  readonly enqueue: (deliveryIds: readonly number[]) => Promise<void>;
  user: User | null;
  token: AuthToken | null;
  /** The auth version the actor's identity was read at (every batch re-checks it), and whether it came from the cache. */
  auth: { readonly version: number; readonly cached: boolean; readonly objectFields: ObjectFields } | null;
  /** Token data kept between requests of this process or isolate (absent: no caching). */
  readonly authCache?: AuthCache;
  /** Plain token keys created by this actor, by digest: shown once in the create response. */
  readonly revealedKeys: Map<string, string>;
}

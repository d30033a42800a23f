import ipaddr from "ipaddr.js";
import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import type { Actor, AuthCache, CachedToken } from "../schema/actor.ts";
import { ApiError } from "../schema/errors.ts";
import { constantTimeEqual } from "../lib/crypto.ts";
import { grantsSql, parseGrants } from "../engine/permissions.ts";
import { authenticateSession } from "./sessions.ts";
import { authStateColumns, authStateOf } from "./auth-state.ts";

/** How often `last_used` is written at most (SPEC.md 3, 8). */
const LAST_USED_INTERVAL_MS = 60_000;
/** Tokens remembered per app instance (a Node or Deno server, a Workers isolate); the cache starts over beyond this. */
const CACHE_LIMIT = 10_000;

/**
 * Reads `Authorization: Token <key>` and sets the request's user and token. No header (or another
 * scheme) leaves the request anonymous; a bad or refused token is a 403 with a clear `detail`.
 * The key is looked up by its keyed digest and the digest compared in constant time.
 */
export async function authenticate(ctx: RequestContext, { useCache = true }: { readonly useCache?: boolean } = {}): Promise<void> {
  const header = ctx.request.headers.get("Authorization");
  if (!header) return authenticateSession(ctx);
  const key = tokenKeyOf(header);
  if (key === null) return;

  const digest = await ctx.secrets.tokenDigest(key);
  const cache = ctx.authCache;
  let entry = useCache ? cache?.tokens.get(digest) : undefined;
  const cached = entry !== undefined;
  if (!entry) {
    entry = await loadToken(ctx, digest);
    if (cache) {
      if (cache.tokens.size >= CACHE_LIMIT) cache.tokens.clear();
      cache.tokens.set(digest, entry);
    }
  }
  try {
    checkToken(entry, ctx.clientAddress, ctx.now.getTime());
  } catch (error) {
    // A refusal is never decided on cached data alone: the token or user may have changed since.
    if (!cached) throw error;
    return authenticate(ctx, { useCache: false });
  }
  if (!ctx.config.MAINTENANCE_MODE && usedLongAgo(entry, ctx.now.getTime())) {
    entry.lastUsed = ctx.now.getTime();
    // Recorded after the response, so authentication costs the request no write.
    ctx.waitUntil(
      ctx.db
        .batch([sql`UPDATE users_token SET last_used = ${ctx.now.toISOString()} WHERE id = ${entry.token.id}`.compile(qb)], "write")
        .catch((error) => console.error(`[${ctx.requestId}] could not record token use:`, (error as Error).message)),
    );
  }
  actAs(ctx, entry, cached);
}

/**
 * Makes `actor` act with the token of `entry`, as read from the cache (`cached`) or just now.
 * Every batch of the request proves the data current, cached or just read: the same statements
 * either way, so costs stay deterministic.
 */
export function actAs(actor: Actor, entry: CachedToken, cached: boolean): void {
  actor.user = entry.user;
  actor.token = entry.token;
  actor.auth = { version: entry.version, cached, objectFields: entry.objectFields };
}

/**
 * The key of an `Authorization: Token <key>` (or `Bearer`) header, lowercased; null for another
 * scheme, which leaves the request anonymous. A malformed token header is a 403.
 */
export function tokenKeyOf(header: string): string | null {
  const [scheme, ...rest] = header.trim().split(/\s+/);
  if (!["token", "bearer"].includes(scheme.toLowerCase())) return null;
  if (rest.length === 0) throw ApiError.forbidden("Invalid token header. No credentials provided.");
  if (rest.length > 1) throw ApiError.forbidden("Invalid token header. Token string should not contain spaces.");
  const key = rest[0].toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(key)) throw ApiError.forbidden("Invalid token");
  return key;
}

/**
 * The cached token of `digest` when it would be accepted as it is, from `clientAddress` at `now`,
 * with no `last_used` to record: what a request that reads nothing needs to know to be answered
 * without the pipeline. Null for anything else (unknown, refused, due a write), which the
 * pipeline then decides from the database.
 */
export function acceptedFromCache(cache: AuthCache, digest: string, clientAddress: string | null, now: number): CachedToken | null {
  const entry = cache.tokens.get(digest);
  if (!entry || usedLongAgo(entry, now)) return null;
  try {
    checkToken(entry, clientAddress, now);
    return entry;
  } catch {
    return null;
  }
}

const usedLongAgo = (entry: CachedToken, now: number): boolean => now - entry.lastUsed > LAST_USED_INTERVAL_MS;

/** Refuses a token outside its allowed addresses, expired, or of an inactive user. */
function checkToken(entry: CachedToken, clientAddress: string | null, now: number): void {
  checkAllowedIps(clientAddress, entry.allowedIps);
  if (entry.expires !== null && entry.expires <= now) throw ApiError.forbidden("Token expired");
  if (!entry.user.is_active) throw ApiError.forbidden("User inactive");
}

async function loadToken(ctx: RequestContext, digest: string): Promise<CachedToken> {
  const [result] = await ctx.db.batch(
    [
      sql`SELECT t.id, t.key_digest, t.write_enabled, t.expires, t.last_used, t.allowed_ips,
           u.id AS user_id, u.username, u.is_superuser, u.is_active, ${authStateColumns},
           ${grantsSql(sql.ref("u.id"))} AS grants
         FROM users_token t JOIN users_user u ON u.id = t.user_id WHERE t.key_digest = ${digest}`.compile(qb),
    ],
    "read",
  );
  const row = result.rows[0];
  if (!row || !constantTimeEqual(String(row.key_digest), digest)) throw ApiError.forbidden("Invalid token");
  return {
    digest,
    ...authStateOf(row),
    user: {
      id: Number(row.user_id),
      username: String(row.username),
      is_superuser: Boolean(row.is_superuser),
      is_active: Boolean(row.is_active),
      grants: parseGrants(row.grants),
    },
    token: { id: Number(row.id), write_enabled: Boolean(row.write_enabled) },
    expires: row.expires ? Date.parse(String(row.expires)) : null,
    allowedIps: JSON.parse(String(row.allowed_ips ?? "[]")),
    lastUsed: row.last_used ? Date.parse(String(row.last_used)) : 0,
  };
}

/** Refuses a client outside the token's `allowed_ips` (empty: any address). */
function checkAllowedIps(clientAddress: string | null, allowed: readonly string[]): void {
  if (allowed.length === 0) return;
  if (!clientAddress || !ipaddr.isValid(clientAddress)) {
    throw ApiError.forbidden(
      "Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).",
    );
  }
  // An IPv4 client seen through an IPv6 socket (::ffff:10.0.0.1) is matched as IPv4.
  const client = ipaddr.process(clientAddress);
  const permitted = allowed.some((network) => {
    const [addr, bits] = ipaddr.parseCIDR(network);
    return addr.kind() === client.kind() && client.match(addr, bits);
  });
  if (!permitted) throw ApiError.forbidden(`Source IP ${client.toString()} is not permitted to authenticate using this token.`);
}

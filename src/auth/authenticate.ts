import ipaddr from "ipaddr.js";
import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { constantTimeEqual } from "./crypto.ts";

/** How often `last_used` is written at most (SPEC.md 3, 8). */
const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Reads `Authorization: Token <key>` and sets the request's user and token. No header (or another
 * scheme) leaves the request anonymous; a bad or refused token is a 403 with a clear `detail`.
 * The key is looked up by its keyed digest and the digest compared in constant time.
 */
export async function authenticate(ctx: RequestContext): Promise<void> {
  const header = ctx.request.headers.get("Authorization");
  if (!header) return;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  if (!["token", "bearer"].includes(scheme.toLowerCase())) return;
  if (rest.length === 0) throw ApiError.forbidden("Invalid token header. No credentials provided.");
  if (rest.length > 1) throw ApiError.forbidden("Invalid token header. Token string should not contain spaces.");
  const key = rest[0].toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(key)) throw ApiError.forbidden("Invalid token");

  const digest = await ctx.secrets.tokenDigest(key);
  const [result] = await ctx.db.batch(
    [sql`SELECT t.id, t.key_digest, t.write_enabled, t.expires, t.last_used, t.allowed_ips,
           u.id AS user_id, u.username, u.is_superuser, u.is_active
         FROM users_token t JOIN users_user u ON u.id = t.user_id WHERE t.key_digest = ${digest}`.compile(qb)],
    "read",
  );
  const row = result.rows[0];
  if (!row || !constantTimeEqual(String(row.key_digest), digest)) throw ApiError.forbidden("Invalid token");

  checkAllowedIps(ctx, JSON.parse(String(row.allowed_ips ?? "[]")));
  if (row.expires && Date.parse(String(row.expires)) <= ctx.now.getTime()) throw ApiError.forbidden("Token expired");
  if (!row.is_active) throw ApiError.forbidden("User inactive");

  const lastUsed = row.last_used ? Date.parse(String(row.last_used)) : 0;
  if (!ctx.config.MAINTENANCE_MODE && ctx.now.getTime() - lastUsed > LAST_USED_INTERVAL_MS) {
    // Recorded after the response, so authentication costs the request no write.
    ctx.waitUntil(
      ctx.db
        .batch([sql`UPDATE users_token SET last_used = ${ctx.now.toISOString()} WHERE id = ${row.id}`.compile(qb)], "write")
        .catch((error) => console.error(`[${ctx.requestId}] could not record token use:`, (error as Error).message)),
    );
  }
  ctx.user = { id: Number(row.user_id), username: String(row.username), is_superuser: Boolean(row.is_superuser), is_active: true };
  ctx.token = { id: Number(row.id), write_enabled: Boolean(row.write_enabled) };
}

/** Refuses a client outside the token's `allowed_ips` (empty: any address). */
function checkAllowedIps(ctx: RequestContext, allowed: string[]): void {
  if (allowed.length === 0) return;
  if (!ctx.clientAddress || !ipaddr.isValid(ctx.clientAddress)) {
    throw ApiError.forbidden(
      "Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).",
    );
  }
  // An IPv4 client seen through an IPv6 socket (::ffff:10.0.0.1) is matched as IPv4.
  const client = ipaddr.process(ctx.clientAddress);
  const permitted = allowed.some((network) => {
    const [addr, bits] = ipaddr.parseCIDR(network);
    return addr.kind() === client.kind() && client.match(addr, bits);
  });
  if (!permitted) throw ApiError.forbidden(`Source IP ${client.toString()} is not permitted to authenticate using this token.`);
}

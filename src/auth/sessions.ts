import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../schema/errors.ts";
import { checkCredentials } from "../engine/credentials.ts";
import { constantTimeEqual, randomHex } from "../lib/crypto.ts";
import { grantsSql, parseGrants } from "../engine/permissions.ts";
import { authStateColumns, authStateOf } from "./auth-state.ts";

/** Django's cookie and header names, so the browsable API and its scripts work as they expect. */
export const SESSION_COOKIE = "sessionid";
export const CSRF_COOKIE = "csrftoken";
const CSRF_HEADER = "X-CSRFToken";
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The cookie's signature: an HMAC of the session key with a key derived from SECRET_KEY. */
const signature = (ctx: RequestContext, key: string) => ctx.secrets.tokenDigest(`session-cookie:${key}`);
/** What the database keeps of a session key: its keyed digest, never the key. */
const digestOf = (ctx: RequestContext, key: string) => ctx.secrets.tokenDigest(`session:${key}`);

function cookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

/** A cookie to set: its name, value and lifetime, and whether scripts may not read it. */
interface CookieSetting {
  readonly name: string;
  readonly value: string;
  /** Seconds; 0 clears it. */
  readonly maxAge: number;
  readonly httpOnly: boolean;
}

function cookie(ctx: RequestContext, { name, value, maxAge, httpOnly }: CookieSetting): string {
  const secure = ctx.url.protocol === "https:" ? "; Secure" : "";
  return `${name}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}${secure}`;
}

/**
 * Why a cookie-authenticated unsafe request looks cross-site, in Django's words
 * (CsrfViewMiddleware), or null. A valid CSRF token is not enough on its own: a token leaked to
 * another site (or a sibling subdomain that can set cookies) must not let that site write. So, as
 * Django does, `Origin` must be this service's own origin (scheme, host and port as the service
 * sees them, the host being one ALLOWED_HOSTS accepts); without Origin, a `Referer` must be on it
 * too; with neither, https requires a Referer (Django's rule: https pages always send one to
 * themselves), while plain http allows the request, since browsers there may send neither.
 */
function crossSiteProblem(ctx: RequestContext): string | null {
  const origin = ctx.request.headers.get("Origin");
  if (origin !== null) {
    // "null" (a sandboxed frame, a redirect across sites) parses as no origin, hence refused.
    const same = URL.canParse(origin) && new URL(origin).origin === ctx.origin;
    return same ? null : `Origin checking failed - ${origin} does not match any trusted origins.`;
  }
  const referer = ctx.request.headers.get("Referer");
  const secure = ctx.url.protocol === "https:";
  if (referer === null) return secure ? "Referer checking failed - no Referer." : null;
  if (!URL.canParse(referer)) return "Referer checking failed - Referer is malformed.";
  const from = new URL(referer);
  if (secure && from.protocol !== "https:") return "Referer checking failed - Referer is insecure while host is secure.";
  return from.origin === ctx.origin ? null : `Referer checking failed - ${referer} does not match any trusted origins.`;
}

/**
 * Authenticates a request by its session cookie (the browsable API), when it carries no token:
 * the signature is checked first, then the session, its user and the user's permissions are read
 * in one statement. A missing, forged, expired or revoked session leaves the request anonymous.
 * Cookie-authenticated unsafe methods must come from this origin (crossSiteProblem) and carry the
 * CSRF token in `X-CSRFToken`; token clients need neither.
 */
export async function authenticateSession(ctx: RequestContext): Promise<void> {
  const raw = cookies(ctx.request).get(SESSION_COOKIE);
  const [key, sig] = (raw ?? "").split(".");
  if (!key || !sig || !/^[0-9a-f]{64}$/.test(key) || !constantTimeEqual(sig, await signature(ctx, key))) return;
  const [result] = await ctx.db.batch(
    [
      sql`SELECT s.csrf, u.id, u.username, u.is_superuser, u.is_active, ${grantsSql(sql.ref("u.id"))} AS grants, ${authStateColumns}
      FROM users_session s JOIN users_user u ON u.id = s.user_id
      WHERE s.digest = ${await digestOf(ctx, key)} AND s.expires > ${ctx.now.toISOString()} AND u.is_active`.compile(qb),
    ],
    "read",
  );
  const row = result.rows[0];
  if (!row) return;
  if (UNSAFE.has(ctx.request.method)) {
    const crossSite = crossSiteProblem(ctx);
    if (crossSite) throw ApiError.forbidden(`CSRF Failed: ${crossSite}`);
    const given = ctx.request.headers.get(CSRF_HEADER);
    if (!given) throw ApiError.forbidden("CSRF Failed: CSRF token missing.");
    if (!constantTimeEqual(given, String(row.csrf))) throw ApiError.forbidden("CSRF Failed: CSRF token incorrect.");
  }
  ctx.user = {
    id: Number(row.id),
    username: String(row.username),
    is_superuser: Boolean(row.is_superuser),
    is_active: true,
    grants: parseGrants(row.grants),
  };
  ctx.token = null;
  // As a token's: reads are shaped by the custom fields known at this version, and prove it current.
  ctx.auth = { ...authStateOf(row), cached: false };
}

/**
 * A same-site path to go to after login, never another origin: not `//evil.example`, nor
 * `/\t/evil.example`, which a browser reads as `//evil.example` once it drops tabs and newlines.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
export const safeNext = (next: unknown) => (typeof next === "string" && /^\/(?!\/)[^\\\x00-\x1f\x7f]*$/.test(next) ? next : "/api/");

/** What POST /login/ was sent: its fields, and whether they came from a form (else JSON). */
/** What a sign-in sent: its fields, and whether they came as a form (answered with a redirect) or as JSON. */
export interface Credentials {
  readonly fields: Record<string, unknown>;
  readonly form: boolean;
}

export async function credentialsOf(ctx: RequestContext): Promise<Credentials> {
  const text = await ctx.body();
  const form = (ctx.request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded");
  if (form) return { fields: Object.fromEntries(new URLSearchParams(text)), form };
  try {
    const parsed = JSON.parse(text || "{}");
    return { fields: parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {}, form };
  } catch {
    throw ApiError.detail("malformed", "JSON parse error - the body is not valid JSON.");
  }
}

/**
 * POST /login/ with a username and password (a form or JSON): a new server-side session, its
 * signed HttpOnly cookie and a CSRF token cookie. Guessing is throttled as for provisioning.
 */
export async function login(ctx: RequestContext): Promise<Response> {
  return signIn(ctx, await credentialsOf(ctx));
}

/**
 * Checks the credentials sent and starts the session: a form is redirected to its `next`, JSON
 * gets JSON. Refusals are thrown (400 missing fields, 403 wrong credentials, 429 throttled).
 */
export async function signIn(ctx: RequestContext, { fields, form }: Credentials): Promise<Response> {
  const missing = ["username", "password"].filter((n) => typeof fields[n] !== "string" || fields[n] === "");
  if (missing.length) throw ApiError.invalid(Object.fromEntries(missing.map((n) => [n, ["This field is required."]])));
  const user = await checkCredentials(ctx, String(fields.username), String(fields.password));
  const key = randomHex(32);
  const csrf = randomHex(32);
  const age = ctx.config.LOGIN_TIMEOUT;
  await ctx.db.batch(
    [
      sql`INSERT INTO users_session (digest, user_id, csrf, created, expires)
      VALUES (${await digestOf(ctx, key)}, ${user.id}, ${csrf}, ${ctx.now.toISOString()}, ${new Date(ctx.now.getTime() + age * 1000).toISOString()})`.compile(
        qb,
      ),
      sql`UPDATE users_user SET last_login = ${ctx.now.toISOString()} WHERE id = ${user.id}`.compile(qb),
      // Expired sessions go as new ones come, so the table does not grow without bound.
      sql`DELETE FROM users_session WHERE expires <= ${ctx.now.toISOString()}`.compile(qb),
    ],
    "write",
  );
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    cookie(ctx, { name: SESSION_COOKIE, value: `${key}.${await signature(ctx, key)}`, maxAge: age, httpOnly: true }),
  );
  headers.append("Set-Cookie", cookie(ctx, { name: CSRF_COOKIE, value: csrf, maxAge: age, httpOnly: false }));
  if (form) {
    headers.set("Location", safeNext(fields.next ?? ctx.url.searchParams.get("next")));
    return new Response(null, { status: 302, headers });
  }
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ detail: "Logged in.", username: user.username, csrf_token: csrf }), { status: 200, headers });
}

/** POST /logout/: ends the session on the server (the cookie is worthless from then on) and clears the cookies. */
export async function logout(ctx: RequestContext): Promise<Response> {
  const [key] = (cookies(ctx.request).get(SESSION_COOKIE) ?? "").split(".");
  if (key && /^[0-9a-f]{64}$/.test(key)) {
    await ctx.db.batch([sql`DELETE FROM users_session WHERE digest = ${await digestOf(ctx, key)}`.compile(qb)], "write");
  }
  const headers = new Headers({ "Content-Type": "application/json" });
  headers.append("Set-Cookie", cookie(ctx, { name: SESSION_COOKIE, value: "", maxAge: 0, httpOnly: true }));
  headers.append("Set-Cookie", cookie(ctx, { name: CSRF_COOKIE, value: "", maxAge: 0, httpOnly: false }));
  return new Response(JSON.stringify({ detail: "Logged out." }), { status: 200, headers });
}

import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { randomHex } from "../lib/crypto.ts";
import { hashPassword } from "../lib/passwords.ts";
import type { Secrets } from "../lib/secrets.ts";
import { generateTokenKey } from "../apps/users/token-rules.ts";

/** What a start created and must tell its operator once: never logged again. */
export interface Bootstrap {
  readonly username: string;
  readonly password?: string;
  readonly token?: string;
}

/**
 * Ensures the superuser of SUPERUSER_NAME (and the token SUPERUSER_API_TOKEN) exist, as
 * netbox-docker does; without them, the first start of an empty database creates `admin` with a
 * random password and token, unless `generateAdmin` is false. Existing users and tokens are never
 * changed.
 */
export async function ensureSuperuser(
  db: Database,
  config: Config,
  secrets: Secrets,
  { generateAdmin = true }: { readonly generateAdmin?: boolean } = {},
): Promise<Bootstrap | null> {
  const named = config.SUPERUSER_NAME;
  if (!named && !generateAdmin) return null;
  const [existing, anyUser] = await db.batch(
    [
      sql`SELECT id FROM users_user WHERE username = ${named ?? "admin"}`.compile(qb),
      sql`SELECT count(*) AS n FROM users_user`.compile(qb),
    ],
    "read",
  );
  if (!named && Number(anyUser.rows[0].n) > 0) return null;
  const username = named ?? "admin";
  const created: { username: string; password?: string; token?: string } = { username };
  let userId = existing.rows[0]?.id as number | undefined;
  if (userId === undefined) {
    const password = config.SUPERUSER_PASSWORD ?? randomHex(12);
    if (!config.SUPERUSER_PASSWORD) created.password = password;
    const [row] = await db.batch(
      [
        sql`INSERT INTO users_user (username, password, is_superuser, is_staff, is_active, date_joined)
           VALUES (${username}, ${await hashPassword(password)}, 1, 1, 1, ${new Date().toISOString()}) RETURNING id`.compile(qb),
      ],
      "write",
    );
    userId = Number(row.rows[0].id);
  }
  const key = config.SUPERUSER_API_TOKEN?.toLowerCase() ?? (named ? undefined : generateTokenKey());
  if (key) {
    const digest = await secrets.tokenDigest(key);
    const [row] = await db.batch(
      [
        sql`INSERT INTO users_token (user_id, created, key_digest, key_last6, key_ciphertext, write_enabled, description)
           VALUES (${userId}, ${new Date().toISOString()}, ${digest}, ${key.slice(-6)},
             ${config.ALLOW_TOKEN_RETRIEVAL ? await secrets.encrypt(key) : null}, 1, 'Created at start')
           ON CONFLICT (key_digest) DO NOTHING RETURNING id`.compile(qb),
      ],
      "write",
    );
    if (row.rows.length && !config.SUPERUSER_API_TOKEN) created.token = key;
  }
  return created.password || created.token || existing.rows.length === 0 ? created : null;
}

/**
 * The lines an entry prints once about what its first start created; empty when it created no
 * secret. `url` is the API's base address, for a ready-to-run example.
 */
export function bootstrapMessage(boot: Bootstrap | null, url?: string): string[] {
  if (!boot?.password && !boot?.token) return [];
  const lines = ["", "First start: created a superuser. This is shown only once:", `  username: ${boot.username}`];
  if (boot.password) lines.push(`  password: ${boot.password}`);
  if (boot.token) lines.push(`  API token: ${boot.token}`);
  if (boot.token && url) lines.push("", `Try: curl -H "Authorization: Token ${boot.token}" ${url}/api/dcim/sites/`);
  return lines;
}

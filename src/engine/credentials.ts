import type { User, Actor } from "../schema/actor.ts";
import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import { ApiError } from "../schema/errors.ts";
import { verifyPassword } from "../lib/passwords.ts";
import { grantsSql, parseGrants } from "./permissions.ts";
import { recordFailure, refuseIfThrottled, throttleProbe } from "./throttle.ts";

/**
 * The user a username and password name, or the same 403 for a wrong password, an unknown or an
 * inactive user, so the answer does not tell which usernames exist. One read batch looks up the
 * user and the failure counts; over the limit it is 429 before any password is checked, and each
 * failure is counted.
 */
export async function checkCredentials(ctx: Actor, username: string, password: string): Promise<User> {
  const [throttle, result] = await ctx.db.batch(
    [
      throttleProbe(ctx, username),
      sql`SELECT id, username, password, is_superuser, is_active, ${grantsSql(sql.ref("users_user.id"))} AS grants
      FROM users_user WHERE username = ${username}`.compile(qb),
    ],
    "read",
  );
  refuseIfThrottled(ctx, throttle);
  const row = result.rows[0];
  const valid = await verifyPassword(password, row?.password as string | undefined);
  if (!row || !valid || !row.is_active) {
    await recordFailure(ctx, username);
    throw ApiError.forbidden("Invalid username/password");
  }
  return {
    id: Number(row.id),
    username: String(row.username),
    is_superuser: Boolean(row.is_superuser),
    is_active: true,
    grants: parseGrants(row.grants),
  };
}

import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import { ApiError, type FieldErrors } from "../http/errors.ts";
import { readJson } from "../http/body.ts";
import { json } from "../http/responses.ts";
import type { Model } from "../models/model.ts";
import type { RouteDeclaration } from "../models/routes.ts";
import { writeObjects } from "../rest/crud.ts";
import { verifyPassword } from "./passwords.ts";
import { hasDefaultPermission } from "./permissions.ts";

/**
 * POST /api/users/tokens/provision/: a username and password buy a new write-enabled token for
 * that user (SPEC.md 4.2). Needs no token; bad credentials and users who may not create tokens
 * get the same 403, so the endpoint does not reveal which usernames exist.
 */
async function provisionToken(ctx: RequestContext, tokenModel: Model): Promise<Response> {
  const body = await readJson(ctx.request, ctx.config.MAX_BODY_SIZE);
  const input = (body && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  for (const name of ["username", "password"]) {
    if (typeof input[name] !== "string" || input[name] === "") errors[name] = ["This field is required."];
  }
  if (Object.keys(errors).length) throw ApiError.invalid(errors);

  const [result] = await ctx.db.batch(
    [sql`SELECT id, username, password, is_superuser, is_active FROM users_user WHERE username = ${input.username}`.compile(qb)],
    "read",
  );
  const row = result.rows[0];
  const valid = await verifyPassword(String(input.password), row?.password as string | undefined);
  if (!row || !valid || !row.is_active) throw ApiError.forbidden("Invalid username/password");
  ctx.user = { id: Number(row.id), username: String(row.username), is_superuser: Boolean(row.is_superuser), is_active: true };
  ctx.token = null;
  ctx.auth = null;
  if (!ctx.user.is_superuser && !hasDefaultPermission(ctx, "users.add_token")) throw ApiError.forbidden("Invalid username/password");

  const { username: _u, password: _p, user: _user, key: _key, ...fields } = input;
  const [created] = await writeObjects(ctx, tokenModel, [{ write_enabled: true, ...fields }], "create", [null], false);
  return json(created, 201);
}

/** The provisioning endpoint, declared on the token model. */
export const provisionRoute: RouteDeclaration = {
  name: "provision",
  detail: false,
  methods: ["POST"],
  permission: null,
  handler: (ctx, model) => provisionToken(ctx, model),
};

import type { Model, RouteDeclaration, RouteContext } from "../../schema/shapes.ts";
import { ApiError, type FieldErrors } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { ref } from "../../schema/json-schema.ts";
import { writeObjects } from "../../engine/crud.ts";
import { checkCredentials } from "../../engine/credentials.ts";
import { hasPermission } from "../../engine/permissions.ts";

/**
 * POST /api/users/tokens/provision/: a username and password buy a new write-enabled token for
 * that user (SPEC.md 4.2). Needs no token; bad credentials and users who may not create tokens
 * get the same 403, so the endpoint does not reveal which usernames exist.
 */
async function provisionToken(ctx: RouteContext, tokenModel: Model): Promise<Response> {
  const body = await ctx.json();
  const input = (body && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  for (const name of ["username", "password"]) {
    if (typeof input[name] !== "string" || input[name] === "") errors[name] = ["This field is required."];
  }
  if (Object.keys(errors).length) throw ApiError.invalid(errors);

  ctx.user = await checkCredentials(ctx, String(input.username), String(input.password));
  ctx.token = null;
  ctx.auth = null;
  // SPEC.md 5.3: without the permission to create tokens, provisioning is refused like bad credentials.
  if (!hasPermission(ctx, "users.add_token")) throw ApiError.forbidden("Invalid username/password");

  const { username: _u, password: _p, user: _user, key: _key, ...fields } = input;
  const [created] = await writeObjects(ctx, tokenModel, {
    inputs: [{ write_enabled: true, ...fields }],
    mode: "create",
    ids: [null],
    bulk: false,
  });
  return json(created, 201);
}

/** The provisioning endpoint, declared on the token model. */
export const provisionRoute: RouteDeclaration = {
  name: "provision",
  detail: false,
  summary: "Create a token for the user whose username and password are given.",
  bodies: {
    POST: {
      request: {
        allOf: [
          { required: ["username", "password"], properties: { username: { type: "string" }, password: { type: "string" } } },
          ref("PatchedWritableTokenRequest"),
        ],
      },
      response: ref("Token"),
    },
  },
  creates: true,
  methods: ["POST"],
  permission: null,
  handler: (ctx, model) => provisionToken(ctx, model),
};

import type { AppName, JsonSchema, RouteContext } from "../../schema/shapes.ts";
import type { User } from "../../schema/actor.ts";
import { ApiError } from "../../schema/errors.ts";

/** One method of an app's own path, for the OpenAPI document. */
export interface OwnOperation {
  readonly summary: string;
  readonly request?: JsonSchema;
  readonly response?: JsonSchema;
  /** The success status (default 200; 204 answers no body). */
  readonly status?: number;
}

/**
 * An endpoint an app serves at a path no model's list holds (`/api/extras/dashboard/`,
 * `/api/extras/scripts/`): the pipeline routes it before the model paths, lists it in the app's
 * root and documents it, as it does a model's declared routes. Its handler authenticates and
 * authorizes itself: no model's permission applies.
 */
export interface OwnPath {
  readonly app: AppName;
  /** The URL segment below the app: "dashboard". */
  readonly path: string;
  /** The methods of the path, and (with `detail`) of `<path>/<id>/`, as served and documented. */
  readonly operations: Readonly<Record<string, OwnOperation>>;
  /** The methods of `<path>/<id>/`, when the path has objects below it. */
  readonly detail?: Readonly<Record<string, OwnOperation>>;
  /** The detail of the 405 answering a method not listed, when it has more to say than that (scripts: none are run here). */
  readonly refusal?: string;
  /** Answers the request; `id` is the object's id below the path, null on the path itself. */
  handler(ctx: RouteContext, id: number | null): Promise<Response>;
}

/** The requesting user; an anonymous requester is refused, as every endpoint of user data refuses them. */
export function requireUser(ctx: RouteContext): User {
  if (!ctx.user) throw ApiError.forbidden("Authentication credentials were not provided.");
  return ctx.user;
}

/** Refuses a write by a read-only token, or while the service is in maintenance mode, as model writes are refused. */
export function requireWrite(ctx: RouteContext): void {
  if (ctx.token && !ctx.token.write_enabled) throw ApiError.forbidden();
  if (ctx.config.MAINTENANCE_MODE)
    throw ApiError.detail(
      "service_unavailable",
      "The service is in maintenance mode and cannot perform write operations. Please try again later.",
    );
}

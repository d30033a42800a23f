import type { RouteContext } from "../../schema/shapes.ts";
import type { User } from "../../schema/actor.ts";
import { ApiError } from "../../schema/errors.ts";

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

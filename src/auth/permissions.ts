import { ApiError } from "../http/errors.ts";
import type { RequestContext } from "../http/context.ts";
import type { Model } from "../models/model.ts";

export type Action = "view" | "add" | "change" | "delete";

/** True when DEFAULT_PERMISSIONS grants `app.action_model` to every user. */
export function hasDefaultPermission(ctx: RequestContext, permission: string): boolean {
  return Object.hasOwn(ctx.config.DEFAULT_PERMISSIONS, permission);
}

/** True when EXEMPT_VIEW_PERMISSIONS lets anyone read the model (`*`, `app.*` or `app.model`). */
export function isViewExempt(ctx: RequestContext, model: Model): boolean {
  return ctx.config.EXEMPT_VIEW_PERMISSIONS.some((p) => p === "*" || p === model.objectType || p === `${model.app}.*`);
}

/**
 * Refuses the request unless the requester may perform `action` on `model`. Object-level rules
 * (NetBox's ObjectPermission) come later; until then superusers may do anything, others what
 * DEFAULT_PERMISSIONS grants (by default: their own tokens), and anyone may read exempt models.
 */
export function authorize(ctx: RequestContext, model: Model, action: Action): void {
  if (!ctx.user) {
    if (action === "view" && isViewExempt(ctx, model)) return;
    throw ApiError.forbidden("Authentication credentials were not provided.");
  }
  if (action !== "view") {
    if (ctx.token && !ctx.token.write_enabled) throw ApiError.forbidden();
    if (ctx.config.MAINTENANCE_MODE) {
      throw ApiError.detail("service_unavailable", "The service is in maintenance mode and cannot perform write operations. Please try again later.");
    }
  }
  if (ctx.user.is_superuser) return;
  if (action === "view" && isViewExempt(ctx, model)) return;
  if (hasDefaultPermission(ctx, `${model.app}.${action}_${model.name}`)) return;
  throw ApiError.forbidden();
}

/** `authorize` as a question: may the requester perform `action` on `model`? */
export function isPermitted(ctx: RequestContext, model: Model, action: Action): boolean {
  try {
    authorize(ctx, model, action);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

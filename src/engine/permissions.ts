import type { Model } from "../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { ApiError } from "../schema/errors.ts";
import type { Action, Actor, Constraints, Grant, User } from "../schema/actor.ts";

/**
 * What a requester may do with a model for one action: everything, only the objects matching
 * one of these constraint objects, or nothing.
 */
export type Scope = "all" | Constraints | null;

/** A permission's stored `constraints` (an object, a list of objects, or null) as a list, or null for none. */
export function constraintList(value: unknown): Constraints | null {
  if (value === null || value === undefined) return null;
  const list = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
  // An empty object constrains nothing, and one unconstrained alternative opens the whole set.
  return list.length === 0 || list.some((c) => Object.keys(c).length === 0) ? null : list;
}

/**
 * The enabled permissions of the user whose id `userId` gives, directly or through a group, as a
 * JSON array: read together with the user, so authorizing a request costs no round trip.
 */
export const grantsSql = (userId: RawBuilder<unknown>): RawBuilder<unknown> => sql`(SELECT json_group_array(json_object(
    'object_types', json(p.object_types), 'actions', json(p.actions), 'constraints', json(p.constraints)))
  FROM users_objectpermission p WHERE p.enabled AND (
    EXISTS (SELECT 1 FROM users_objectpermission_users pu WHERE pu.objectpermission_id = p.id AND pu.user_id = ${userId})
    OR EXISTS (SELECT 1 FROM users_objectpermission_groups pg JOIN users_user_groups ug ON ug.group_id = pg.group_id
      WHERE pg.objectpermission_id = p.id AND ug.user_id = ${userId})))`;

/** The grants `grantsSql` read, as the engine applies them. */
export function parseGrants(json: unknown): Grant[] {
  const rows = JSON.parse(String(json ?? "[]")) as { object_types: string[]; actions: string[]; constraints: unknown }[];
  return rows.map((r) => ({ objectTypes: r.object_types ?? [], actions: r.actions ?? [], constraints: constraintList(r.constraints) }));
}

/**
 * DEFAULT_PERMISSIONS as grants: `{"users.view_token": {"user": "$user"}}` gives every user the
 * view action on tokens, constrained to their own.
 */
function defaultGrants(ctx: Actor): Grant[] {
  return Object.entries(ctx.config.DEFAULT_PERMISSIONS).flatMap(([name, constraints]): Grant[] => {
    const named = parsePermission(name);
    return named ? [{ objectTypes: [named.objectType], actions: [named.action], constraints: constraintList(constraints) }] : [];
  });
}

/** A Django-style permission name (`users.add_token`) as its object type and action, or null. */
function parsePermission(name: string): { objectType: string; action: string } | null {
  const m = /^(\w+)\.([a-z]+)_(\w+)$/.exec(name);
  return m ? { objectType: `${m[1]}.${m[3]}`, action: m[2] } : null;
}

/** True when EXEMPT_VIEW_PERMISSIONS lets anyone read the model (`*`, `app.*` or `app.model`). */
export function isViewExempt(ctx: Actor, model: Model): boolean {
  return ctx.config.EXEMPT_VIEW_PERMISSIONS.some((p) => p === "*" || p === model.objectType || p === `${model.app}.*`);
}

/** The objects of `objectType` the requester may `action`, from their permissions and the defaults. */
export function scopeOf(ctx: Actor, objectType: string, action: Action, { exempt = false }: { readonly exempt?: boolean } = {}): Scope {
  if (action === "view" && exempt) return "all";
  const user = ctx.user;
  if (!user) return null;
  if (user.is_superuser) return "all";
  const matching = [...user.grants, ...defaultGrants(ctx)].filter((g) => g.objectTypes.includes(objectType) && g.actions.includes(action));
  if (matching.length === 0) return null;
  if (matching.some((g) => g.constraints === null)) return "all";
  return matching.flatMap((g) => g.constraints!);
}

/** True when the requester holds `action` on `objectType` by their own permissions, not only by DEFAULT_PERMISSIONS. */
export function holdsGrant(ctx: Actor, objectType: string, action: Action): boolean {
  const user = ctx.user;
  return Boolean(user && (user.is_superuser || user.grants.some((g) => g.objectTypes.includes(objectType) && g.actions.includes(action))));
}

/** The requester's scope for `action` on `model`. */
export const modelScope = (ctx: Actor, model: Model, action: Action): Scope =>
  scopeOf(ctx, model.objectType, action, { exempt: isViewExempt(ctx, model) });

/** True when the requester holds `app.action_model` (`users.grant_token`) for at least some objects. */
export function hasPermission(ctx: Actor, permission: string): boolean {
  const named = parsePermission(permission);
  return named !== null && scopeOf(ctx, named.objectType, named.action) !== null;
}

/**
 * Refuses the request unless the requester may perform `action` on at least some objects of
 * `model` (which ones is the engine's WHERE clause, from `modelScope`). Writes also need a token
 * that may write, outside maintenance mode.
 */
export function authorize(ctx: Actor, model: Model, action: Action): void {
  if (!ctx.user && action === "view" && isViewExempt(ctx, model)) return;
  requireUser(ctx);
  if (action !== "view") requireWrite(ctx);
  if (modelScope(ctx, model, action) === null) throw ApiError.forbidden();
}

/** LOGIN_REQUIRED (NetBox's default since 4.1): the path answers only signed-in requesters (the status, media files, GraphQL). */
export function requireLogin(ctx: Actor): void {
  if (ctx.config.LOGIN_REQUIRED && !ctx.user) throw ApiError.forbidden("Authentication credentials were not provided.");
}

/** The requesting user; an anonymous requester is refused (model endpoints, and paths no model backs). */
export function requireUser(ctx: Actor): User {
  if (!ctx.user) throw ApiError.forbidden("Authentication credentials were not provided.");
  return ctx.user;
}

/** Refuses a write by a read-only token, or while the service is in maintenance mode. */
export function requireWrite(ctx: Actor): void {
  if (ctx.token && !ctx.token.write_enabled) throw ApiError.forbidden();
  if (ctx.config.MAINTENANCE_MODE) {
    throw ApiError.detail(
      "service_unavailable",
      "The service is in maintenance mode and cannot perform write operations. Please try again later.",
    );
  }
}

/** `authorize` as a question: may the requester perform `action` on `model`? */
export function isPermitted(ctx: Actor, model: Model, action: Action): boolean {
  try {
    authorize(ctx, model, action);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

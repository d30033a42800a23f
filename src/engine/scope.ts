import type { Model } from "../schema/shapes.ts";
import type { Action, Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { modelScope } from "./permissions.ts";
import { constraintCondition } from "./filters.ts";

/**
 * The rows of `model` the requester may `action` (among those the API serves at all), as a condition for the WHERE clause of the very
 * statement that reads or writes them: permission constraints never cost a query of their own,
 * and rows are never filtered after loading.
 */
export function scopeSql(ctx: Actor, model: Model, action: Action, table = model.table): RawBuilder<unknown> {
  const permitted = permittedSql(ctx, model, action, table);
  return model.visibleRows ? sql`(${model.visibleRows(table)} AND ${permitted})` : permitted;
}

function permittedSql(ctx: Actor, model: Model, action: Action, table: string): RawBuilder<unknown> {
  const scope = model.hooks?.widenScope?.(ctx, action) ? "all" : modelScope(ctx, model, action);
  if (scope === "all") return sql`1`;
  if (scope === null) return sql`0`;
  const alternatives = scope.flatMap((constraint) => {
    try {
      return [constraintCondition(model, constraint, ctx.user?.id ?? null, table)];
    } catch {
      // Checked when the permission was saved; one that no longer compiles (a field gone) grants nothing.
      return [];
    }
  });
  return alternatives.length ? sql`(${sql.join(alternatives, sql` OR `)})` : sql`0`;
}

/** True when the requester's scope for `action` is every object (no WHERE needed). */
export const unrestricted = (ctx: Actor, model: Model, action: Action): boolean =>
  !model.visibleRows && (Boolean(model.hooks?.widenScope?.(ctx, action)) || modelScope(ctx, model, action) === "all");

const userKeys = new WeakMap<object, string>();

/**
 * Everything the requester's scopes depend on, as one string: statements built for one key are
 * right for every actor with that key, so a request shape's SQL is built once per key, not per
 * request (`Template`). A superuser's scopes are the same for all; an anonymous requester's
 * follow the exempt views; another user's follow their grants and the default permissions.
 */
export function scopeKey(ctx: Actor): string {
  const user = ctx.user;
  if (!user) return `anonymous ${ctx.config.EXEMPT_VIEW_PERMISSIONS.join(",")}`;
  if (user.is_superuser) return "superuser";
  let key = userKeys.get(user);
  if (key === undefined) {
    key = `user ${user.id} ${JSON.stringify(user.grants)} ${JSON.stringify(ctx.config.DEFAULT_PERMISSIONS)}`;
    userKeys.set(user, key);
  }
  return key;
}

import type { AppPath, RouteContext } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { ApiError, type FieldErrors } from "../../schema/errors.ts";
import { qb } from "../../db/query-builder.ts";
import { json } from "../../lib/responses.ts";
import { readBatch, writeBatch } from "../../engine/unit-of-work.ts";
import { requireUser, requireWrite } from "../../engine/permissions.ts";

/*
 * `/api/extras/dashboard/`: the requester's dashboard, a JSON document of `layout` (a list) and
 * `config` (an object) kept per user, as NetBox keeps it for its home page. A user who has none
 * reads the empty dashboard; DELETE removes theirs.
 */

const DASHBOARD = {
  type: "object",
  properties: { layout: { type: "array", items: {} }, config: { type: "object" } },
};

/** The stored dashboard of a user, or the empty one. */
async function stored(ctx: RouteContext, userId: number): Promise<{ layout: unknown; config: unknown }> {
  const [found] = await readBatch(ctx, [sql`SELECT layout, config FROM extras_dashboard WHERE user_id = ${userId}`.compile(qb)]);
  const row = found.rows[0];
  return row ? { layout: JSON.parse(String(row.layout)), config: JSON.parse(String(row.config)) } : { layout: [], config: {} };
}

/** The body's `layout` and `config`, checked: PUT needs both, PATCH either. */
async function changes(ctx: RouteContext, complete: boolean): Promise<{ layout?: unknown; config?: unknown }> {
  const body = await ctx.json();
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw ApiError.invalid({ non_field_errors: ["Invalid data. Expected a dictionary."] });
  const { layout, config } = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  if (layout !== undefined && !Array.isArray(layout)) errors.layout = ["The layout must be a list."];
  if (config !== undefined && (config === null || typeof config !== "object" || Array.isArray(config)))
    errors.config = ["The config must be a JSON object."];
  if (complete)
    for (const [name, value] of Object.entries({ layout, config })) if (value === undefined) errors[name] = ["This field is required."];
  if (Object.keys(errors).length) throw ApiError.invalid(errors);
  return { layout, config };
}

async function handle(ctx: RouteContext): Promise<Response> {
  const user = requireUser(ctx);
  if (ctx.method === "GET" || ctx.method === "HEAD") return json(await stored(ctx, user.id));
  requireWrite(ctx);
  if (ctx.method === "DELETE") {
    await writeBatch(ctx, [sql`DELETE FROM extras_dashboard WHERE user_id = ${user.id}`.compile(qb)]);
    return new Response(null, { status: 204 });
  }
  const { layout, config } = await changes(ctx, ctx.method === "PUT");
  // One statement: what PATCH leaves out keeps its stored value, so concurrent changes never undo each other.
  const [layoutText, configText] = [layout, config].map((v) => (v === undefined ? null : JSON.stringify(v)));
  const [saved] = await writeBatch(ctx, [
    sql`INSERT INTO extras_dashboard (user_id, layout, config) VALUES (${user.id}, coalesce(${layoutText}, '[]'), coalesce(${configText}, '{}'))
      ON CONFLICT (user_id) DO UPDATE SET layout = coalesce(${layoutText}, layout), config = coalesce(${configText}, config)
      RETURNING layout, config`.compile(qb),
  ]);
  const row = saved.rows[0];
  return json({ layout: JSON.parse(String(row.layout)), config: JSON.parse(String(row.config)) });
}

export const dashboardPath: AppPath = {
  app: "extras",
  path: "dashboard",
  operations: {
    GET: { summary: "The requester's dashboard: its layout and config (empty until they save one).", response: DASHBOARD },
    PUT: { summary: "Replaces the requester's dashboard (layout and config).", request: DASHBOARD, response: DASHBOARD },
    PATCH: { summary: "Changes the requester's dashboard: the layout, the config or both.", request: DASHBOARD, response: DASHBOARD },
    DELETE: { summary: "Removes the requester's dashboard.", status: 204 },
  },
  handler: (ctx) => handle(ctx),
};

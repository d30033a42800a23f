import type { Model, RouteDeclaration } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { readBatch, writeBatch } from "../../engine/unit-of-work.ts";
import { sql } from "kysely";
import { ConstraintError } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { authorize, hasPermission } from "../../engine/permissions.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { ref } from "../../schema/json-schema.ts";
import { asList, bulkIds, OBJECT_NOT_FOUND } from "../../engine/crud.ts";
import { idList, rowsOf, selectSql } from "../../engine/select.ts";
import { represent } from "../../engine/serialize.ts";
import { guardStatement } from "../../engine/write-statements.ts";
import { scopeSql } from "../../engine/scope.ts";

/** Superusers, and holders of `extras.retry_webhookdelivery`, may retry; with a write-enabled token. */
function authorizeRetry(ctx: Actor, model: Model): void {
  authorize(ctx, model, "view");
  if (ctx.token && !ctx.token.write_enabled) throw ApiError.forbidden();
  if (!hasPermission(ctx, `${model.app}.retry_${model.name}`)) throw ApiError.forbidden();
}

/**
 * Moves failed runs back to `queued` and enqueues them (SPEC.md 3: failed -> queued), all or
 * none: an unknown id or a run that is not `failed` refuses the whole request.
 */
export async function retryDeliveries(
  ctx: Actor,
  model: Model,
  { ids, bulk }: { ids: readonly number[]; bulk: boolean },
): Promise<unknown[]> {
  authorizeRetry(ctx, model);
  // Runs outside the requester's `retry` constraints are not found, as for any other action.
  const [found] = await readBatch(ctx, [
    sql`SELECT id, status FROM extras_webhookdelivery WHERE id IN ${idList(ids)} AND ${scopeSql(ctx, model, "retry")}`.compile(qb),
  ]);
  const status = new Map(found.rows.map((r) => [Number(r.id), String(r.status)]));
  if (!bulk && !status.has(ids[0])) throw ApiError.notFound(model.className);
  const errors = ids.map((id) => {
    if (!status.has(id)) return { id: [OBJECT_NOT_FOUND] };
    return status.get(id) === "failed" ? {} : { id: [`Only failed deliveries can be retried; this one is ${status.get(id)}.`] };
  });
  if (errors.some((e) => Object.keys(e).length)) throw ApiError.invalid(bulk ? errors : errors[0]);
  const now = ctx.now.toISOString();
  try {
    const results = await writeBatch(ctx, [
      // Another request may have retried them meanwhile: then nothing is done twice.
      guardStatement(
        "gone",
        sql`(SELECT count(*) FROM extras_webhookdelivery WHERE id IN ${idList(ids)} AND status = 'failed') <> ${ids.length}`,
      ),
      sql`UPDATE extras_webhookdelivery SET status = 'queued', run_attempts = 0, next_attempt = ${now}, finished = NULL, lease_until = NULL,
        last_updated = ${now}, error_log = error_log || ${`${now} retried by ${ctx.user?.username ?? ""}\n`} WHERE id IN ${idList(ids)}`.compile(
        qb,
      ),
      sql`SELECT ${selectSql(model, model.readableFields)} FROM extras_webhookdelivery WHERE id IN ${idList(ids)} ORDER BY id`.compile(qb),
    ]);
    ctx.waitUntil(ctx.enqueue(ids));
    const rows = new Map(rowsOf(results[2].rows).map((r) => [Number(r.id), r]));
    return represent(
      ctx,
      model,
      ids.map((id) => rows.get(id)!),
      { form: "full" },
    );
  } catch (error) {
    if (error instanceof ConstraintError && error.columns.includes("guard_object_gone")) {
      throw ApiError.detail(
        "conflict",
        "The deliveries changed while this request was processed; nothing was retried. Please reload and retry.",
      );
    }
    throw error;
  }
}

/** POST /api/extras/webhook-deliveries/<id>/retry/ */
export const retryOneRoute: RouteDeclaration = {
  name: "retry",
  detail: true,
  summary: "Queue a failed delivery again.",
  bodies: { POST: { response: ref("WebhookDelivery") } },
  methods: ["POST"],
  permission: null,
  handler: async (ctx, model, id) => json((await retryDeliveries(ctx, model, { ids: [id!], bulk: false }))[0]),
};

/** POST /api/extras/webhook-deliveries/retry/ with a list of `{"id": ...}`. */
export const retryManyRoute: RouteDeclaration = {
  name: "retry",
  detail: false,
  summary: 'Queue failed deliveries again, given a list of {"id": ...}.',
  bodies: {
    POST: {
      request: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "integer" } } } },
      response: { type: "array", items: ref("WebhookDelivery") },
    },
  },
  methods: ["POST"],
  permission: null,
  handler: async (ctx, model) => {
    authorizeRetry(ctx, model);
    const ids = bulkIds(ctx, asList(await ctx.json()));
    return json(ids.length ? await retryDeliveries(ctx, model, { ids, bulk: true }) : []);
  },
};

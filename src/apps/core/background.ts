import type { AppPath, JsonSchema, RouteContext } from "../../schema/shapes.ts";
import type { Row } from "../../db/database.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { paginated, parsePage } from "../../lib/pagination.ts";
import { readBatch, writeBatch } from "../../engine/unit-of-work.ts";
import { retryDeliveries } from "../extras/delivery-retry.ts";
import { requireUser, requireWrite } from "../../engine/permissions.ts";
import { webhookDelivery } from "../extras/events.ts";

/*
 * NetBox's background queues, workers and tasks are its RQ job queue. This service's queue is its
 * webhook deliveries (`extras_webhookdelivery`: the outbox, sent by the in-process consumer on Node
 * and Deno and by the queue consumer on Workers), so these endpoints answer from it: one queue,
 * `default` (the queue NetBox sends webhooks on); the consumers that claimed runs as workers; each
 * delivery as a task (its id is the delivery's `webhook-id` UUID). Staff and superusers only, as
 * NetBox's IsAdminUser. Data source syncs run while their request waits, so they are jobs
 * (`/api/core/jobs/`) but never tasks.
 */

const QUEUE = "default";

/** NetBox's IsAdminUser: a signed-in staff member (or a superuser); POST is a write, refused as model writes are. */
async function requireStaff(ctx: RouteContext): Promise<void> {
  const user = requireUser(ctx);
  if (ctx.method === "POST") requireWrite(ctx);
  if (user.is_superuser) return;
  const [found] = await readBatch(ctx, [sql`SELECT is_staff FROM users_user WHERE id = ${user.id}`.compile(qb)]);
  if (!Number(found.rows[0]?.is_staff)) throw ApiError.forbidden();
}

/** A run's RQ status: finished, failed, started (a consumer holds it), scheduled (a retry's backoff), deferred (behind an earlier run of its object), queued. */
const statusSql = (now: string) => sql`CASE
  WHEN d.status = 'succeeded' THEN 'finished'
  WHEN d.status = 'failed' THEN 'failed'
  WHEN d.lease_until >= ${now} THEN 'started'
  WHEN d.next_attempt > ${now} THEN 'scheduled'
  WHEN EXISTS (SELECT 1 FROM extras_webhookdelivery e WHERE e.webhook_id = d.webhook_id AND e.object_type = d.object_type
    AND e.object_id = d.object_id AND e.status IN ('queued', 'pending') AND e.id < d.id) THEN 'deferred'
  ELSE 'queued' END`;

/** The delivery rows as tasks read them (pending runs, whose conditions are not yet evaluated, are no tasks yet). */
const taskSelect = (now: string) => sql`SELECT d.id, d.uuid, d.event, d.object_type, d.object_id, d.request_id, d.status AS delivery_status,
  d.attempts, d.last_status_code, d.created, d.next_attempt, d.started, d.finished, d.claimed_by, d.error_log,
  (SELECT w.name FROM extras_webhook w WHERE w.id = d.webhook_id) AS webhook, ${statusSql(now)} AS rq_status,
  (SELECT count(*) FROM extras_webhookdelivery q WHERE q.status = 'queued' AND q.id < d.id) AS position
  FROM extras_webhookdelivery d WHERE d.status <> 'pending'`;

/** A delivery as NetBox's BackgroundTaskSerializer shapes an RQ job. */
function task(ctx: RouteContext, r: Row) {
  const status = String(r.rq_status);
  return {
    id: String(r.uuid),
    url: `${ctx.origin}/api/core/background-tasks/${r.uuid}/`,
    description: `Webhook ${r.webhook ?? "(deleted)"}: ${r.event} ${r.object_type} ${r.object_id}`,
    origin: QUEUE,
    func_name: "extras.webhooks.send_webhook",
    args: [],
    kwargs: {
      delivery: String(r.id),
      webhook: String(r.webhook ?? ""),
      event: String(r.event),
      object_type: String(r.object_type),
      object_id: String(r.object_id),
      request_id: String(r.request_id),
    },
    result: r.last_status_code == null ? null : `HTTP ${r.last_status_code}`,
    timeout: ctx.config.WEBHOOK_TIMEOUT,
    result_ttl: null,
    created_at: r.created ?? null,
    enqueued_at: r.next_attempt ?? r.created ?? null,
    started_at: r.started ?? null,
    ended_at: r.finished ?? null,
    worker_name: status === "started" ? String(r.claimed_by ?? "queue-consumer") : null,
    position: status === "queued" ? Number(r.position) : null,
    status,
    meta: { delivery_id: Number(r.id), attempts: Number(r.attempts), error_log: String(r.error_log ?? "") },
    last_heartbeat: null,
    is_finished: status === "finished",
    is_queued: status === "queued",
    is_failed: status === "failed",
    is_started: status === "started",
    is_deferred: status === "deferred",
    is_canceled: false,
    is_scheduled: status === "scheduled",
    is_stopped: false,
  };
}

/** The one delivery named by its task id (its UUID), or 404. */
async function findTask(ctx: RouteContext, key: string): Promise<Row> {
  const now = ctx.now.toISOString();
  const [found] = await readBatch(ctx, [sql`${taskSelect(now)} AND d.uuid = ${key}`.compile(qb)]);
  if (!found.rows[0]) throw ApiError.notFound();
  return found.rows[0];
}

/** The page asked for of a list held whole (one queue, a few workers), in NetBox's list envelope. */
function pageOf(ctx: RouteContext, all: unknown[]) {
  const { limit, offset } = parsePage(ctx.config, ctx.url.searchParams);
  return json(paginated(ctx.url, { limit, offset }, all.length, all.slice(offset, limit === null ? undefined : offset + limit)));
}

/** The queue's figures, as NetBox's BackgroundQueueSerializer gives django-rq's statistics. */
async function queueStats(ctx: RouteContext) {
  const now = ctx.now.toISOString();
  const [stats] = await readBatch(ctx, [
    sql`SELECT count(*) FILTER (WHERE rq_status = 'queued') AS jobs, min(created) FILTER (WHERE rq_status = 'queued') AS oldest,
      count(*) FILTER (WHERE rq_status = 'finished') AS finished, count(*) FILTER (WHERE rq_status = 'started') AS started,
      count(*) FILTER (WHERE rq_status = 'deferred') AS deferred, count(*) FILTER (WHERE rq_status = 'failed') AS failed,
      count(*) FILTER (WHERE rq_status = 'scheduled') AS scheduled,
      count(DISTINCT coalesce(claimed_by, 'queue-consumer')) FILTER (WHERE rq_status = 'started') AS workers
      FROM (${taskSelect(now)})`.compile(qb),
  ]);
  const s = stats.rows[0];
  return {
    name: QUEUE,
    url: `${ctx.origin}/api/core/background-queues/${QUEUE}/`,
    jobs: Number(s.jobs),
    oldest_job_timestamp: s.oldest ?? null,
    index: 0,
    scheduler_pid: null,
    workers: Number(s.workers),
    finished_jobs: Number(s.finished),
    started_jobs: Number(s.started),
    deferred_jobs: Number(s.deferred),
    failed_jobs: Number(s.failed),
    scheduled_jobs: Number(s.scheduled),
  };
}

/**
 * The consumers that sent deliveries in the last day, as workers: each Node or Deno process's
 * in-process consumer (named by host, pid and start token) or, on Workers, the queue consumer.
 */
async function workers(ctx: RouteContext) {
  const now = ctx.now.toISOString();
  const since = new Date(ctx.now.getTime() - 86_400_000).toISOString();
  const [found] = await readBatch(ctx, [
    sql`SELECT coalesce(claimed_by, 'queue-consumer') AS name, min(started) AS birth, max(lease_until >= ${now}) AS busy,
      count(*) FILTER (WHERE status = 'succeeded') AS ok, count(*) FILTER (WHERE status = 'failed') AS failed,
      coalesce(sum(duration_ms), 0) AS ms
      FROM extras_webhookdelivery WHERE started >= ${since} GROUP BY 1 ORDER BY 1`.compile(qb),
  ]);
  return found.rows.map((r) => ({
    name: String(r.name),
    url: `${ctx.origin}/api/core/background-workers/${encodeURIComponent(String(r.name))}/`,
    state: Number(r.busy) ? "busy" : "idle",
    birth_date: r.birth ?? null,
    queue_names: [QUEUE],
    pid: String(r.name).split(":")[1] ?? null,
    successful_job_count: Number(r.ok),
    failed_job_count: Number(r.failed),
    total_working_time: Math.round(Number(r.ms) / 1000),
  }));
}

const ok = () => new Response(null, { status: 200 });

/** Answers staff only: a list, its items by key, and POST actions on an item. */
interface Listing {
  readonly path: string;
  readonly summary: string;
  readonly key: { readonly name: string; readonly schema: JsonSchema };
  list(ctx: RouteContext): Promise<Response>;
  item(ctx: RouteContext, key: string): Promise<Response>;
  readonly actions?: Readonly<Record<string, (ctx: RouteContext, key: string) => Promise<Response>>>;
}

/** A listing as an app path of core, read by GET, its actions by POST, all for staff only. */
function listing(l: Listing): AppPath {
  const read = { GET: { summary: l.summary } };
  return {
    app: "core",
    path: l.path,
    operations: read,
    item: { key: l.key, operations: read },
    actions: Object.fromEntries(Object.keys(l.actions ?? {}).map((name) => [name, { summary: `${name} (${l.path})` }])),
    async handler(ctx, { key, action }) {
      await requireStaff(ctx);
      if (key === null) return l.list(ctx);
      return action ? l.actions![action](ctx, key) : l.item(ctx, key);
    },
  };
}

export const backgroundQueues = listing({
  path: "background-queues",
  summary: "The background queue: here the webhook delivery queue (`default`) and its figures.",
  key: { name: "name", schema: { type: "string", pattern: "^[\\w.@+-]+$" } },
  async list(ctx) {
    return pageOf(ctx, [await queueStats(ctx)]);
  },
  async item(ctx, name) {
    if (name !== QUEUE) throw ApiError.notFound();
    return json(await queueStats(ctx));
  },
});

export const backgroundWorkers = listing({
  path: "background-workers",
  summary: "The consumers that sent webhook deliveries in the last day, as workers.",
  key: { name: "name", schema: { type: "string" } },
  async list(ctx) {
    return pageOf(ctx, await workers(ctx));
  },
  async item(ctx, name) {
    const found = (await workers(ctx)).find((w) => w.name === name);
    if (!found) throw ApiError.notFound();
    return json(found);
  },
});

export const backgroundTasks = listing({
  path: "background-tasks",
  summary: "Webhook deliveries as tasks: queued, deferred, scheduled, started, finished and failed.",
  key: { name: "id", schema: { type: "string" } },
  async list(ctx) {
    const { limit, offset } = parsePage(ctx.config, ctx.url.searchParams);
    const now = ctx.now.toISOString();
    const [rows, count] = await readBatch(ctx, [
      sql`${taskSelect(now)} ORDER BY d.id DESC LIMIT ${limit ?? -1} OFFSET ${offset}`.compile(qb),
      sql`SELECT count(*) AS n FROM extras_webhookdelivery WHERE status <> 'pending'`.compile(qb),
    ]);
    const tasks = rows.rows.map((r) => task(ctx, r));
    return json(paginated(ctx.url, { limit, offset }, Number(count.rows[0].n), tasks));
  },
  async item(ctx, key) {
    return json(task(ctx, await findTask(ctx, key)));
  },
  actions: {
    /** Deletes the delivery (it will not be sent); one a consumer is sending cannot be. */
    async delete(ctx, key) {
      const r = await findTask(ctx, key);
      if (r.rq_status === "started")
        throw ApiError.detail("invalid", "This task is being sent now and cannot be deleted; try again shortly.");
      const [gone] = await writeBatch(ctx, [
        sql`DELETE FROM extras_webhookdelivery WHERE id = ${Number(r.id)} AND (lease_until IS NULL OR lease_until < ${ctx.now.toISOString()})
          RETURNING (SELECT min(e.id) FROM extras_webhookdelivery e WHERE e.webhook_id = extras_webhookdelivery.webhook_id
            AND e.object_type = extras_webhookdelivery.object_type AND e.object_id = extras_webhookdelivery.object_id
            AND e.status IN ('queued', 'pending') AND e.id > extras_webhookdelivery.id) AS next`.compile(qb),
      ]);
      // The run that waited behind it (events of one object go in order) may go now.
      const next = gone.rows[0]?.next;
      if (next != null) ctx.waitUntil(ctx.enqueue([Number(next)]));
      return ok();
    },
    /** A failed delivery goes back to the queue (as `POST /api/extras/webhook-deliveries/<id>/retry/`). */
    async requeue(ctx, key) {
      const r = await findTask(ctx, key);
      if (r.rq_status !== "failed") throw ApiError.detail("invalid", `Only failed tasks can be requeued; this one is ${r.rq_status}.`);
      await retryDeliveries(ctx, webhookDelivery, { ids: [Number(r.id)], bulk: false });
      return ok();
    },
    /** A scheduled delivery (waiting for a retry's backoff) is sent now. */
    async enqueue(ctx, key) {
      const r = await findTask(ctx, key);
      if (r.rq_status === "deferred") {
        throw ApiError.detail(
          "invalid",
          "This task waits for an earlier delivery of the same object to its webhook; events are sent in order.",
        );
      }
      if (r.rq_status !== "scheduled" && r.rq_status !== "queued") {
        throw ApiError.detail("invalid", `Only queued or scheduled tasks can be enqueued; this one is ${r.rq_status}.`);
      }
      await writeBatch(ctx, [
        sql`UPDATE extras_webhookdelivery SET next_attempt = ${ctx.now.toISOString()} WHERE id = ${Number(r.id)} AND status = 'queued'`.compile(
          qb,
        ),
      ]);
      ctx.waitUntil(ctx.enqueue([Number(r.id)]));
      return ok();
    },
    /**
     * A delivery being sent is one HTTP request, bounded by WEBHOOK_TIMEOUT, in another process
     * or isolate: it cannot be stopped from here. One not being sent has nothing to stop (204, as NetBox answers).
     */
    async stop(ctx, key) {
      const r = await findTask(ctx, key);
      if (r.rq_status !== "started") return new Response(null, { status: 204 });
      throw ApiError.detail(
        "invalid",
        "Stopping a running task is not supported: a webhook delivery being sent is one HTTP request, which ends within WEBHOOK_TIMEOUT.",
      );
    },
  },
});

export const paths: readonly AppPath[] = [backgroundQueues, backgroundTasks, backgroundWorkers];

import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import { cascadedRows } from "./changes/cascade.ts";
import type { Row, Statement } from "../db/database.ts";
import { qb, Slot, Template } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { selectSql } from "./select.ts";

/**
 * THE OUTBOX. The last statement of every write transaction: from the change records this
 * request wrote (whatever statement wrote them: the object's own, a cascade, a hook's component
 * instantiation), one event per changed object, matched against the enabled event rules and the
 * webhooks that act as their own rule (NetBox 3.x), gives one delivery per matching webhook. It
 * commits with the change or not at all; the ids it returns go to the queue after commit.
 *
 * The event is frozen here, as of the commit: a created or updated object of the `represented`
 * models keeps its full representation as read in this transaction (`data`), and so does a
 * deleted one, directly or in cascade, read before its rows went (`deletedDataStatements`);
 * another model's keeps its snapshots, which the change records hold. A run whose rule has
 * conditions keeps them and starts `pending`, which the API does not show: the consumer evaluates
 * them on the frozen data, then queues the run or drops it, so a rejected event never shows as
 * queued. Matching rows only pay for reading the representation.
 *
 * Several changes to one object make one event, as NetBox merges them per request: a create then
 * an update is one `created` with the final data; anything followed by a delete is `deleted`; the
 * snapshots are the first record's pre-change and the last record's post-change state.
 */
export function outboxStatement(ctx: Actor): Statement {
  outbox ??= outboxTemplate();
  return bind(ctx, outbox);
}

/** A template of this file bound to the request's values (and the ids, for deleted objects). */
function bind(ctx: Actor, template: Template, ids?: string): Statement {
  return template.bind({
    requestId: ctx.requestId,
    now: ctx.now.toISOString(),
    username: ctx.user?.username ?? "",
    origin: ctx.origin,
    ids,
  });
}

const dataTemplates = new Map<Model, Template>();

/**
 * Reads, inside the write's transaction, the representation of the created or updated objects of
 * one model that have runs: their data as of the commit. A top-level SELECT, as a list reads it:
 * the representation as one JSON expression inside the outbox's INSERT would pass SQLite's parser
 * depth (cable paths, nested relations, custom fields' objects). `freezeEventData` keeps it.
 */
export function eventDataStatement(ctx: Actor, model: Model): Statement {
  const build = () =>
    new Template(sql`SELECT d.id AS __delivery, ${selectSql(model, model.readableFields)} FROM extras_webhookdelivery d
      JOIN ${sql.table(model.table)} ON ${sql.ref(`${model.table}.id`)} = d.object_id
      WHERE d.request_id = ${SLOTS.requestId} AND d.object_type = ${sql.lit(model.objectType)} AND d.event <> 'deleted'`);
  return bind(ctx, remembered(dataTemplates, model, build));
}

/** Whether an enabled rule (or NetBox 3.x webhook) sends deletes of the object type `type`. */
const sendsDeletes = (
  type: RawBuilder<unknown>,
) => sql`(EXISTS (SELECT 1 FROM extras_eventrule r JOIN extras_webhook w ON w.id = r.action_object_id
    WHERE r.enabled = 1 AND w.enabled = 1 AND r.action_type = 'webhook' AND r.action_object_type = 'extras.webhook'
    AND EXISTS (SELECT 1 FROM json_each(r.object_types) WHERE value = ${type})
    AND EXISTS (SELECT 1 FROM json_each(r.event_types) WHERE value = 'object_deleted'))
  OR EXISTS (SELECT 1 FROM extras_webhook w WHERE w.enabled = 1 AND w.type_delete
    AND EXISTS (SELECT 1 FROM json_each(w.object_types) WHERE value = ${type})))`;

/** The objects a write deletes, and which of the models it removes rows of have rules that send their deletes. */
export interface DeletedObjects {
  readonly model: Model;
  readonly ids: readonly number[];
  /** Object types (the model's, its cascade's) whose deletes an enabled rule sends, as `deleteRulesProbe` found. */
  readonly sent: ReadonlySet<string>;
}

const probes = new Map<Model, Statement>();

/**
 * For a delete's first round trip: which of the models a delete of `model` removes rows of (its
 * own, and those its cascade takes) an enabled rule sends deletes of, so the deleting
 * transaction reads the representations of those only (`deletedDataStatements`), and nothing
 * when no rule sends any. One statement whatever the cascade.
 */
export function deleteRulesProbe(model: Model): Statement {
  return remembered(probes, model, () => {
    const types = [...new Set([model, ...cascadedRows(model, sql`(NULL)`).map((c) => c.model)].map((m) => m.objectType))];
    return sql`SELECT value AS type FROM json_each(${JSON.stringify(types)}) WHERE ${sendsDeletes(sql.ref("value"))}`.compile(qb);
  });
}

const deletedTemplates = new Map<Model, { model: Model; template: Template }[]>();

/**
 * Reads, inside the deleting transaction and before its deletes, the representation of the
 * objects about to go, as NetBox sends a deleted object's `data`: the object as its GET showed it
 * (choices as value and label, related objects nested), not a snapshot; so too for each row the
 * delete removes in cascade (a device's interfaces), as NetBox sends each of them. One statement
 * per model of `deleted.sent` (none when no rule sends deletes); `freezeDeletedDataStatement`
 * keeps each on the runs once the outbox has written them.
 */
export function deletedDataStatements(ctx: Actor, deleted: DeletedObjects): { model: Model; statement: Statement }[] {
  const templates = remembered(deletedTemplates, deleted.model, () => {
    const named = sql`(SELECT value FROM json_each(${SLOTS.ids}))`;
    return [{ model: deleted.model, ids: named }, ...cascadedRows(deleted.model, named)].map(({ model, ids }) => ({
      model,
      template: new Template(
        sql`SELECT ${sql.ref(`${model.table}.id`)} AS __object, ${selectSql(model, model.readableFields)} FROM ${sql.table(model.table)}
        WHERE ${sql.ref(`${model.table}.id`)} IN ${ids}`,
      ),
    }));
  });
  const ids = JSON.stringify(deleted.ids);
  return templates
    .filter((t) => deleted.sent.has(t.model.objectType))
    .map(({ model, template }) => ({ model, statement: bind(ctx, template, ids) }));
}

/** Keeps the representations `deletedDataStatements` read on the request's `deleted` runs of the model. */
export function freezeDeletedDataStatement(ctx: Actor, model: Model, rows: readonly Row[]): Statement | null {
  if (!rows.length) return null;
  const data = JSON.stringify(
    rows.map((row) => {
      const { __object, ...representation } = row;
      return [Number(__object), JSON.stringify(representation)];
    }),
  );
  return sql`UPDATE extras_webhookdelivery SET data = (SELECT j.value ->> 1 FROM json_each(${data}) j WHERE j.value ->> 0 = extras_webhookdelivery.object_id)
    WHERE request_id = ${ctx.requestId} AND event = 'deleted' AND object_type = ${model.objectType}
    AND object_id IN (SELECT j.value ->> 0 FROM json_each(${data}) j)`.compile(qb);
}

/**
 * Keeps the data `eventDataStatement` read on the runs, after commit and before they are
 * enqueued (one statement). Should it be lost (a crash in between), the consumer falls back to the
 * change records' snapshots, which committed with the change.
 */
export function freezeEventDataStatement(rows: readonly Row[]): Statement | null {
  if (!rows.length) return null;
  const data = rows.map((row) => {
    const { __delivery, ...representation } = row;
    return [Number(__delivery), JSON.stringify(representation)];
  });
  return sql`UPDATE extras_webhookdelivery SET data = (SELECT j.value ->> 1 FROM json_each(${JSON.stringify(data)}) j WHERE j.value ->> 0 = extras_webhookdelivery.id)
    WHERE id IN (SELECT j.value ->> 0 FROM json_each(${JSON.stringify(data)}) j)`.compile(qb);
}

/**
 * Placeholders for the request's values in the statements built once (the outbox INSERT, and the
 * event-data SELECT per model, whose representation SQL would cost more to build than to run).
 */
const SLOTS = {
  requestId: new Slot("requestId"),
  now: new Slot("now"),
  username: new Slot("username"),
  origin: new Slot("origin"),
  ids: new Slot("ids"),
} as const;
let outbox: Template | null = null;

function outboxTemplate(): Template {
  const ctx = { requestId: SLOTS.requestId, origin: SLOTS.origin, user: { username: SLOTS.username } };
  const now = SLOTS.now;
  // The representation is read by `eventDataStatement` and kept by `freezeEventDataStatement`.
  const data = sql`NULL`;
  return new Template(sql`INSERT INTO extras_webhookdelivery (uuid, webhook_id, event_rule_id, event, object_type, object_id, object_repr, request_id,
      username, status, attempts, run_attempts, response_excerpt, error_log, created, last_updated, next_attempt, origin, prechange_data, postchange_data,
      conditions, data)
    WITH grouped AS (
      SELECT changed_object_type AS type, changed_object_id AS oid, min(id) AS first_id, max(id) AS last_id, max(action = 'delete') AS gone
      FROM core_objectchange WHERE request_id = ${ctx.requestId} GROUP BY changed_object_type, changed_object_id
    ), events AS (
      SELECT g.type, g.oid, fc.prechange_data AS pre, lc.postchange_data AS post, lc.object_repr AS repr,
        CASE WHEN g.gone THEN 'deleted' WHEN fc.action = 'create' THEN 'created' ELSE 'updated' END AS event
      FROM grouped g JOIN core_objectchange fc ON fc.id = g.first_id JOIN core_objectchange lc ON lc.id = g.last_id
    ), targets AS (
      SELECT r.id AS rule_id, w.id AS webhook_id, r.object_types, r.event_types, r.conditions
      FROM extras_eventrule r JOIN extras_webhook w ON w.id = r.action_object_id
      WHERE r.enabled = 1 AND w.enabled = 1 AND r.action_type = 'webhook' AND r.action_object_type = 'extras.webhook'
      UNION ALL
      SELECT NULL, w.id, w.object_types, json_array(
          CASE WHEN w.type_create THEN 'object_created' END, CASE WHEN w.type_update THEN 'object_updated' END,
          CASE WHEN w.type_delete THEN 'object_deleted' END), w.conditions
      FROM extras_webhook w WHERE w.enabled = 1 AND (w.type_create OR w.type_update OR w.type_delete)
    ), matched AS (
      SELECT e.type, e.oid, e.event, e.repr, e.pre, e.post, t.webhook_id, t.rule_id,
        CASE WHEN json_type(t.conditions) = 'object' AND t.conditions <> '{}' THEN t.conditions END AS conditions
      FROM events e JOIN targets t
        ON EXISTS (SELECT 1 FROM json_each(t.object_types) WHERE value = e.type)
        AND EXISTS (SELECT 1 FROM json_each(t.event_types) WHERE value = 'object_' || e.event)
    )
    SELECT lower(hex(randomblob(16))), m.webhook_id, m.rule_id, m.event, m.type, m.oid, m.repr, ${ctx.requestId},
      ${ctx.user?.username ?? ""}, CASE WHEN m.conditions IS NULL THEN 'queued' ELSE 'pending' END, 0, 0, '', '', ${now}, ${now}, ${now}, ${ctx.origin},
      m.pre, m.post, m.conditions, ${data}
    FROM matched m
    ORDER BY m.type, m.oid, m.webhook_id
    RETURNING id`);
}

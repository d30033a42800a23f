import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { eventRuleHooks, webhookHooks } from "./event-rules.ts";
import { retryManyRoute, retryOneRoute } from "./delivery-retry.ts";
import { listContains } from "../../schema/filter-sql.ts";
import { objectTypesListFilters } from "./object-types.ts";

/** The events a rule can name (NetBox 4.1+ `event_types`); job events do not apply here. */
export const EVENT_TYPES = [
  { value: "object_created", label: "Object created" },
  { value: "object_updated", label: "Object updated" },
  { value: "object_deleted", label: "Object deleted" },
] as const;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * An outgoing webhook: where and how to send (URL, method, content type, headers and body as
 * mustache templates, a signing secret). Event rules point at it; it may also carry NetBox 3.x's
 * own object types, `type_create`/`type_update`/`type_delete`, conditions and `enabled`, and then
 * acts as its own event rule, so configurations of both eras work.
 */
export const webhook = defineModel({
  app: "extras",
  name: "webhook",
  fields: {
    name: f.string({ maxLength: 150, unique: true }),
    description,
    payload_url: f.string({
      maxLength: 500,
      label: "URL",
      helpText: "A mustache template; rendered per event, then checked against the destination policy.",
    }),
    http_method: f.string({
      maxLength: 30,
      default: "POST",
      label: "HTTP method",
      check: (s) => ((HTTP_METHODS as readonly string[]).includes(s) ? undefined : `"${s}" is not a valid choice.`),
    }),
    http_content_type: f.string({ maxLength: 100, default: "application/json", label: "HTTP content type" }),
    additional_headers: f.text({ helpText: "One `Name: Value` per line; a mustache template." }),
    body_template: f.text({ helpText: "A mustache template; blank sends the default JSON body." }),
    // Shown to whoever may view the webhook and filterable, as NetBox 4.2 answers it (SPEC.md does
    // not rule otherwise); it never reaches a delivery's stored request, a log or an error.
    secret: f.string({
      maxLength: 255,
      blank: true,
      helpText: "Signs each request (X-Hook-Signature, webhook-signature).",
    }),
    ssl_verification: f.boolean({ default: true, label: "SSL verification" }),
    ca_file_path: f.string({ maxLength: 4096, nullable: true, default: null, helpText: "Not applicable on Cloudflare Workers." }),
    object_types: f.stringList({ helpText: "NetBox 3.x: the webhook acts as its own event rule for these object types." }),
    content_types: f.stringList({ column: null, helpText: "NetBox 3.x's name for object_types." }),
    type_create: f.boolean({ default: false }),
    type_update: f.boolean({ default: false }),
    type_delete: f.boolean({ default: false }),
    conditions: f.json({ nullable: true }),
    enabled: f.boolean({ default: true }),
  },
  brief: ["name", "description"],
  search: ["name", "description", "payload_url"],
  hooks: webhookHooks(() => webhook),
});

/** NetBox 4.x's event rule: which events of which object types trigger which webhook, under which conditions. */
export const eventRule = defineModel({
  app: "extras",
  name: "eventrule",
  verboseName: "event rule",
  className: "EventRule",
  fields: {
    name: f.string({ maxLength: 150, unique: true }),
    description,
    object_types: f.stringList({ required: true }),
    event_types: f.stringList({ required: true }),
    enabled: f.boolean({ default: true }),
    conditions: f.json({ nullable: true }),
    action_type: f.choice([{ value: "webhook", label: "Webhook" }], { default: "webhook" }),
    // Required on create (the hook says so); a rule whose webhook is deleted stays, without an
    // action, until it is pointed elsewhere.
    action_object: f.generic(["extras.webhook"], { nullable: true, required: false }),
    comments,
  },
  brief: ["name", "description"],
  hooks: eventRuleHooks(() => eventRule),
  filters: {
    ...objectTypesListFilters("object_types"),
    event_type: listContains("event_types"),
  },
});

export const DELIVERY_STATUS = [
  { value: "queued", label: "Queued" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
] as const;

export const DELIVERY_EVENTS = [
  { value: "created", label: "Created" },
  { value: "updated", label: "Updated" },
  { value: "deleted", label: "Deleted" },
] as const;

/**
 * One run of one webhook for one event, written as `queued` (or, while its rule's conditions wait
 * to be evaluated, as hidden `pending`) in the transaction of the change
 * (the outbox, `src/engine/outbox.ts`), then sent by the consumer. Read-only but for retry.
 */
export const webhookDelivery = defineModel({
  app: "extras",
  name: "webhookdelivery",
  verboseName: "webhook delivery",
  className: "WebhookDelivery",
  path: "webhook-deliveries",
  // NetBox has no such model; ours has its own page.
  page: "/admin/webhook-deliveries/",
  taggable: false,
  readOnly: true,
  fields: {
    webhook: f.fk("extras.webhook", { nullable: true, onDelete: "setNull", readOnly: true }),
    event_rule: f.fk("extras.eventrule", { nullable: true, onDelete: "setNull", readOnly: true }),
    event: f.choice(DELIVERY_EVENTS, { readOnly: true }),
    object_type: f.string({ maxLength: 100, readOnly: true }),
    object_id: f.integer({ readOnly: true }),
    object_repr: f.string({ maxLength: 200, blank: true, readOnly: true }),
    request_id: f.string({ maxLength: 36, readOnly: true }),
    username: f.string({ maxLength: 150, blank: true, readOnly: true }),
    status: f.choice(DELIVERY_STATUS, { default: "queued", readOnly: true }),
    attempts: f.integer({ default: 0, readOnly: true }),
    last_status_code: f.integer({ nullable: true, readOnly: true }),
    response_excerpt: f.text({ readOnly: true }),
    error_log: f.text({ readOnly: true }),
    duration_ms: f.integer({ nullable: true, readOnly: true, label: "Duration (ms)" }),
    started: f.datetime({ nullable: true, readOnly: true }),
    finished: f.datetime({ nullable: true, readOnly: true }),
    next_attempt: f.datetime({ nullable: true, readOnly: true }),
    // The last attempt's request as rendered, so the run can be inspected as sent; secrets masked
    // before they are stored (`src/events/sent-request.ts`).
    request_method: f.string({ maxLength: 10, blank: true, readOnly: true, label: "Request method" }),
    request_url: f.text({
      readOnly: true,
      label: "Request URL",
      helpText: "Credentials in the URL and secret-looking query parameters are masked.",
    }),
    request_headers: f.json({
      nullable: true,
      readOnly: true,
      helpText: "Values of authorization, cookie and secret-looking headers are masked.",
    }),
    request_body: f.text({ readOnly: true, helpText: "The first 4,096 characters." }),
  },
  brief: ["event", "object_type", "object_id", "status"],
  display: (t) =>
    sql`'#' || ${sql.ref(`${t}.id`)} || ' ' || ${sql.ref(`${t}.event`)} || ' ' || ${sql.ref(`${t}.object_type`)} || ' ' || ${sql.ref(`${t}.object_id`)}`,
  search: ["object_repr", "request_id", "error_log"],
  ordering: ["-id"],
  naturalKey: "id",
  routes: [retryOneRoute, retryManyRoute],
  storage: {
    // Stable across retries: the Standard Webhooks `webhook-id`.
    uuid: "TEXT NOT NULL",
    // The API origin of the request, for the absolute URLs in `data`.
    origin: "TEXT NOT NULL DEFAULT ''",
    prechange_data: "TEXT",
    postchange_data: "TEXT",
    // Attempts since the run was (re)queued, for the retry policy.
    run_attempts: "INTEGER NOT NULL DEFAULT 0",
    // While a consumer holds the run, no other takes it; a crashed holder's lease runs out.
    lease_until: "TEXT",
    // Who holds it (a Node or Deno process), so a restart takes back a dead process's claims at once.
    claimed_by: "TEXT",
    // The event as of the commit: the object's representation (as `selectSql` reads it) for a
    // create or update, and the rule's conditions while they wait to be evaluated.
    data: "TEXT",
    conditions: "TEXT",
  },
  // A run waiting for its conditions (`pending`) is not an event yet: the consumer queues or drops it.
  visibleRows: (t) => sql`${sql.ref(`${t}.status`)} <> 'pending'`,
});

export const eventModels = [webhook, eventRule, webhookDelivery];

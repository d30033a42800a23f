import type { Model, Registry } from "../../schema/shapes.ts";
import type { ModelHooks, WriteItem } from "../../schema/hooks.ts";
import { conditionProblem } from "./conditions.ts";
import { templateProblem } from "./render.ts";

const EVENT_TYPES = ["object_created", "object_updated", "object_deleted"];

/** Object types that name no registered model, as NetBox words it. */
export function objectTypeErrors(registry: Registry, item: WriteItem, field: string): void {
  const types = item.values[field] as string[] | undefined;
  if (types === undefined) return;
  const unknown = types.filter((t) => !registry.byObjectType(t));
  if (unknown.length) item.errors[field] = unknown.map((t) => `Invalid object type: ${t}`);
}

function conditionErrors(item: WriteItem): void {
  const problem = conditionProblem(item.values.conditions);
  if (problem) item.errors.conditions = [problem];
}

/**
 * Templates are checked when the webhook is saved, each a 400 naming the field: no larger than
 * WEBHOOK_TEMPLATE_MAX_SIZE (checked first: parsing is work too), and free of syntax errors.
 */
function templateErrors(item: WriteItem, maxSize: number): void {
  for (const name of ["payload_url", "additional_headers", "body_template"]) {
    const value = item.values[name];
    if (typeof value !== "string") continue;
    const size = encoder.encode(value).length;
    const problem =
      size > maxSize
        ? `Ensure this template has at most ${maxSize} bytes (it has ${size}; WEBHOOK_TEMPLATE_MAX_SIZE).`
        : templateProblem(value);
    if (problem) item.errors[name] = [problem];
  }
}

const encoder = new TextEncoder();

export const webhookHooks = (self: () => Model): ModelHooks => ({
  prepareWrite(ctx, items) {
    for (const item of items) {
      // NetBox 3.x clients send `content_types`; it is stored as `object_types`.
      const legacy = item.values.content_types as string[] | undefined;
      if (legacy !== undefined && !(item.values.object_types as string[] | undefined)?.length) item.values.object_types = legacy;
      delete item.values.content_types;
      objectTypeErrors(self().registry, item, "object_types");
      conditionErrors(item);
      templateErrors(item, ctx.config.WEBHOOK_TEMPLATE_MAX_SIZE);
      const verify = item.values.ssl_verification ?? (item.current ? Boolean(item.current.ssl_verification) : true);
      const ca = item.values.ca_file_path !== undefined ? item.values.ca_file_path : (item.current?.ca_file_path ?? null);
      if (!verify && ca) item.errors.ca_file_path = ["Do not specify a CA certificate file if SSL verification is disabled."];
    }
  },
  represent(_ctx, _rows, outs) {
    for (const out of outs) if ("object_types" in out) out.content_types = out.object_types;
  },
});

export const eventRuleHooks = (self: () => Model): ModelHooks => ({
  prepareWrite(_ctx, items) {
    for (const item of items) {
      objectTypeErrors(self().registry, item, "object_types");
      conditionErrors(item);
      if (!item.current && !item.values.action_object) item.errors.action_object_type ??= ["This field is required."];
      for (const name of ["object_types", "event_types"]) {
        if ((item.values[name] as unknown[] | undefined)?.length === 0) item.errors[name] = ["This list may not be empty."];
      }
      const events = item.values.event_types as string[] | undefined;
      // A list field's errors are keyed by the index of the bad entry, as NetBox gives them.
      const bad = (events ?? []).flatMap((e, i) => (EVENT_TYPES.includes(e) ? [] : [[String(i), [`"${e}" is not a valid choice.`]]]));
      if (bad.length) item.errors.event_types = Object.fromEntries(bad);
    }
  },
});

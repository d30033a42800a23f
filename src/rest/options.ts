import type { Model } from "../schema/shapes.ts";
import type { RequestContext } from "../http/context.ts";
import { authorize, isPermitted } from "../engine/permissions.ts";
import { KINDS } from "../schema/kinds/index.ts";

/**
 * OPTIONS on a list or detail endpoint, in DRF's metadata shape, from each field kind's own
 * description. `actions` (POST on a list, PUT on an object) appears only when the requester may
 * add or change; its choice fields list `{value, display_name}`, which Ansible's modules read.
 */
const withActions = (actions: Record<string, unknown>) => (Object.keys(actions).length ? { actions } : {});

/** What the requester may send: POST (create) on a list, PUT (change) on a list (bulk) and an object, as NetBox lists them. */
function actionsFor(ctx: RequestContext, model: Model, detail: boolean, fields: Record<string, unknown>) {
  const actions: Record<string, unknown> = {};
  if (!detail && isPermitted(ctx, model, "add")) actions.POST = fields;
  if (isPermitted(ctx, model, "change")) actions.PUT = fields;
  return actions;
}

export function describeEndpoint(ctx: RequestContext, model: Model, { detail }: { readonly detail: boolean }) {
  authorize(ctx, model, "view");
  const fields: Record<string, unknown> = {
    id: { type: "integer", required: false, read_only: true, label: "ID" },
    url: { type: "field", required: false, read_only: true, label: "Url" },
    ...(model.pageless ? {} : { display_url: { type: "field", required: false, read_only: true, label: "Display url" } }),
    display: { type: "field", required: false, read_only: true, label: "Display" },
  };
  for (const field of model.fields) Object.assign(fields, KINDS[field.kind].options(field));
  return {
    name: `${model.className} ${detail ? "Instance" : "List"}`,
    description: "",
    // The browsable API renders HTML; bodies are JSON (a form-encoded body is read as a login form only).
    renders: ["application/json", "text/html"],
    parses: ["application/json"],
    ...(model.readOnly ? {} : withActions(actionsFor(ctx, model, detail, fields))),
  };
}

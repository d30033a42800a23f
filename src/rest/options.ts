import type { RequestContext } from "../http/context.ts";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";
import { authorize, type Action } from "../auth/permissions.ts";
import { ApiError } from "../http/errors.ts";
import { isWritable } from "./input.ts";

/** DRF's metadata type names for each field kind. */
const TYPES: Record<Field["kind"], string> = {
  string: "string", text: "string", slug: "slug", password: "string", integer: "integer", float: "float",
  boolean: "boolean", choice: "field", datetime: "datetime", json: "json", stringList: "list", ipList: "list",
  fk: "nested object", m2m: "list", count: "integer",
};

function fieldInfo(field: Field): Record<string, unknown> {
  const info: Record<string, unknown> = {
    type: TYPES[field.kind],
    required: Boolean(field.required) && isWritable(field),
    read_only: !isWritable(field),
    label: field.label,
  };
  if (field.helpText) info.help_text = field.helpText;
  if (field.maxLength !== undefined) info.max_length = field.maxLength;
  if (field.min !== undefined) info.min_value = field.min;
  if (field.max !== undefined) info.max_value = field.max;
  if (field.kind === "choice" && isWritable(field)) {
    info.choices = field.choices!.map((c) => ({ value: c.value, display_name: c.label }));
  }
  if (field.kind === "fk") {
    const target = field.target!();
    info.children = {
      id: { type: "integer", required: false, read_only: true, label: "ID" },
      url: { type: "field", required: false, read_only: true, label: "Url" },
      display: { type: "field", required: false, read_only: true, label: "Display" },
      ...Object.fromEntries(target.brief.map((name) => [name, { ...fieldInfo(target.field[name]), read_only: true, required: false }])),
    };
  }
  return info;
}

/**
 * OPTIONS on a list or detail endpoint, in DRF's metadata shape. `actions` (POST on a list, PUT
 * on an object) appears only when the requester may add or change; its choice fields list
 * `{value, display_name}`, which clients such as Ansible's modules read.
 */
export function describeEndpoint(ctx: RequestContext, model: Model, detail: boolean) {
  authorize(ctx, model, "view");
  const method = detail ? "PUT" : "POST";
  const action: Action = detail ? "change" : "add";
  let allowed = true;
  try {
    authorize(ctx, model, action);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    allowed = false;
  }
  const fields: Record<string, unknown> = {
    id: { type: "integer", required: false, read_only: true, label: "ID" },
    url: { type: "field", required: false, read_only: true, label: "Url" },
    display: { type: "field", required: false, read_only: true, label: "Display" },
  };
  for (const field of model.fields) fields[field.name] = fieldInfo(field);
  return {
    name: `${model.className} ${detail ? "Instance" : "List"}`,
    description: "",
    renders: ["application/json"],
    parses: ["application/json"],
    ...(allowed ? { actions: { [method]: fields } } : {}),
  };
}

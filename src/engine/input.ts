import type { Model } from "../schema/shapes.ts";
import * as v from "valibot";
import type { Values } from "../schema/hooks.ts";
import type { FieldErrors } from "../schema/errors.ts";
import { isWritable, KINDS, mirrorOf } from "../schema/kinds/index.ts";
import { pyType } from "../schema/kinds/inputs.ts";

export type Mode = "create" | "put" | "patch";

const schemas = new Map<string, v.GenericSchema>();

/** The valibot schema for one model and mode, built once from the kinds' input schemas. */
export function inputSchema(model: Model, mode: Mode): v.GenericSchema {
  const key = `${model.objectType}:${mode}`;
  let schema = schemas.get(key);
  if (schema) return schema;
  const entries: Record<string, v.GenericSchema> = {};
  for (const field of model.fields) {
    if (!isWritable(field)) continue;
    const inputs = KINDS[field.kind].input!.inputs(field);
    const single = Object.keys(inputs).length === 1;
    for (const [name, s] of Object.entries(inputs)) {
      if (field.required && mode !== "patch") entries[name] = s;
      else if (single && mode === "create" && field.default !== undefined) {
        entries[name] = v.optional(s, copier(field.default));
      } else if (single && mode === "create" && field.nullable && field.column) entries[name] = v.optional(s, null);
      else entries[name] = v.optional(s);
    }
  }
  schema = v.looseObject(entries, "This field is required.");
  schemas.set(key, schema);
  return schema;
}

/**
 * A field's default as each input gets it: a plain value as it is; an object a copy of its own
 * (hooks may change it), an empty list or object made anew (structuredClone cost a bulk of a
 * thousand inputs as much as the rest of their defaults).
 */
function copier(fallback: unknown): unknown {
  if (typeof fallback !== "object" || fallback === null) return fallback;
  if (Array.isArray(fallback) && fallback.length === 0) return () => [];
  if (Object.getPrototypeOf(fallback) === Object.prototype && Object.keys(fallback).length === 0) return () => ({});
  return () => structuredClone(fallback);
}

/**
 * Validates one input object. Returns the writable fields it sets (refs still unresolved) and the
 * errors in NetBox's shape; unknown and read-only keys are ignored, as NetBox ignores them. An
 * alias (`device_role`) is read as the field it mirrors (`role`) when that one is not given.
 */
export function parseInput(model: Model, input: unknown, mode: Mode): { values: Values; errors: FieldErrors } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { values: {}, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyType(input)}.`] } };
  }
  let raw = input as Record<string, unknown>;
  for (const field of model.fields) {
    const mirrored = mirrorOf(field);
    if (mirrored !== undefined && raw[field.name] !== undefined && raw[mirrored] === undefined)
      raw = { ...raw, [mirrored]: raw[field.name] };
  }
  const result = v.safeParse(inputSchema(model, mode), raw, { abortPipeEarly: true });
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.issues) {
      const key = issue.path?.[0]?.key;
      const name = typeof key === "string" ? key : "non_field_errors";
      if (!errors[name]) errors[name] = [issue.message];
    }
    return { values: {}, errors };
  }
  const output = result.output as Values;
  const values: Values = {};
  for (const field of model.fields) {
    if (!isWritable(field)) continue;
    const collect = KINDS[field.kind].input!.collect;
    if (!collect) {
      if (output[field.name] !== undefined) values[field.name] = output[field.name];
      continue;
    }
    const got = collect(field, output);
    if (got.errors) Object.assign(errors, got.errors);
    else if (got.value !== undefined) values[field.name] = got.value;
  }
  return { values, errors };
}

import * as v from "valibot";
import ipaddr from "ipaddr.js";
import type { Field } from "../models/fields.ts";
import type { Model } from "../models/model.ts";
import type { Values } from "../models/hooks.ts";
import type { FieldErrors } from "../http/errors.ts";
import { pythonRepr } from "../http/errors.ts";

export type Mode = "create" | "put" | "patch";

/** A related object as the client named it: by id, or by attributes that must match exactly one. */
export type Ref = { readonly ref: "id"; readonly id: number } | { readonly ref: "attrs"; readonly attrs: Record<string, unknown> };

export const isRef = (x: unknown): x is Ref => typeof x === "object" && x !== null && "ref" in x;

/** Python's name for a JSON value's type, as DRF's messages print it. */
function pyType(x: unknown): string {
  if (x === null) return "NoneType";
  if (Array.isArray(x)) return "list";
  return { string: "str", number: Number.isInteger(x) ? "int" : "float", boolean: "bool", object: "dict" }[typeof x as string] ?? typeof x;
}

const notNull = "This field may not be null.";

/** A schema that converts or refuses a raw value, with NetBox's message. */
function convert<T>(fn: (x: unknown, fail: (message: string) => never) => T) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const fail = (message: string): never => {
        throw new Refusal(message);
      };
      try {
        return fn(dataset.value, fail);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        addIssue({ message: error.message });
        return NEVER;
      }
    }),
  );
}

class Refusal extends Error {}

function stringSchema(field: Field) {
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    if (typeof x !== "string" && typeof x !== "number") fail("Not a valid string.");
    // DRF trims surrounding white space from every string field except secrets.
    const s = field.kind === "password" ? String(x) : String(x).trim();
    if (s === "" && !field.blank) fail("This field may not be blank.");
    if (field.maxLength !== undefined && s.length > field.maxLength) fail(`Ensure this field has no more than ${field.maxLength} characters.`);
    if (s !== "" && field.pattern && !field.pattern.regex.test(s)) fail(field.pattern.message);
    const problem = s === "" ? undefined : field.check?.(s);
    if (problem) fail(problem);
    return s;
  });
}

function numberSchema(field: Field) {
  const integer = field.kind === "integer";
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    const n = typeof x === "number" ? x : typeof x === "string" && x.trim() !== "" ? Number(x) : NaN;
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) fail(integer ? "A valid integer is required." : "A valid number is required.");
    if (field.min !== undefined && n < field.min) fail(`Ensure this value is greater than or equal to ${field.min}.`);
    if (field.max !== undefined && n > field.max) fail(`Ensure this value is less than or equal to ${field.max}.`);
    return n;
  });
}

const BOOLEANS = new Map<unknown, boolean>([
  [true, true], [false, false], [1, true], [0, false],
  ["true", true], ["false", false], ["True", true], ["False", false], ["1", true], ["0", false],
]);

const booleanSchema = convert((x, fail) => (BOOLEANS.has(x) ? BOOLEANS.get(x)! : fail(x === null ? notNull : "Must be a valid boolean.")));

function choiceSchema(field: Field) {
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    if (typeof x === "object") fail('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
    if (x === "") fail("This field may not be blank.");
    // Accept the value as given or in its other JSON type ("1" for 1), as NetBox coerces.
    const hit = field.choices!.find((c) => c.value === x || String(c.value) === String(x));
    return hit ? hit.value : fail(`${x} is not a valid choice.`);
  });
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const datetimeSchema = convert((x, fail) => {
  if (x === null) fail(notNull);
  const s = typeof x === "string" ? x.trim() : "";
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(s) && s.length > 10;
  const ms = ISO_DATETIME.test(s) ? Date.parse(hasZone ? s : `${s.replace(" ", "T")}${s.length > 10 ? "Z" : "T00:00:00Z"}`) : NaN;
  if (Number.isNaN(ms)) fail("Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].");
  return new Date(ms).toISOString();
});

const listOf = (item: (x: unknown, fail: (m: string) => never) => unknown) =>
  convert((x, fail) => {
    if (x === null) fail(notNull);
    if (!Array.isArray(x)) fail(`Expected a list of items but got type "${pyType(x)}".`);
    return (x as unknown[]).map((i) => item(i, fail));
  });

const stringListSchema = listOf((x, fail) => (typeof x === "string" ? x : fail("Not a valid string.")));

/** Networks and addresses, normalised to CIDR (`10.0.0.1` becomes `10.0.0.1/32`). */
const ipListSchema = listOf((x, fail) => {
  if (typeof x !== "string") fail("Enter a valid IPv4 or IPv6 address or network.");
  const s = (x as string).trim();
  try {
    const [addr, bits] = s.includes("/") ? ipaddr.parseCIDR(s) : [ipaddr.parse(s), undefined];
    return `${addr.toString()}/${bits ?? (addr.kind() === "ipv4" ? 32 : 128)}`;
  } catch {
    return fail(`Enter a valid IPv4 or IPv6 address or network: ${s}`);
  }
});

function refOf(x: unknown, fail: (m: string) => never): Ref {
  if (typeof x === "number" && Number.isInteger(x)) return { ref: "id", id: x };
  if (typeof x === "string" && /^\d+$/.test(x)) return { ref: "id", id: Number(x) };
  if (x && typeof x === "object" && !Array.isArray(x)) {
    const attrs = x as Record<string, unknown>;
    const keys = Object.keys(attrs);
    if (keys.length === 1 && keys[0] === "id" && /^\d+$/.test(String(attrs.id))) return { ref: "id", id: Number(attrs.id) };
    if (keys.length === 0) fail("Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: {}");
    return { ref: "attrs", attrs };
  }
  return fail(`Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pythonRepr(x)}`);
}

const fkSchema = (field: Field) => convert((x, fail) => (x === null ? (field.nullable ? null : fail(notNull)) : refOf(x, fail)));
const m2mSchema = listOf(refOf);

const customFieldsSchema = convert((x, fail) =>
  x && typeof x === "object" && !Array.isArray(x)
    ? x
    : fail("Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values."),
);

function fieldSchema(field: Field): v.GenericSchema {
  const base = (() => {
    switch (field.kind) {
      case "string": case "text": case "slug": case "password": return stringSchema(field);
      case "integer": case "float": return numberSchema(field);
      case "boolean": return booleanSchema;
      case "choice": return choiceSchema(field);
      case "datetime": return datetimeSchema;
      case "stringList": return stringListSchema;
      case "ipList": return ipListSchema;
      case "fk": return fkSchema(field);
      case "m2m": return m2mSchema;
      case "json": return field.name === "custom_fields" ? customFieldsSchema : v.unknown();
      case "count": return v.unknown();
    }
  })();
  return field.nullable && field.kind !== "fk" ? v.nullable(base) : base;
}

/** True when clients may write the field. */
export const isWritable = (field: Field): boolean => !field.readOnly && field.kind !== "count";

const schemas = new Map<string, v.GenericSchema>();

/** The valibot schema for one model and mode, built once. */
export function inputSchema(model: Model, mode: Mode): v.GenericSchema {
  const key = `${model.objectType}:${mode}`;
  let schema = schemas.get(key);
  if (schema) return schema;
  const entries: Record<string, v.GenericSchema> = {};
  for (const field of model.fields) {
    if (!isWritable(field)) continue;
    const s = fieldSchema(field);
    const required = field.required && mode !== "patch";
    if (required) entries[field.name] = s;
    else if (mode === "create" && field.default !== undefined) entries[field.name] = v.optional(s, () => structuredClone(field.default));
    else if (mode === "create" && field.nullable && field.column) entries[field.name] = v.optional(s, null);
    else entries[field.name] = v.optional(s);
  }
  schema = v.looseObject(entries, "This field is required.");
  schemas.set(key, schema);
  return schema;
}

/**
 * Validates one input object. Returns the writable fields it sets (refs still unresolved) and the
 * errors in NetBox's shape; unknown and read-only keys are ignored, as NetBox ignores them.
 */
export function parseInput(model: Model, input: unknown, mode: Mode): { values: Values; errors: FieldErrors } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { values: {}, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyType(input)}.`] } };
  }
  const result = v.safeParse(inputSchema(model, mode), input, { abortPipeEarly: true });
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.issues) {
      const key = issue.path?.[0]?.key;
      const name = typeof key === "string" ? key : "non_field_errors";
      if (!errors[name]) errors[name] = [issue.message];
    }
    return { values: {}, errors };
  }
  const values: Values = {};
  for (const field of model.fields) {
    if (isWritable(field) && (result.output as Values)[field.name] !== undefined) values[field.name] = (result.output as Values)[field.name];
  }
  return { values, errors };
}

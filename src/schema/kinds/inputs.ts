import type { Field } from "../shapes.ts";
import * as v from "valibot";
import ipaddr from "ipaddr.js";
import { pythonRepr } from "../errors.ts";
import { formatNetwork, formatPrefix, firstOf, parseNetwork } from "../../lib/network.ts";
import type { Ref } from "./descriptor.ts";
import { jsonDepth, MAX_JSON_DEPTH, MAX_REF_DEPTH } from "./limits.ts";

/** Input schemas, with NetBox's (DRF's) messages. */

/** Python's name for a JSON value's type, as DRF's messages print it. */
export function pyType(x: unknown): string {
  if (x === null) return "NoneType";
  if (Array.isArray(x)) return "list";
  return { string: "str", number: Number.isInteger(x) ? "int" : "float", boolean: "bool", object: "dict" }[typeof x as string] ?? typeof x;
}

export const notNull = "This field may not be null.";
class Refusal extends Error {}

/** A schema that converts or refuses a raw value, with NetBox's message. */
export function convert<T>(fn: (x: unknown, fail: (message: string) => never) => T): v.GenericSchema {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return fn(dataset.value, (message) => {
          throw new Refusal(message);
        });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        addIssue({ message: error.message });
        return NEVER;
      }
    }),
  ) as v.GenericSchema;
}

export const nullable = (field: Field, s: v.GenericSchema) => (field.nullable ? v.nullable(s) : s);

export function stringSchema(field: Field) {
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    if (typeof x !== "string" && typeof x !== "number") fail("Not a valid string.");
    // DRF trims surrounding white space from every string field except secrets.
    const s = field.kind === "password" ? String(x) : String(x).trim();
    if (s === "" && !field.blank) fail("This field may not be blank.");
    if (field.maxLength !== undefined && s.length > field.maxLength)
      fail(`Ensure this field has no more than ${field.maxLength} characters.`);
    const problem = s === "" ? undefined : field.check?.(s);
    if (problem) fail(problem);
    if (s !== "" && field.pattern && !field.pattern.regex.test(s)) fail(field.pattern.message);
    return s;
  });
}

export function numberSchema(field: Field) {
  const integer = field.kind === "integer";
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    const n = typeof x === "number" ? x : typeof x === "string" && x.trim() !== "" ? Number(x) : NaN;
    if (!Number.isFinite(n) || (integer && !Number.isSafeInteger(n)))
      fail(integer ? "A valid integer is required." : "A valid number is required.");
    if (field.decimalPlaces !== undefined) {
      const problem = decimalProblem(typeof x === "string" ? x.trim() : String(x), field.maxDigits!, field.decimalPlaces);
      if (problem) fail(problem);
    }
    if (field.min !== undefined && n < field.min) fail(`Ensure this value is greater than or equal to ${field.min}.`);
    if (field.max !== undefined && n > field.max) fail(`Ensure this value is less than or equal to ${field.max}.`);
    return n;
  });
}

/** DRF's precision checks of a decimal, on the digits as written (`1.50` has two places). */
function decimalProblem(text: string, maxDigits: number, places: number): string | undefined {
  const plain = /e/i.test(text)
    ? Number(text)
        .toFixed(20)
        .replace(/\.?0+$/, "")
    : text;
  const [whole, fraction = ""] = plain.replace(/^[-+]/, "").split(".");
  const wholeDigits = whole.replace(/^0+/, "").length;
  if (wholeDigits + fraction.length > maxDigits) return `Ensure that there are no more than ${maxDigits} digits in total.`;
  if (fraction.length > places) return `Ensure that there are no more than ${places} decimal places.`;
  if (wholeDigits > maxDigits - places) return `Ensure that there are no more than ${maxDigits - places} digits before the decimal point.`;
  return undefined;
}

const BOOLEANS = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ["true", true],
  ["false", false],
  ["True", true],
  ["False", false],
  ["1", true],
  ["0", false],
]);
export const booleanSchema = convert((x, fail) =>
  BOOLEANS.has(x) ? BOOLEANS.get(x)! : fail(x === null ? notNull : "Must be a valid boolean."),
);

export function choiceSchema(field: Field) {
  return convert((x, fail) => {
    // A blank-able choice stores "" and null alike as NULL, and reads back as null (NetBox).
    if ((x === null || x === "") && field.nullable) return null;
    if (x === null) fail(notNull);
    if (typeof x === "object") fail('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
    if (x === "") fail("This field may not be blank.");
    // Accept the value as given or in its other JSON type ("1" for 1), as NetBox coerces.
    const hit = field.choices!.find((c) => c.value === x || String(c.value) === String(x) || c.accepts?.includes(x as string));
    return hit ? hit.value : fail(field.bare ? `"${x}" is not a valid choice.` : `${x} is not a valid choice.`);
  });
}

export const dateSchema = convert((x, fail) => {
  const m = typeof x === "string" ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(x.trim()) : null;
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (x === null) fail(notNull);
  if (!m || day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) {
    fail("Date has wrong format. Use one of these formats instead: YYYY-MM-DD.");
  }
  return day.toISOString().slice(0, 10);
});

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
export const datetimeSchema = convert((x, fail) => {
  if (x === null) fail(notNull);
  const s = typeof x === "string" ? x.trim() : "";
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(s) && s.length > 10;
  const ms = ISO_DATETIME.test(s) ? Date.parse(hasZone ? s : `${s.replace(" ", "T")}${s.length > 10 ? "Z" : "T00:00:00Z"}`) : NaN;
  if (Number.isNaN(ms))
    fail("Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].");
  return new Date(ms).toISOString();
});

const listOf = (item: (x: unknown, fail: (m: string) => never) => unknown) =>
  convert((x, fail) => {
    if (x === null) fail(notNull);
    if (!Array.isArray(x)) fail(`Expected a list of items but got type "${pyType(x)}".`);
    return (x as unknown[]).map((i) => item(i, fail));
  });

export const stringListSchema = listOf((x, fail) => (typeof x === "string" ? x : fail("Not a valid string.")));

/** Integers within the field's bounds; an empty list only when the field is `blank`. */
export function integerListSchema(field: Field) {
  const integers = listOf((x, fail) => {
    const n = typeof x === "number" ? x : typeof x === "string" && /^-?\d{1,15}$/.test(x.trim()) ? Number(x) : NaN;
    if (!Number.isSafeInteger(n)) fail("A valid integer is required.");
    if (field.min !== undefined && n < field.min) fail(`Ensure this value is greater than or equal to ${field.min}.`);
    if (field.max !== undefined && n > field.max) fail(`Ensure this value is less than or equal to ${field.max}.`);
    return n;
  });
  return v.pipe(
    integers,
    v.check((list) => field.blank || (list as unknown[]).length > 0, "This list may not be empty."),
  ) as v.GenericSchema;
}

/** Networks and addresses, normalised to CIDR (`10.0.0.1` becomes `10.0.0.1/32`). */
export const ipListSchema = listOf((x, fail) => {
  if (typeof x !== "string") fail("Enter a valid IPv4 or IPv6 address or network.");
  const s = (x as string).trim();
  try {
    const [addr, bits] = s.includes("/") ? ipaddr.parseCIDR(s) : [ipaddr.parse(s), undefined];
    return `${addr.toString()}/${bits ?? (addr.kind() === "ipv4" ? 32 : 128)}`;
  } catch {
    return fail(`Enter a valid IPv4 or IPv6 address or network: ${s}`);
  }
});

/**
 * An address or prefix with its mask, as NetBox parses it (an address alone is a host route). A
 * prefix may not have host bits; neither may have a /0 mask.
 */
export function networkSchema(field: Field) {
  const prefix = field.network === "prefix";
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    if (typeof x !== "string" || x.trim() === "") fail(typeof x === "string" ? "This field may not be blank." : "Not a valid string.");
    const text = (x as string).trim();
    const n = parseNetwork(text);
    if (!n) fail(prefix ? `Invalid IP prefix format: ${text}` : `Invalid IP address format: ${text}`);
    if (n!.length === 0) fail(prefix ? "Cannot create prefix with /0 mask." : "Cannot create IP address with /0 mask.");
    if (prefix && firstOf(n!) !== n!.host) fail(`${formatNetwork(n!)} is not a valid prefix. Did you mean ${formatPrefix(n!)}?`);
    return n!;
  });
}

const tooDeep = `Data may be nested at most ${MAX_JSON_DEPTH} levels deep.`;
export const jsonSchema = (field: Field) =>
  convert((x, fail) => {
    // A nullable field's null never gets here (`nullable` lets it through first).
    if (x === null) fail(notNull);
    if (jsonDepth(x, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) fail(tooDeep);
    const problem = field.checkJson?.(x);
    return problem ? fail(problem) : x;
  });
export const customFieldsSchema = convert((x, fail) => {
  if (!x || typeof x !== "object" || Array.isArray(x)) {
    fail("Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.");
  }
  return jsonDepth(x, MAX_JSON_DEPTH) > MAX_JSON_DEPTH ? fail(tooDeep) : x;
});

/** An id, a numeric string, `{"id": n}` or an attribute object, checked for depth. */
function refOf(x: unknown, fail: (m: string) => never): Ref {
  if (typeof x === "number" && Number.isSafeInteger(x) && x >= 0) return { ref: "id", id: x };
  if (typeof x === "string" && /^\d{1,15}$/.test(x)) return { ref: "id", id: Number(x) };
  if (x && typeof x === "object" && !Array.isArray(x)) {
    const attrs = x as Record<string, unknown>;
    const keys = Object.keys(attrs);
    if (keys.length === 1 && keys[0] === "id" && /^\d{1,15}$/.test(String(attrs.id))) return { ref: "id", id: Number(attrs.id) };
    if (keys.length === 0)
      fail("Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: {}");
    if (jsonDepth(attrs, MAX_REF_DEPTH) > MAX_REF_DEPTH)
      fail(`Related object attributes may be nested at most ${MAX_REF_DEPTH} levels deep.`);
    return { ref: "attrs", attrs };
  }
  const shown = jsonDepth(x, 3) > 2 ? pyType(x) : pythonRepr(x);
  return fail(`Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${shown}`);
}

export const fkSchema = (field: Field) => convert((x, fail) => (x === null ? (field.nullable ? null : fail(notNull)) : refOf(x, fail)));
export const m2mSchema = listOf(refOf);
/** A set written as the targets' `key` values (tag slugs), each resolved like an attribute reference. */
export const keyedSchema = (key: string) =>
  listOf((x, fail) => (typeof x === "string" ? { ref: "attrs", attrs: { [key]: x } } : refOf(x, fail)));
export const objectTypeSchema = (field: Field) =>
  convert((x, fail) => {
    if (x === null) return field.nullable ? null : fail(notNull);
    const allowed = field.targets!().map((m) => m.objectType);
    if (typeof x !== "string" || !allowed.includes(x)) fail(`Object type must be one of: ${allowed.join(", ")}.`);
    return x;
  });
export const objectIdSchema = (field: Field) =>
  convert((x, fail) => {
    if (x === null) return field.nullable ? null : fail(notNull);
    const n = typeof x === "number" ? x : typeof x === "string" && /^\d{1,15}$/.test(x) ? Number(x) : NaN;
    return Number.isSafeInteger(n) && n >= 0 ? n : fail("A valid integer is required.");
  });

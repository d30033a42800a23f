import { sql } from "kysely";
import type { Choice } from "./shapes.ts";
import { pythonRepr } from "./errors.ts";
import { pyType } from "./kinds/inputs.ts";

/**
 * THE CUSTOM FIELD TYPES. One entry per type says how a value of that type is checked and
 * stored, which filter lookups `cf_<name>` accepts for it and how a filter value is checked.
 * Messages are NetBox's (`extras/models/customfields.py` behaviour), so clients see the same text.
 */

export type CustomFieldType =
  | "text"
  | "longtext"
  | "integer"
  | "decimal"
  | "boolean"
  | "date"
  | "datetime"
  | "url"
  | "json"
  | "select"
  | "multiselect"
  | "object"
  | "multiobject";

export const CUSTOM_FIELD_TYPES: readonly Choice[] = [
  { value: "text", label: "Text" },
  { value: "longtext", label: "Text (long)" },
  { value: "integer", label: "Integer" },
  { value: "decimal", label: "Decimal" },
  { value: "boolean", label: "Boolean (true/false)" },
  { value: "date", label: "Date" },
  { value: "datetime", label: "Date & time" },
  { value: "url", label: "URL" },
  { value: "json", label: "JSON" },
  { value: "select", label: "Selection" },
  { value: "multiselect", label: "Multiple selection" },
  { value: "object", label: "Object" },
  { value: "multiobject", label: "Multiple objects" },
];

export const CUSTOM_FIELD_FILTER_LOGIC: readonly Choice[] = [
  { value: "disabled", label: "Disabled" },
  { value: "loose", label: "Loose" },
  { value: "exact", label: "Exact" },
];

export const CUSTOM_FIELD_UI_VISIBLE: readonly Choice[] = [
  { value: "always", label: "Always" },
  { value: "if-set", label: "If set" },
  { value: "hidden", label: "Hidden" },
];

export const CUSTOM_FIELD_UI_EDITABLE: readonly Choice[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
  { value: "hidden", label: "Hidden" },
];

export const CHOICE_SET_BASE_CHOICES: readonly Choice[] = [
  { value: "IATA", label: "IATA (Airport codes)" },
  { value: "ISO_3166", label: "ISO 3166 (Country codes)" },
  { value: "UN_LOCODE", label: "UN/LOCODE (Location codes)" },
];

/** A definition as a write or a filter needs it, read from `extras_customfield` in the same batch. */
export interface CustomFieldDefinition {
  readonly name: string;
  readonly type: CustomFieldType;
  readonly relatedObjectType: string | null;
  readonly required: boolean;
  readonly unique: boolean;
  /** The default, parsed; null when none. */
  readonly default: unknown;
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly regex: string;
  /** The choice set's name and values, for selections. */
  readonly choiceSet: { readonly name: string; readonly values: readonly string[] } | null;
}

/** The JSON path of a field's value in custom field data; names are `[a-z0-9_]+`, so quoting is enough. */
export const cfPath = (name: string) => `$."${name}"`;

/** The custom fields (rows of `extras_customfield`, read under `table`) defined for `objectType`. */
export const definedFor = (objectType: string, table = "extras_customfield") =>
  sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${table}.object_types`)}) o WHERE o.value = ${objectType})`;

/** A checked value to store, or the reason it was refused. */
export type Checked = { readonly value: unknown } | { readonly error: string };

interface TypeRule {
  /** What the API reports as `data_type`. */
  readonly dataType: "string" | "integer" | "decimal" | "boolean" | "object" | "array";
  /** Checks a value that is not empty (null or ""); the result is what is stored. */
  check(value: unknown, def: CustomFieldDefinition): Checked;
  /** The `cf_` filter lookups the type accepts, by lookup suffix ("" is the bare filter). */
  readonly lookups: readonly string[];
  /** Checks one filter value; returns the error message, if any. */
  filterValue?(raw: string): string | undefined;
}

const TEXT_LOOKUPS = ["", "n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "empty"];
const RANGE_LOOKUPS = ["", "n", "lt", "lte", "gt", "gte", "empty"];
const SET_LOOKUPS = ["", "n", "empty"];

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEANS = ["true", "false", "1", "0", "True", "False"];

/**
 * Python's `re.match` for a definition's regex: anchored at the start only. Python's named
 * groups `(?P<x>` become JavaScript's `(?<x>`; a pattern neither accepts is null.
 */
export function compileRegex(regex: string): RegExp | null {
  try {
    return new RegExp(
      regex
        .replace(/\(\?P</g, "(?<")
        .replace(/\\A/g, "^")
        .replace(/\\Z/g, "$"),
      "y",
    );
  } catch {
    return null;
  }
}

const ok = (value: unknown): Checked => ({ value });
const refuse = (error: string): Checked => ({ error });

function bounded(n: number, def: CustomFieldDefinition): Checked {
  if (def.minimum !== null && n < def.minimum) return refuse(`Value must be at least ${def.minimum}`);
  if (def.maximum !== null && n > def.maximum) return refuse(`Value must not exceed ${def.maximum}`);
  return ok(n);
}

function text(value: unknown, def: CustomFieldDefinition): Checked {
  if (typeof value !== "string") return refuse("Value must be a string.");
  if (def.regex && !compileRegex(def.regex)?.test(value)) return refuse(`Value must match regex '${def.regex}'`);
  return ok(value);
}

/** A real calendar date `YYYY-MM-DD`. */
function isDate(y: string, m: string, d: string): boolean {
  const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return t.getUTCFullYear() === Number(y) && t.getUTCMonth() === Number(m) - 1 && t.getUTCDate() === Number(d);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A date and time as NetBox reads it back (Python's `isoformat()` as DRF prints it): `T` between
 * date and time, seconds always, microseconds when not zero, a UTC offset as `Z`.
 */
export function normalDatetime(s: string): string | null {
  const m = DATETIME.exec(s.trim());
  if (!m || !isDate(m[1], m[2], m[3])) return null;
  const [h, min, sec] = [m[4] ?? "00", m[5] ?? "00", m[6] ?? "00"];
  if (Number(h) > 23 || Number(min) > 59 || Number(sec) > 59) return null;
  const micro = (m[7] ?? "").padEnd(6, "0");
  const offset = m[8] === undefined ? "" : m[8] === "Z" ? "Z" : `${m[8].slice(0, 3)}:${m[8].slice(-2)}`;
  return `${m[1]}-${m[2]}-${m[3]}T${h}:${min}:${sec}${/^0*$/.test(micro) ? "" : `.${micro}`}${offset === "+00:00" || offset === "-00:00" ? "Z" : offset}`;
}

export const CUSTOM_FIELD_RULES: Record<CustomFieldType, TypeRule> = {
  text: { dataType: "string", check: text, lookups: TEXT_LOOKUPS },
  longtext: { dataType: "string", check: text, lookups: TEXT_LOOKUPS },
  url: { dataType: "string", check: text, lookups: TEXT_LOOKUPS },
  integer: {
    dataType: "integer",
    check: (value, def) =>
      typeof value === "number" && Number.isSafeInteger(value) ? bounded(value, def) : refuse("Value must be an integer."),
    lookups: RANGE_LOOKUPS,
    filterValue: (raw) => (INTEGER.test(raw) ? undefined : "Enter a whole number."),
  },
  decimal: {
    dataType: "decimal",
    check: (value, def) => {
      const n = typeof value === "number" ? value : typeof value === "string" && NUMBER.test(value.trim()) ? Number(value) : NaN;
      return Number.isFinite(n) ? bounded(n, def) : refuse("Value must be a decimal.");
    },
    lookups: RANGE_LOOKUPS,
    filterValue: (raw) => (NUMBER.test(raw) ? undefined : "Enter a number."),
  },
  boolean: {
    dataType: "boolean",
    // Python's `value in [True, False]` also admits 1 and 0.
    check: (value) =>
      value === true || value === 1 ? ok(true) : value === false || value === 0 ? ok(false) : refuse("Value must be true or false."),
    lookups: [""],
    filterValue: (raw) => (BOOLEANS.includes(raw) ? undefined : `Select a valid choice. ${raw} is not one of the available choices.`),
  },
  date: {
    dataType: "string",
    check: (value) => {
      const m = typeof value === "string" ? DATE.exec(value) : null;
      return m && isDate(m[1], m[2], m[3]) ? ok(value) : refuse("Date values must be in ISO 8601 format (YYYY-MM-DD).");
    },
    lookups: RANGE_LOOKUPS,
    filterValue: (raw) => {
      const m = DATE.exec(raw);
      return m && isDate(m[1], m[2], m[3]) ? undefined : "Enter a valid date.";
    },
  },
  datetime: {
    dataType: "string",
    check: (value) => {
      const normal = typeof value === "string" ? normalDatetime(value) : null;
      return normal ? ok(normal) : refuse("Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).");
    },
    lookups: RANGE_LOOKUPS,
    filterValue: (raw) => (normalDatetime(raw) ? undefined : "Enter a valid date/time."),
  },
  json: { dataType: "object", check: ok, lookups: [] },
  select: {
    dataType: "string",
    check: (value, def) =>
      typeof value === "string" && def.choiceSet?.values.includes(value)
        ? ok(value)
        : refuse(`Invalid choice (${value}) for choice set ${def.choiceSet?.name}.`),
    lookups: TEXT_LOOKUPS,
  },
  multiselect: {
    dataType: "array",
    check: (value, def) => {
      const values = Array.isArray(value) ? value : [value];
      const valid = Array.isArray(value) && values.every((x) => typeof x === "string" && def.choiceSet?.values.includes(x));
      return valid ? ok(value) : refuse(`Invalid choice(s) (${pythonRepr(value)}) for choice set ${def.choiceSet?.name}.`);
    },
    lookups: SET_LOOKUPS,
  },
  object: {
    dataType: "object",
    check: (value) =>
      typeof value === "number" && Number.isSafeInteger(value) ? ok(value) : refuse(`Value must be an object ID, not ${pyType(value)}`),
    lookups: SET_LOOKUPS,
    filterValue: (raw) => (INTEGER.test(raw) ? undefined : "Enter a whole number."),
  },
  multiobject: {
    dataType: "array",
    check: (value) => {
      if (!Array.isArray(value)) return refuse(`Value must be a list of object IDs, not ${pyType(value)}`);
      const bad = value.find((x) => typeof x !== "number" || !Number.isSafeInteger(x));
      return bad === undefined ? ok(value) : refuse(`Found invalid object ID: ${pythonRepr(bad)}`);
    },
    lookups: SET_LOOKUPS,
    filterValue: (raw) => (INTEGER.test(raw) ? undefined : "Enter a whole number."),
  },
};

/** NetBox treats these as "no value": not validated, and missing for `required`. */
export const isEmptyValue = (value: unknown): boolean => value === null || value === undefined || value === "";

/** Checks one value against its definition: the value to store, or NetBox's message. */
export function checkValue(def: CustomFieldDefinition, value: unknown): Checked {
  if (isEmptyValue(value)) return def.required ? refuse("Required field cannot be empty.") : ok(value ?? null);
  return CUSTOM_FIELD_RULES[def.type].check(value, def);
}

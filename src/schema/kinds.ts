import * as v from "valibot";
import ipaddr from "ipaddr.js";
import { sql, type RawBuilder } from "kysely";
import { pythonRepr } from "./errors.ts";
import type { Field, FieldKind, FieldOptions } from "./fields.ts";
import type { Model } from "./model.ts";
import { formatNetwork, formatPrefix, firstOf, keyOf, lastOf, parseNetwork, type Network } from "../lib/network.ts";
import {
  described,
  nullableFor,
  numberInput,
  orNull,
  ref as schemaRef,
  RELATED_REFERENCE,
  stringInput,
  type JsonSchema,
  type OpenApiFacet,
} from "./json-schema.ts";

/**
 * THE FIELD KINDS. One descriptor per kind says everything the engine derives from a field: its
 * stored columns and their DDL, its input schema, how a validated value is stored, what a read
 * selects beyond the stored columns, its output in each form, its filters and how a lookup path
 * walks it, the references a write names, what a delete does to it, its OPTIONS and OpenAPI types
 * and its change-record snapshot. Callers ask the descriptor instead of testing the kind. Adding a
 * kind is one entry here (and a builder in fields.ts).
 */

type Out = Record<string, unknown>;
type Sql = RawBuilder<unknown>;

/** The representations: full (an object's own), brief (`?brief=1`) and nested (inside another). */
export type Form = "full" | "brief" | "nested";

/** A related reference as the client named it: by id, or by attributes that must match one. */
export type Ref = { readonly ref: "id"; readonly id: number } | { readonly ref: "attrs"; readonly attrs: Record<string, unknown> };
export const isRef = (x: unknown): x is Ref => typeof x === "object" && x !== null && "ref" in x;

/** A generic relation as written: `{type: "dcim.interface", id: 4}`, or null. */
export interface GenericRef {
  readonly type: string;
  readonly id: number;
}
/** The model a generic relation's value names (its type is one of the field's targets, as validated). */
const genericTarget = (field: Field, value: GenericRef): Model => field.targets!().find((m) => m.objectType === value.type)!;
const genericRef = (value: GenericRef): Ref => ({ ref: "id", id: value.id });
/** The ids of owners of an m2m field whose targets are among `targets` (all owners with any target, for null). */
function m2mSources(field: Field, targets: Sql | null): Sql {
  const t = field.through!;
  const owner = t.objectTypeColumn ? sql` AND ${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
  return sql`SELECT ${sql.ref(t.source)} FROM ${sql.table(t.table)} WHERE ${targets ? sql`${sql.ref(t.target)} IN ${targets}` : sql`1`}${owner}`;
}
/** A relation's two filters: `name` by its targets' key, `name_id` by their ids. */
const relationParams = (name: string, relation: Field, tree: boolean): FilterParam[] => [
  { name, relation, byId: false, tree },
  { name: `${name}_id`, relation, byId: true, tree },
];

/** A filter parameter a field gives: compared as the field, or matching the relation's targets by key or by id. */
export type FilterParam =
  | { readonly name: string; readonly field: Field }
  | { readonly name: string; readonly relation: Field; readonly byId: boolean; readonly tree: boolean };

/** Which filter lookups a kind supports. */
export type LookupFamily = "text" | "number" | "boolean" | "choice" | "relation" | null;

/** What `select` may ask of the selection builder: a related object as nested JSON. */
export interface SelectContext {
  readonly depth: number;
  nestedJson(model: Model, id: Sql, depth: number): Sql;
  /** The JSON object of a row already in scope under `alias` (its nested form, or the fields named). */
  nestedObject(model: Model, alias: string, depth: number, fields?: readonly Field[]): Sql;
  /** The nested JSON of the object of any registered model: `type` is its `app.model`, as SQL. */
  anyNestedJson(type: Sql, id: Sql, depth: number): Sql;
  /** A registered model by `app.model`, for SQL that reaches models a field set cannot import. */
  byType(objectType: string): Model | undefined;
}

/** What `render` may ask of the serializer: the nested form of a related object. */
/** What a nested object shows: the fields named (default: its nested form's), and `display_url` when `page`. */
export interface NestedShown {
  readonly fields?: readonly Field[];
  readonly page?: boolean;
}

export interface RenderContext {
  readonly form: Form;
  /** The nested form of a related object (or the fields named, for `reverse`), with `display_url` when `page`. */
  nested(model: Model, raw: Out, shown?: NestedShown): Out;
  /** The nested form of an object of the registered model `app.model`, or null if there is none. */
  nestedOf(objectType: string, raw: Out): Out | null;
}

type SqlType = "TEXT" | "INTEGER" | "REAL";

/** How an fk's `onDelete` reads in its column's REFERENCES clause. */
const ON_DELETE_SQL = { protect: "RESTRICT", cascade: "CASCADE", setNull: "SET NULL", keep: "NO ACTION" } as const;

export interface KindDescriptor {
  /** The SQL type of the field's own column; null when the kind stores no column of its own. */
  readonly sqlType: SqlType | null;
  /** The column's name for a field named `name` (default: the name itself). */
  column?(name: string): string;
  /** Stored columns beyond one of its own (a generic relation's type and id), with their types. */
  columns?(field: Field): readonly (readonly [string, SqlType])[];
  /** References: the related objects a written value names, each with the model it names it in. */
  referencesIn?(field: Field, value: unknown): readonly { readonly target: Model; readonly ref: Ref }[];
  /**
   * References: replaces the references in `values[field.name]` by the ids `resolve` finds (it
   * reports those it does not find, and gives undefined for them).
   */
  resolveReferences?(field: Field, values: Out, resolve: (target: Model, ref: Ref) => number | undefined): void;
  /** The input key a field's errors are reported under, when not its name (a generic relation's `_id`). */
  errorKey?(field: Field): string;
  /** Filters: the parameters the field gives, in place of one of its name (a relation's by key and by id). */
  filterParams?(field: Field, model: Model): readonly FilterParam[];
  /** Filters: whether a lookup path walks through the field to its target (`site__region__slug`). */
  walks?(field: Field): boolean;
  /**
   * Walking: a SELECT of the ids of the targets the field reaches, from the row under `table`
   * when `owners` is null, else from the rows of `owner` whose ids `owners` selects (under `alias`).
   */
  targetIds?(field: Field, owner: Model, alias: string, table: string, owners: Sql | null): Sql;
  /** Filters: the rows under `alias` whose relation points into `ids` (a parenthesised list or subquery of target ids). */
  matchIds?(field: Field, alias: string, ids: Sql): Sql;
  /** Filters: the rows under `alias` whose relation points nowhere. */
  matchNone?(field: Field, alias: string): Sql;
  /** Filters: the target field a relation's filter values name (default: the target's natural key). */
  filterKey?(field: Field, target: Model): string;
  /** Filters: what a number lookup's values must be, when not any number. */
  readonly numberFormat?: "integer" | "date";
  /** On delete: whether the field holds references to rows of `target` (which a delete of them must protect, cascade or clear). */
  pointsAt?(field: Field, target: Model): boolean;
  /** On delete: a condition on the rows of the field's model that point at `ids` of `target`. */
  pointingAt?(field: Field, target: Model, ids: Sql): Sql;
  /** On delete: the column holding the id of the row the field points at. */
  idColumn?(field: Field): string;
  /** On delete: whether rows pointing at a deleted row are deleted with it. */
  cascades?(field: Field): boolean;
  /** On delete: whether the field is set to NULL, and the change recorded, before the row it points at goes. */
  setsNull?(field: Field): boolean;
  /** On delete: whether the field is tidied after the delete (cleared, or its row removed), no foreign key guarding it. */
  tidiedAfterDelete?(field: Field): boolean;
  /** Writes: the field is stored in a link table, written after its row (an m2m set). */
  readonly linked?: boolean;
  /** Uniqueness: the model a value of the field references, when it is one reference (an fk's target). */
  singleTarget?(field: Field): Model;
  /** Uniqueness: stored columns that each hold one part of a value (a generic relation's `type` and `id`). */
  valueColumns?(field: Field): readonly (readonly [column: string, part: string])[];
  /** The field another name stands for (an alias): read, written and filtered as that one. */
  mirrors?(field: Field): string;
  /** OpenAPI: the schema of a number lookup's values, when not any number. */
  readonly numberFilterSchema?: JsonSchema;
  /** DDL: the column's SQL type when the field decides it (a choice of numbers is INTEGER). */
  sqlTypeOf?(field: Field): SqlType;
  /** DDL: the column declares no NOT NULL, whatever the field says. */
  readonly nullableColumn?: boolean;
  /** DDL: what follows the column's declaration (an fk's `REFERENCES ... ON DELETE ...`). */
  constraint?(field: Field): string;
  /** DDL: the index of a field with one column, named `<table>_<name>` (several columns are indexed together by default). */
  index?(field: Field): { readonly name: string; readonly columns: readonly string[] } | null;
  /** DDL: tables a field creates beside its model's own (an m2m's through table). */
  tables?(field: Field, model: Model): string[];
  /** Reads another row (nested); such reads stop at the nesting limit. */
  readonly related?: boolean;
  /** Left out of the nested form (counts, m2m sets), though part of the brief one. */
  readonly notNested?: boolean;
  /** Input keys and their schemas; absent when clients cannot write the kind. */
  inputs?(field: Field): Record<string, v.GenericSchema>;
  /** Gathers a value written under several keys (generic relations: `_type` and `_id`). */
  collect?(field: Field, parsed: Out): { value?: unknown; errors?: Record<string, string[]> };
  /** Stored columns of a validated value. */
  store?(field: Field, value: unknown, columns: Map<string, unknown>): void;
  /** What a read selects for the field beyond stored columns (aliased as the field name). */
  select?(field: Field, table: string, sc: SelectContext): Sql | null;
  /** What sorting by the field sorts by, when not its own column (an address by its numeric key). */
  order?(field: Field, table: string): Sql[];
  /** Writes the field's output keys from a row (or a nested JSON object). */
  render(field: Field, row: Out, out: Out, rc: RenderContext): void;
  readonly lookups: LookupFamily;
  /** What a filter compares for a kind with no column of its own (a count), as SQL over the row. */
  filterSql?(field: Field, table: string): Sql;
  /** OPTIONS entries (DRF metadata) by key. */
  options(field: Field): Record<string, Out>;
  /** OpenAPI schemas of its output keys (per form) and input keys. */
  readonly openapi: OpenApiFacet;
  /** Change-record snapshot entries, as SQL over the stored row. */
  snapshot(field: Field, table: string): [string, Sql][];
}

// ---------------------------------------------------------------------------------------------
// Input schemas, with NetBox's (DRF's) messages.

/** Python's name for a JSON value's type, as DRF's messages print it. */
export function pyType(x: unknown): string {
  if (x === null) return "NoneType";
  if (Array.isArray(x)) return "list";
  return { string: "str", number: Number.isInteger(x) ? "int" : "float", boolean: "bool", object: "dict" }[typeof x as string] ?? typeof x;
}

const notNull = "This field may not be null.";
class Refusal extends Error {}

/** A schema that converts or refuses a raw value, with NetBox's message. */
function convert<T>(fn: (x: unknown, fail: (message: string) => never) => T): v.GenericSchema {
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

const nullable = (field: Field, s: v.GenericSchema) => (field.nullable ? v.nullable(s) : s);

function stringSchema(field: Field) {
  return convert((x, fail) => {
    if (x === null) fail(notNull);
    if (typeof x !== "string" && typeof x !== "number") fail("Not a valid string.");
    // DRF trims surrounding white space from every string field except secrets.
    const s = field.kind === "password" ? String(x) : String(x).trim();
    if (s === "" && !field.blank) fail("This field may not be blank.");
    if (field.maxLength !== undefined && s.length > field.maxLength)
      fail(`Ensure this field has no more than ${field.maxLength} characters.`);
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
const booleanSchema = convert((x, fail) => (BOOLEANS.has(x) ? BOOLEANS.get(x)! : fail(x === null ? notNull : "Must be a valid boolean.")));

function choiceSchema(field: Field) {
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

const dateSchema = convert((x, fail) => {
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
const datetimeSchema = convert((x, fail) => {
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

const stringListSchema = listOf((x, fail) => (typeof x === "string" ? x : fail("Not a valid string.")));

/** Integers within the field's bounds; an empty list only when the field is `blank`. */
function integerListSchema(field: Field) {
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

/**
 * An address or prefix with its mask, as NetBox parses it (an address alone is a host route). A
 * prefix may not have host bits; neither may have a /0 mask.
 */
function networkSchema(field: Field) {
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

/** How deep JSON data may nest: SQLite's JSON functions stop at 1,000 levels, we stop well before. */
export const MAX_JSON_DEPTH = 64;
/**
 * How deep related objects nest inside each other (an IP address's assigned interface carries its
 * device: two levels). Deeper references are given by id, so no declaration can loop.
 */
export const MAX_NESTING = 3;
/** How deep a related object named by attributes may nest (`{"site": {"region": {"slug": ...}}}`). */
export const MAX_REF_DEPTH = 4;

/** The nesting depth of a JSON value, stopping as soon as it passes `limit`, without recursion. */
export function jsonDepth(value: unknown, limit: number): number {
  let level = [value];
  let depth = 0;
  while (level.length && depth <= limit) {
    const next: unknown[] = [];
    for (const x of level) if (x && typeof x === "object") next.push(...Object.values(x as object));
    if (!next.length && !level.some((x) => x && typeof x === "object")) break;
    depth++;
    level = next;
  }
  return depth;
}

const tooDeep = `Data may be nested at most ${MAX_JSON_DEPTH} levels deep.`;
const jsonSchema = (field: Field) =>
  convert((x, fail) => {
    // A nullable field's null never gets here (`nullable` lets it through first).
    if (x === null) fail(notNull);
    if (jsonDepth(x, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) fail(tooDeep);
    const problem = field.checkJson?.(x);
    return problem ? fail(problem) : x;
  });
const customFieldsSchema = convert((x, fail) => {
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

const fkSchema = (field: Field) => convert((x, fail) => (x === null ? (field.nullable ? null : fail(notNull)) : refOf(x, fail)));
const m2mSchema = listOf(refOf);
/** A set written as the targets' `key` values (tag slugs), each resolved like an attribute reference. */
const keyedSchema = (key: string) => listOf((x, fail) => (typeof x === "string" ? { ref: "attrs", attrs: { [key]: x } } : refOf(x, fail)));
const objectTypeSchema = (field: Field) =>
  convert((x, fail) => {
    if (x === null) return field.nullable ? null : fail(notNull);
    const allowed = field.targets!().map((m) => m.objectType);
    if (typeof x !== "string" || !allowed.includes(x)) fail(`Object type must be one of: ${allowed.join(", ")}.`);
    return x;
  });
const objectIdSchema = (field: Field) =>
  convert((x, fail) => {
    if (x === null) return field.nullable ? null : fail(notNull);
    const n = typeof x === "number" ? x : typeof x === "string" && /^\d{1,15}$/.test(x) ? Number(x) : NaN;
    return Number.isSafeInteger(n) && n >= 0 ? n : fail("A valid integer is required.");
  });

// ---------------------------------------------------------------------------------------------
// Output helpers.

/** JSON whose objects carrying `__type` become that model's nested form, at any depth. */
function embeddedNested(raw: unknown, rc: RenderContext): unknown {
  if (Array.isArray(raw)) return raw.map((x) => embeddedNested(x, rc));
  if (!raw || typeof raw !== "object") return raw;
  const o = raw as Out;
  if (typeof o.__type === "string") return rc.nestedOf(o.__type, o);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, embeddedNested(x, rc)]));
}

const ref = (table: string, column: string) => sql.ref(`${table}.${column}`);
const parsed = (raw: unknown): unknown => (typeof raw === "string" ? JSON.parse(raw) : raw);
const readValue = (field: Field, row: Out) => row[field.column ?? field.name];

function choiceOutput(field: Field, raw: unknown, form: Form): unknown {
  if (raw == null || raw === "") return null;
  if (form !== "full" || field.bare) return raw;
  const choice = field.choices!.find((c) => c.value === raw);
  if (!choice) return { value: raw, label: String(raw) };
  return choice.id === undefined
    ? { value: choice.value, label: choice.label }
    : { value: choice.value, label: choice.label, id: choice.id };
}

const info = (field: Field, type: string, writable = !field.readOnly): Out => {
  const out: Out = { type, required: Boolean(field.required) && writable, read_only: !writable, label: field.label };
  if (field.helpText) out.help_text = field.helpText;
  if (field.maxLength !== undefined) out.max_length = field.maxLength;
  if (field.min !== undefined) out.min_value = field.min;
  if (field.max !== undefined) out.max_value = field.max;
  return out;
};
const READ_ONLY_ID = { type: "integer", required: false, read_only: true, label: "ID" };

/** The OPTIONS children of a nested object: its brief fields, read-only (and `display_url` where the relation nests it). */
function nestedChildren(target: Model, page = false): Out {
  const children: Out = {
    id: READ_ONLY_ID,
    url: { type: "field", required: false, read_only: true, label: "Url" },
    ...(page ? { display_url: { type: "field", required: false, read_only: true, label: "Display url" } } : {}),
    display: { type: "field", required: false, read_only: true, label: "Display" },
  };
  for (const f of target.nestedFields) Object.assign(children, KINDS[f.kind].options({ ...f, readOnly: true, required: false }));
  return children;
}

const scalarSnapshot = (field: Field, table: string): [string, Sql][] => (field.column ? [[field.name, ref(table, field.column)]] : []);
const jsonSnapshot = (field: Field, table: string): [string, Sql][] =>
  field.column ? [[field.name, sql`json(${ref(table, field.column)})`]] : [];
const none = (): [string, Sql][] => [];
const plainStore = (field: Field, value: unknown, columns: Map<string, unknown>) =>
  void (field.column && columns.set(field.column, value ?? null));
const jsonStore = (field: Field, value: unknown, columns: Map<string, unknown>) =>
  void (field.column && columns.set(field.column, value === null || value === undefined ? null : JSON.stringify(value)));
/** A one-key kind's OpenAPI facet: its output schema, and its input schema (default: the same). */
function scalarApi(output: (field: Field) => JsonSchema, input: (field: Field) => JsonSchema = output): OpenApiFacet {
  return {
    output: (field) => ({ [field.name]: described(field, nullableFor(field, output(field))) }),
    input: (field) => ({ [field.name]: described(field, nullableFor(field, input(field))) }),
  };
}
const TEXT_API = scalarApi(() => ({ type: "string" }), stringInput);
/** What a computed value reads as, by its `returns`; a plain one is whatever SQLite gives. */
const COMPUTED_SCHEMAS: Record<NonNullable<Field["returns"]> | "scalar", JsonSchema> = {
  boolean: { type: "boolean" },
  integer: { type: "integer" },
  number: { type: "number" },
  string: { type: "string" },
  json: {},
  nested: {},
  scalar: { type: ["string", "number"] },
};

/** What distinguishes one scalar kind from another. */
interface ScalarKind {
  readonly sqlType: "TEXT" | "INTEGER" | "REAL";
  /** The input schema of a field of the kind. */
  readonly schema: (field: Field) => v.GenericSchema;
  readonly lookups: LookupFamily;
  /** The `type` OPTIONS gives its fields. */
  readonly optionsType: string;
  readonly openapi: OpenApiFacet;
}

/** A scalar kind: one column, rendered as stored. */
function scalar({ sqlType, schema, lookups, optionsType, openapi }: ScalarKind): KindDescriptor {
  return {
    sqlType,
    inputs: (field) => ({ [field.name]: nullable(field, schema(field)) }),
    store: plainStore,
    render: (field, row, out) => void (out[field.name] = readValue(field, row) ?? null),
    lookups,
    options: (field) => ({ [field.name]: info(field, optionsType) }),
    openapi,
    snapshot: scalarSnapshot,
  };
}

/** A JSON-stored kind. */
function jsonKind(
  schema: (field: Field) => v.GenericSchema,
  optionsType: string,
  lookups: LookupFamily,
  openapi: JsonSchema,
): KindDescriptor {
  return {
    sqlType: "TEXT",
    inputs: (field) => ({ [field.name]: nullable(field, schema(field)) }),
    store: jsonStore,
    render: (field, row, out) => void (out[field.name] = parsed(readValue(field, row)) ?? field.default ?? null),
    lookups,
    options: (field) => ({ [field.name]: info(field, optionsType) }),
    openapi: scalarApi(() => openapi),
    snapshot: jsonSnapshot,
  };
}

function countSql(field: Field, table: string): Sql {
  const of = field.countOf!;
  const self = ref(table, "id");
  if ("sql" in of) return of.sql(table);
  if ("table" in of) return sql`(SELECT count(*) FROM ${sql.table(of.table)} x WHERE x.${sql.ref(of.column)} = ${self})`;
  const counted = of.model();
  const column = sql.ref(`x.${counted.field[of.field].column}`);
  if (!of.cumulative) return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} = ${self})`;
  return sql`(SELECT count(*) FROM ${sql.table(counted.table)} x WHERE ${column} IN (WITH RECURSIVE d(id) AS (SELECT ${self} UNION ALL SELECT c.id FROM ${sql.table(counted.field[of.field].target!().table)} c JOIN d ON c.parent_id = d.id) SELECT id FROM d))`;
}

/** The m2m targets of the row `table` as a JSON array of nested objects, in the target's order. */
function m2mSql(field: Field, table: string, sc: SelectContext): Sql {
  const t = field.through!;
  const target = field.target!();
  const alias = `m${sc.depth}`;
  const typed = t.objectTypeColumn ? sql` AND th.${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
  const order = target.field[target.ordering[0].replace(/^-/, "")]?.column ?? "id";
  return sql`(SELECT json_group_array(${sc.nestedObject(target, alias, sc.depth)} ORDER BY ${ref(alias, order)}, ${ref(alias, "id")})
    FROM ${sql.table(t.table)} th JOIN ${sql.table(target.table)} ${sql.raw(alias)} ON ${ref(alias, "id")} = th.${sql.ref(t.target)}
    WHERE th.${sql.ref(t.source)} = ${ref(table, "id")}${typed})`;
}

/**
 * Every custom field defined for the row's object type (NetBox lists them all, null when unset),
 * as `{v: {name: value}, t: {name: [type, related type]}}`: object fields' ids come back as the
 * nested JSON of their objects, built in the same statement, and `t` says how to shape them.
 */
function customFieldsSql(field: Field, table: string, sc: SelectContext): Sql {
  const data = ref(table, field.column!);
  const path = sql`('$."' || cf.name || '"')`;
  // Related objects come one level short of the nesting cap: their own relations are nested once
  // more (an interface's device), no further, so this subquery stays within SQLite's parser depth
  // whatever else the statement nests around it (a webhook event's frozen representation).
  const objects = sql`(SELECT json_group_array(${sc.anyNestedJson(sql`cf.related_object_type`, sql`j.value`, Math.max(sc.depth + 1, MAX_NESTING - 1))}) FROM json_each(${data}, ${path}) j)`;
  const value = sql`CASE WHEN cf.type IN ('object', 'multiobject') THEN CASE WHEN json_type(${data}, ${path}) IN ('integer', 'array') THEN ${objects} END
    ELSE ${data} -> ${path} END`;
  return sql`(SELECT json_object('v', json_group_object(cf.name, ${value}),
      't', json_group_object(cf.name, json_array(cf.type, cf.related_object_type)) FILTER (WHERE cf.type IN ('object', 'multiobject')))
    FROM (SELECT name, type, related_object_type FROM extras_customfield
      WHERE EXISTS (SELECT 1 FROM json_each(object_types) o WHERE o.value = ${field.ownerType}) ORDER BY group_name, weight, name) cf)`;
}

function renderCustomFields(field: Field, row: Out, out: Out, rc: RenderContext): void {
  const built = parsed(row[field.name]) as { v: Out; t: Record<string, [string, string]> } | undefined;
  if (!built) {
    out[field.name] = parsed(readValue(field, row)) ?? {};
    return;
  }
  const values: Out = {};
  for (const [name, value] of Object.entries(built.v)) {
    const shape = built.t[name];
    if (!shape || value === null) {
      values[name] = value;
      continue;
    }
    // Objects deleted since they were chosen drop out, as NetBox's lookup of them finds nothing.
    const objects = (value as (Out | null)[]).flatMap((x) => (x ? [rc.nestedOf(shape[1], x)].filter((o): o is Out => o !== null) : []));
    values[name] = shape[0] === "object" ? (objects[0] ?? null) : objects;
  }
  out[field.name] = values;
}

/** A network's stored columns: its sortable start and end keys, mask length and text. */
const networkColumns = (name: string) => ({ start: `${name}_start`, end: `${name}_end`, length: `${name}_length` });

export const KINDS: Record<FieldKind, KindDescriptor> = {
  network: {
    sqlType: "TEXT",
    // The start key leads, so the index the schema derives serves range scans.
    columns: (field) => {
      const c = networkColumns(field.name);
      return [
        [c.start, "TEXT"],
        [c.end, "TEXT"],
        [c.length, "INTEGER"],
        [field.name, "TEXT"],
      ];
    },
    inputs: (field) => ({ [field.name]: nullable(field, networkSchema(field)) }),
    store: (field, value, columns) => {
      const c = networkColumns(field.name);
      const n = value as Network | null;
      const [first, last] = n === null ? [null, null] : field.network === "prefix" ? [firstOf(n), lastOf(n)] : [n.host, n.host];
      columns.set(field.name, n && formatNetwork(n));
      columns.set(c.start, n && keyOf(n.family, first!));
      columns.set(c.end, n && keyOf(n.family, last!));
      // biome-ignore lint/complexity/useOptionalChain: the column takes null, never undefined
      columns.set(c.length, n && n.length);
    },
    order: (field, table) => [ref(table, networkColumns(field.name).start), ref(table, networkColumns(field.name).length)],
    render: (field, row, out) => void (out[field.name] = readValue(field, row) ?? null),
    lookups: null,
    options: (field) => ({ [field.name]: info(field, "string") }),
    openapi: scalarApi(
      () => ({ type: "string" }),
      () => ({ type: "string", minLength: 1 }),
    ),
    snapshot: scalarSnapshot,
  },
  string: scalar({ sqlType: "TEXT", schema: stringSchema, lookups: "text", optionsType: "string", openapi: TEXT_API }),
  text: scalar({ sqlType: "TEXT", schema: stringSchema, lookups: "text", optionsType: "string", openapi: TEXT_API }),
  slug: scalar({ sqlType: "TEXT", schema: stringSchema, lookups: "text", optionsType: "slug", openapi: TEXT_API }),
  integer: {
    ...scalar({
      sqlType: "INTEGER",
      schema: numberSchema,
      lookups: "number",
      optionsType: "integer",
      openapi: scalarApi(
        () => ({ type: "integer" }),
        (f) => numberInput(f, "integer"),
      ),
    }),
    numberFormat: "integer",
    numberFilterSchema: { type: "integer" },
  },
  float: scalar({
    sqlType: "REAL",
    schema: numberSchema,
    lookups: "number",
    optionsType: "float",
    openapi: scalarApi(
      () => ({ type: "number" }),
      (f) => numberInput(f, "number"),
    ),
  }),
  date: {
    ...scalar({
      sqlType: "TEXT",
      schema: () => dateSchema,
      lookups: "number",
      optionsType: "date",
      openapi: scalarApi(() => ({ type: "string", format: "date" })),
    }),
    numberFormat: "date",
    numberFilterSchema: { type: "string", format: "date" },
  },
  datetime: {
    ...scalar({
      sqlType: "TEXT",
      schema: () => datetimeSchema,
      lookups: "number",
      optionsType: "datetime",
      openapi: scalarApi(() => ({ type: "string", format: "date-time" })),
    }),
    // The committed migrations declare datetime columns without NOT NULL; the DDL must match them.
    nullableColumn: true,
    numberFormat: "date",
    numberFilterSchema: { type: "string", format: "date-time" },
  },
  password: {
    ...scalar({
      sqlType: "TEXT",
      schema: stringSchema,
      lookups: null,
      optionsType: "string",
      // A secret's schema states no minimum length (as the document was first derived), though its input may not be blank.
      openapi: { output: () => ({}), input: (f) => ({ [f.name]: described(f, stringInput(f, { blankable: true })) }) },
    }),
    render: () => undefined,
    snapshot: none,
  },
  boolean: {
    ...scalar({
      sqlType: "INTEGER",
      schema: () => booleanSchema,
      lookups: "boolean",
      optionsType: "boolean",
      openapi: scalarApi(() => ({ type: "boolean" })),
    }),
    store: (field, value, columns) => void columns.set(field.column!, value === null || value === undefined ? null : value ? 1 : 0),
    render: (field, row, out) => {
      const raw = readValue(field, row);
      out[field.name] = raw == null ? null : Boolean(raw);
    },
    snapshot: (field, table) => [
      [
        field.name,
        sql`json(CASE WHEN ${ref(table, field.column!)} IS NULL THEN 'null' WHEN ${ref(table, field.column!)} THEN 'true' ELSE 'false' END)`,
      ],
    ],
  },
  choice: {
    sqlType: "TEXT",
    sqlTypeOf: (field) => (typeof field.choices?.[0]?.value === "number" ? "INTEGER" : "TEXT"),
    inputs: (field) => ({ [field.name]: choiceSchema(field) }),
    store: plainStore,
    render: (field, row, out, rc) => void (out[field.name] = choiceOutput(field, readValue(field, row), rc.form)),
    lookups: "choice",
    options: (field) => ({
      // Read-only choices (an address's family) list theirs too, so clients can label them.
      [field.name]: { ...info(field, "field"), choices: field.choices!.map((c) => ({ value: c.value, display_name: c.label })) },
    }),
    openapi: {
      output: (field, sc) => {
        const value = { enum: field.choices!.map((c) => c.value) };
        if (sc.form !== "full" || field.bare) return { [field.name]: described(field, orNull(value)) };
        const properties: Record<string, JsonSchema> = { value, label: { enum: [...new Set(field.choices!.map((c) => c.label))] } };
        if (field.choices!.some((c) => c.id !== undefined)) properties.id = { type: "integer" };
        // A blank choice (or one cleared by a migration) reads as null, whatever the field says.
        return {
          [field.name]: described(field, orNull({ type: "object", additionalProperties: false, required: ["value", "label"], properties })),
        };
      },
      input: (field) => {
        const values = [...new Set(field.choices!.flatMap((c) => [c.value, ...(c.accepts ?? [])]))];
        return { [field.name]: described(field, { enum: field.nullable ? [...values, "", null] : values }) };
      },
    },
    snapshot: scalarSnapshot,
  },
  json: jsonKind(jsonSchema, "json", null, {}),
  customFields: {
    ...jsonKind(() => customFieldsSchema, "json", null, { type: "object" }),
    select: (field, table, sc) => (sc.depth === 0 ? customFieldsSql(field, table, sc) : null),
    render: renderCustomFields,
  },
  stringList: jsonKind(() => stringListSchema, "list", "text", { type: "array", items: { type: "string" } }),
  integerList: jsonKind(integerListSchema, "list", null, { type: "array", items: { type: "integer" } }),
  ipList: jsonKind(() => ipListSchema, "list", "text", { type: "array", items: { type: "string" } }),
  fk: {
    sqlType: "INTEGER",
    column: (name) => `${name}_id`,
    constraint: (field) => `REFERENCES ${field.target!().table}(id) ON DELETE ${ON_DELETE_SQL[field.onDelete ?? "protect"]}`,
    filterParams: (field, model) => {
      if (!field.column) return [];
      // A filter by a tree's node takes its descendants too, unless the tree is the model's own (a parent).
      const tree = Boolean(field.target!().tree) && field.target!() !== model;
      return relationParams(field.name, field, tree);
    },
    walks: (field) => Boolean(field.column),
    matchIds: (field, alias, ids) => sql`${ref(alias, field.column!)} IN ${ids}`,
    matchNone: (field, alias) => sql`${ref(alias, field.column!)} IS NULL`,
    singleTarget: (field) => field.target!(),
    targetIds: (field, owner, alias, table, owners) =>
      owners === null
        ? sql`SELECT ${ref(table, field.column!)}`
        : sql`SELECT ${ref(alias, field.column!)} FROM ${sql.table(owner.table)} ${sql.raw(alias)} WHERE ${ref(alias, "id")} IN (${owners})`,
    // A read-only fk found by SQL (`f.related`) holds no reference: nothing to protect, cascade or clear.
    pointsAt: (field, target) => field.column !== null && field.target!() === target,
    pointingAt: (field, _target, ids) => sql`${sql.ref(field.column!)} IN ${ids}`,
    idColumn: (field) => field.column!,
    cascades: (field) => field.onDelete === "cascade",
    setsNull: (field) => field.onDelete === "setNull",
    // A UNIQUE column is indexed already.
    index: (field) => (field.column && !field.unique ? { name: field.column, columns: [field.column] } : null),
    related: true,
    inputs: (field) => ({ [field.name]: fkSchema(field) }),
    referencesIn: (field, value) => (isRef(value) ? [{ target: field.target!(), ref: value }] : []),
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name];
      if (isRef(value)) values[field.name] = resolve(field.target!(), value) ?? null;
    },
    store: plainStore,
    select: (field, table, sc) =>
      field.flat ? null : sc.nestedJson(field.target!(), field.sql ? field.sql(table) : ref(table, field.column!), sc.depth + 1),
    render: (field, row, out, rc) => {
      const raw = parsed(row[field.name]);
      out[field.name] =
        raw && typeof raw === "object"
          ? rc.nested(field.target!(), raw as Out, { page: field.nestedDisplayUrl })
          : (row[field.column!] ?? null);
    },
    lookups: "relation",
    options: (field) => ({
      [field.name]: field.flat
        ? info(field, "field")
        : { ...info(field, "nested object"), children: nestedChildren(field.target!(), field.nestedDisplayUrl) },
    }),
    openapi: {
      output: (field, sc) => {
        // Past the nesting limit (and for a flat fk) the id stands for the object; a relation with
        // no column of its own has nothing to give there.
        const nested = field.flat ? null : sc.related(field.target!(), undefined, field.nestedDisplayUrl);
        const s = nested ?? (field.column ? { type: "integer" } : { type: "null" });
        return { [field.name]: described(field, nullableFor(field, s)) };
      },
      input: (field) => ({ [field.name]: described(field, nullableFor(field, schemaRef(RELATED_REFERENCE))) }),
    },
    snapshot: scalarSnapshot,
  },
  m2m: {
    sqlType: null,
    notNested: true,
    tables: (field, model) => {
      const t = field.through;
      // A shared link table (tags) or another model's own table (`f.reverseList`) is not this model's to create.
      if (!t || t.objectTypeColumn || field.readOnly) return [];
      return [
        `CREATE TABLE ${t.table} (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n` +
          `  ${t.source} INTEGER NOT NULL REFERENCES ${model.table}(id) ON DELETE CASCADE,\n` +
          `  ${t.target} INTEGER NOT NULL REFERENCES ${field.target!().table}(id) ON DELETE CASCADE,\n` +
          `  UNIQUE (${t.source}, ${t.target})\n)`,
        `CREATE INDEX ${t.table}_${t.target} ON ${t.table}(${t.target})`,
      ];
    },
    inputs: (field) => ({ [field.name]: field.listedBy ? keyedSchema(field.listedBy) : m2mSchema }),
    linked: true,
    targetIds: (field, _owner, alias, table, owners) => {
      const t = field.through!;
      const sources = owners === null ? sql`= ${ref(table, "id")}` : sql`IN (${owners})`;
      const typed = t.objectTypeColumn ? sql` AND ${ref(alias, t.objectTypeColumn)} = ${field.ownerType}` : sql``;
      return sql`SELECT ${ref(alias, t.target)} FROM ${sql.table(t.table)} ${sql.raw(alias)} WHERE ${ref(alias, t.source)} ${sources}${typed}`;
    },
    filterParams: (field) => (field.filterName ? relationParams(field.filterName, field, false) : []),
    walks: (field) => Boolean(field.filterName),
    matchIds: (field, alias, ids) => sql`${ref(alias, "id")} IN (${m2mSources(field, ids)})`,
    matchNone: (field, alias) => sql`${ref(alias, "id")} NOT IN (${m2mSources(field, null)})`,
    // NetBox's filters of a set (tags) take the targets' slugs.
    filterKey: (_field, target) => (target.field.slug ? "slug" : target.naturalKey),
    referencesIn: (field, value) => (Array.isArray(value) ? value.filter(isRef).map((ref) => ({ target: field.target!(), ref })) : []),
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name];
      if (Array.isArray(value)) values[field.name] = [...new Set(value.map((r) => (isRef(r) ? resolve(field.target!(), r) : r)))];
    },
    select: (field, table, sc) => m2mSql(field, table, sc),
    render: (field, row, out, rc) => {
      const list = (parsed(row[field.name]) ?? []) as Out[];
      out[field.name] = field.listedBy
        ? list.map((x) => x[field.listedBy!])
        : list.map((x) => rc.nested(field.target!(), x, { page: field.nestedDisplayUrl }));
    },
    lookups: "relation",
    options: (field) => ({ [field.name]: info(field, "list") }),
    openapi: {
      output: (field, sc) => ({
        [field.name]: described(field, {
          type: "array",
          items: field.listedBy ? { type: "string" } : sc.member(field.target!(), field.nestedDisplayUrl),
        }),
      }),
      input: (field) => ({
        [field.name]: described(field, {
          type: "array",
          items: field.listedBy ? { anyOf: [{ type: "string" }, schemaRef(RELATED_REFERENCE)] } : schemaRef(RELATED_REFERENCE),
        }),
      }),
    },
    snapshot: (field, table) => {
      // A read-only set (an interface's MAC addresses) belongs to the other side's record.
      if (field.readOnly) return [];
      const t = field.through!;
      const target = field.target!();
      const typed = t.objectTypeColumn ? sql` AND th.${sql.ref(t.objectTypeColumn)} = ${field.ownerType}` : sql``;
      // Tags are recorded by name, other relations by id, as NetBox's change log does.
      const label = t.objectTypeColumn && target.field.name ? sql`tg.name` : sql`tg.id`;
      return [
        [
          field.name,
          sql`json((SELECT json_group_array(${label} ORDER BY ${label}) FROM ${sql.table(t.table)} th
        JOIN ${sql.table(target.table)} tg ON tg.id = th.${sql.ref(t.target)} WHERE th.${sql.ref(t.source)} = ${ref(table, "id")}${typed}))`,
        ],
      ];
    },
  },
  generic: {
    sqlType: null,
    columns: (field) => [
      [`${field.name}_type`, "TEXT"],
      [`${field.name}_id`, "INTEGER"],
    ],
    related: true,
    inputs: (field) => ({ [`${field.name}_type`]: objectTypeSchema(field), [`${field.name}_id`]: objectIdSchema(field) }),
    collect: (field, input) => {
      const type = input[`${field.name}_type`];
      const id = input[`${field.name}_id`];
      if (type === undefined && id === undefined) return {};
      if (type === null || id === null)
        return type === null && id === null
          ? { value: null }
          : { errors: { [`${field.name}_${type === null ? "type" : "id"}`]: [notNull] } };
      if (type === undefined || id === undefined)
        return { errors: { [`${field.name}_${type === undefined ? "type" : "id"}`]: ["This field is required."] } };
      return { value: { type, id } };
    },
    // A generic relation is written by id only; resolving it checks that the object exists.
    referencesIn: (field, value) =>
      value ? [{ target: genericTarget(field, value as GenericRef), ref: genericRef(value as GenericRef) }] : [],
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name] as GenericRef | null | undefined;
      if (value) resolve(genericTarget(field, value), genericRef(value));
    },
    errorKey: (field) => `${field.name}_id`,
    pointsAt: (field, target) => field.targets!().includes(target),
    valueColumns: (field) => [
      [`${field.name}_type`, "type"],
      [`${field.name}_id`, "id"],
    ],
    pointingAt: (field, target, ids) =>
      sql`${sql.ref(`${field.name}_type`)} = ${target.objectType} AND ${sql.ref(`${field.name}_id`)} IN ${ids}`,
    idColumn: (field) => `${field.name}_id`,
    // A required one cannot be cleared, so its row goes too; `keep` leaves the reference dangling (change records).
    cascades: (field) => !field.nullable && field.onDelete !== "keep",
    tidiedAfterDelete: (field) => field.onDelete !== "keep",
    // Its two stored columns filter as the text and integer they are.
    filterParams: (field) =>
      (
        [
          ["type", "string"],
          ["id", "integer"],
        ] as const
      ).map(([part, kind]) => {
        const name = `${field.name}_${part}`;
        return { name, field: { ...field, kind, name, column: name } };
      }),
    store: (field, value, columns) => {
      const g = value as GenericRef | null;
      columns.set(`${field.name}_type`, g?.type ?? null);
      columns.set(`${field.name}_id`, g?.id ?? null);
    },
    select: (field, table, sc) => {
      const cases = field.targets!().map(
        (m) => sql`WHEN ${m.objectType} THEN ${sc.nestedJson(m, ref(table, `${field.name}_id`), sc.depth + 1)}`,
      );
      return sql`CASE ${ref(table, `${field.name}_type`)} ${sql.join(cases, sql` `)} END`;
    },
    render: (field, row, out, rc) => {
      const type = row[`${field.name}_type`] ?? null;
      out[`${field.name}_type`] = type;
      out[`${field.name}_id`] = row[`${field.name}_id`] ?? null;
      const raw = parsed(row[field.name]);
      const target = field.targets!().find((m) => m.objectType === type);
      out[field.name] = raw && typeof raw === "object" && target ? rc.nested(target, raw as Out) : null;
    },
    lookups: null,
    options: (field) => ({
      [`${field.name}_type`]: {
        ...info(field, "field"),
        choices: field.targets!().map((m) => ({ value: m.objectType, display_name: m.verboseName })),
      },
      [`${field.name}_id`]: info(field, "integer"),
      [field.name]: info(field, "field", false),
    }),
    openapi: {
      output: (field, sc) => {
        const objects = field.targets!()
          .map((m) => sc.related(m))
          .filter((s): s is JsonSchema => s !== null);
        return {
          [`${field.name}_type`]: nullableFor(field, { enum: field.targets!().map((m) => m.objectType) }),
          [`${field.name}_id`]: nullableFor(field, { type: "integer" }),
          // Null past the nesting limit, and once the object is gone (a change record's).
          [field.name]: objects.length ? orNull(objects.length === 1 ? objects[0] : { anyOf: objects }) : { type: "null" },
        };
      },
      input: (field) => ({
        [`${field.name}_type`]: nullableFor(field, { enum: field.targets!().map((m) => m.objectType) }),
        [`${field.name}_id`]: nullableFor(field, { type: "integer", minimum: 0 }),
      }),
    },
    snapshot: (field, table) => [
      [`${field.name}_type`, ref(table, `${field.name}_type`)],
      [`${field.name}_id`, ref(table, `${field.name}_id`)],
    ],
  },
  count: {
    sqlType: null,
    notNested: true,
    select: (field, table) => countSql(field, table),
    render: (field, row, out) => void (out[field.name] = Number(row[field.name] ?? 0)),
    // NetBox's counts are stored counters, filterable like any number (`interface_count__gte=2`).
    lookups: "number",
    filterSql: countSql,
    numberFilterSchema: { type: "integer" },
    // Sorted by the count a read selects under the field's name.
    order: (field) => [sql.ref(field.name)],
    options: (field) => ({ [field.name]: info(field, "integer", false) }),
    openapi: { output: (field) => ({ [field.name]: described(field, { type: "integer" }) }) },
    snapshot: none,
  },
  computed: {
    sqlType: null,
    // Only a computed field declared with an `input` schema (and not read-only) is writable.
    inputs: (field) => ({ [field.name]: field.input ?? v.never() }),
    select: (field, table, sc) => field.sql!(table, { ownerType: field.ownerType, sc }),
    render: (field, row, out, rc) => {
      const raw = (field.sharedAs ? (parsed(row[field.sharedAs]) as Out | null)?.[field.name] : row[field.name]) ?? null;
      if (raw === null) out[field.name] = null;
      else if (field.returns === "boolean") out[field.name] = Boolean(raw);
      else if (field.returns === "json") out[field.name] = parsed(raw);
      else if (field.returns === "nested") out[field.name] = embeddedNested(parsed(raw), rc);
      else out[field.name] = raw;
      if (field.finish) out[field.name] = field.finish(out[field.name]);
    },
    lookups: null,
    options: (field) => ({ [field.name]: info(field, "field") }),
    openapi: {
      output: (field) => ({ [field.name]: described(field, orNull(COMPUTED_SCHEMAS[field.returns ?? "scalar"])) }),
      // What the declared `input` schema accepts is the model's to say; the document names the key.
      input: (field) => ({ [field.name]: described(field, {}) }),
    },
    snapshot: none,
  },
  reverse: {
    sqlType: null,
    related: true,
    notNested: true,
    select: (field, table, sc) => {
      const target = field.target!();
      const of = field.reverseOf!;
      const alias = `r${sc.depth}`;
      const fields = (of.fields ?? target.nestedFields.map((x) => x.name)).map((name) => target.field[name]);
      const where = Object.entries(of.where).map(([column, value]) => sql`${ref(alias, column)} = ${value}`);
      return sql`json((SELECT ${sc.nestedObject(target, alias, sc.depth + 1, fields)} FROM ${sql.table(target.table)} ${sql.raw(alias)}
        WHERE ${ref(alias, target.field[of.field].column!)} = ${ref(table, "id")} AND ${sql.join(where, sql` AND `)} LIMIT 1))`;
    },
    render: (field, row, out, rc) => {
      const raw = parsed(row[field.name]);
      const target = field.target!();
      const fields = field.reverseOf!.fields?.map((name) => target.field[name]);
      out[field.name] = raw && typeof raw === "object" ? rc.nested(target, raw as Out, { fields, page: field.nestedDisplayUrl }) : null;
    },
    lookups: null,
    options: (field) => ({
      [field.name]: { ...info(field, "nested object", false), children: nestedChildren(field.target!(), field.nestedDisplayUrl) },
    }),
    openapi: {
      output: (field, sc) => {
        const target = field.target!();
        const fields = field.reverseOf!.fields?.map((name) => target.field[name]);
        return { [field.name]: described(field, orNull(sc.related(target, fields, field.nestedDisplayUrl) ?? { type: "null" })) };
      },
    },
    snapshot: none,
  },
  alias: {
    sqlType: null,
    mirrors: (field) => field.aliasOf!,
    // Filtered like the relation it mirrors.
    filterParams: (field, model) => relationParams(field.name, model.field[field.aliasOf!], false),
    // Written like its target: `parseInput` moves an alias's value to the field it mirrors.
    render: (field, _row, out) => void (out[field.name] = out[field.aliasOf!]),
    lookups: null,
    options: (field) => ({ [field.name]: info(field, "nested object") }),
    openapi: {
      output: (field, sc) => {
        const target = sc.sibling(field.aliasOf!);
        return {
          [field.name]: { ...KINDS[target.kind].openapi.output(target, sc)[target.name], description: `Another name for ${target.name}.` },
        };
      },
      // Written like the field it mirrors, when that one is not given.
      input: (field, sibling) => {
        const target = sibling(field.aliasOf!);
        const inputs = KINDS[target.kind].openapi.input?.(target, sibling) ?? {};
        return { [field.name]: { ...inputs[target.name], deprecated: true, description: `Another name for ${target.name}.` } };
      },
    },
    snapshot: none,
  },
};

/** The key a read selects a field's extra SQL under: its name, or the key of a value fields share. */
export const selectKey = (field: Field): string => field.sharedAs ?? field.name;

/** The column a field is stored in, or null when it has none of its own. */
export function columnOf(name: string, o: FieldOptions): string | null {
  if (o.column !== undefined) return o.column;
  const kind = KINDS[o.kind];
  return kind.sqlType === null ? null : (kind.column?.(name) ?? name);
}

/** Every stored column of a field, with its SQL type. */
export function columnsOf(field: Field): readonly (readonly [string, SqlType])[] {
  const kind = KINDS[field.kind];
  if (kind.columns) return kind.columns(field);
  return field.column && kind.sqlType ? [[field.column, kind.sqlType]] : [];
}

/** The index a field's columns get, named `<table>_<name>`: its kind's, or one over all its columns when it has several. */
export function indexOf(field: Field): { readonly name: string; readonly columns: readonly string[] } | null {
  const kind = KINDS[field.kind];
  if (kind.index) return kind.index(field);
  return kind.columns ? { name: field.name, columns: columnsOf(field).map(([column]) => column) } : null;
}

/** The field an alias stands for, or undefined for a field of any other kind. */
export const mirrorOf = (field: Field): string | undefined => KINDS[field.kind].mirrors?.(field);

/** True when clients may write the field. */
export const isWritable = (field: Field): boolean => !field.readOnly && KINDS[field.kind].inputs !== undefined;

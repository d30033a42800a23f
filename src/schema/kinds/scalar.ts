import type { JsonSchema, Form, Field } from "../shapes.ts";
import type { Sql } from "./descriptor.ts";
import type * as v from "valibot";

import { sql } from "kysely";
import { described, numberInput, orNull, stringInput, type OpenApiFacet } from "../json-schema.ts";
import type { FilterFacet, InputFacet, KindDescriptor } from "./descriptor.ts";
import {
  booleanSchema,
  choiceSchema,
  dateSchema,
  datetimeSchema,
  integerListSchema,
  ipListSchema,
  nullable,
  numberSchema,
  stringListSchema,
  stringSchema,
} from "./inputs.ts";
import { jsonStored } from "./json.ts";
import { booleanFinal, columnFinal, info, none, plainStore, readValue, ref, scalarApi, scalarSnapshot } from "./outputs.ts";

/** The scalar kinds (one column each, rendered as stored or nearly) and the list kinds (JSON-stored lists). */

const TEXT_API = scalarApi(() => ({ type: "string" }), stringInput);
const TEXT_FILTER: FilterFacet = { lookups: "text" };
const NUMBER_FILTER: FilterFacet = { lookups: "number" };

function choiceOutput(field: Field, raw: unknown, form: Form): unknown {
  if (raw == null || raw === "") return null;
  if (form !== "full" || field.bare) return raw;
  const choice = field.choices!.find((c) => c.value === raw);
  if (!choice) return { value: raw, label: String(raw) };
  return choice.id === undefined
    ? { value: choice.value, label: choice.label }
    : { value: choice.value, label: choice.label, id: choice.id };
}

/** `choiceOutput` as SQL: the stored value, or in the full form the choice as `{value, label[, id]}` (JSONB). */
function choiceFinal(field: Field, value: Sql, form: Form): Sql {
  const blank = sql`${value} IS NULL OR ${value} = ''`;
  if (form !== "full" || field.bare) return sql`CASE WHEN ${blank} THEN NULL ELSE ${value} END`;
  const branches = field.choices!.map((c) => {
    const members = [
      sql.lit("value"),
      sql.lit(c.value),
      sql.lit("label"),
      sql.lit(c.label),
      ...(c.id === undefined ? [] : [sql.lit("id"), sql.lit(c.id)]),
    ];
    return sql`WHEN ${value} = ${sql.lit(c.value)} THEN jsonb_object(${sql.join(members)})`;
  });
  return sql`CASE WHEN ${blank} THEN NULL ${sql.join(branches, sql` `)} ELSE jsonb_object('value', ${value}, 'label', CAST(${value} AS TEXT)) END`;
}

/** What distinguishes one scalar kind from another. */
interface ScalarKind {
  readonly sqlType: "TEXT" | "INTEGER" | "REAL";
  /** The input schema of a field of the kind. */
  readonly schema: (field: Field) => v.GenericSchema;
  /** Its filters; absent for a kind that gives none. */
  readonly filter?: FilterFacet;
  /** How a validated value is stored (default: as is, in its column). */
  readonly store?: InputFacet["store"];
  /** The `type` OPTIONS gives its fields. */
  readonly optionsType: string;
  readonly openapi: OpenApiFacet;
}

/** A scalar kind: one column, rendered as stored. */
function scalar({ sqlType, schema, filter, store = plainStore, optionsType, openapi }: ScalarKind): KindDescriptor {
  return {
    storage: { sqlType },
    input: { inputs: (field) => ({ [field.name]: nullable(field, schema(field)) }), store },
    ...(filter && { filter }),
    render: (field, row, out) => void (out[field.name] = readValue(field, row) ?? null),
    final: columnFinal,
    options: (field) => ({ [field.name]: info(field, optionsType) }),
    openapi,
    snapshot: scalarSnapshot,
  };
}

export const stringKind: KindDescriptor = scalar({
  sqlType: "TEXT",
  schema: stringSchema,
  filter: TEXT_FILTER,
  optionsType: "string",
  openapi: TEXT_API,
});
export const textKind: KindDescriptor = scalar({
  sqlType: "TEXT",
  schema: stringSchema,
  filter: TEXT_FILTER,
  optionsType: "string",
  openapi: TEXT_API,
});
export const slugKind: KindDescriptor = scalar({
  sqlType: "TEXT",
  schema: stringSchema,
  filter: TEXT_FILTER,
  optionsType: "slug",
  openapi: TEXT_API,
});
export const integerKind: KindDescriptor = {
  ...scalar({
    sqlType: "INTEGER",
    schema: numberSchema,
    filter: { lookups: "number", numberFormat: "integer", numberSchema: { type: "integer" } },
    optionsType: "integer",
    openapi: scalarApi(
      () => ({ type: "integer" }),
      (f) => numberInput(f, "integer"),
    ),
  }),
};
export const floatKind: KindDescriptor = scalar({
  sqlType: "REAL",
  schema: numberSchema,
  filter: NUMBER_FILTER,
  optionsType: "float",
  openapi: scalarApi(
    () => ({ type: "number" }),
    (f) => numberInput(f, "number"),
  ),
});
/** A date or a date and time, stored as ISO text and filtered like a number (`__gte`), in JSON Schema's `format`. */
const dated = (schema: v.GenericSchema, format: "date" | "date-time", optionsType: string): KindDescriptor =>
  scalar({
    sqlType: "TEXT",
    schema: () => schema,
    filter: { lookups: "number", numberFormat: "date", numberSchema: { type: "string", format } },
    optionsType,
    openapi: scalarApi(() => ({ type: "string", format })),
  });
export const dateKind: KindDescriptor = dated(dateSchema, "date", "date");
export const datetimeKind: KindDescriptor = {
  ...dated(datetimeSchema, "date-time", "datetime"),
  // The committed migrations declare datetime columns without NOT NULL; the DDL must match them.
  storage: { sqlType: "TEXT", nullableColumn: true },
  // Stored with milliseconds, so that text order is time order; shown without a zero fraction, as
  // NetBox shows a time given to the second (`2099-01-01T00:00:00Z`).
  render: (field, row, out) => {
    const value = readValue(field, row);
    out[field.name] = typeof value === "string" && value.endsWith(".000Z") ? `${value.slice(0, -5)}Z` : (value ?? null);
  },
  final: (field, table) => {
    if (!field.column) return null;
    const value = ref(table, field.column);
    return [
      [field.name, sql`CASE WHEN substr(${value}, -5) = '.000Z' THEN substr(${value}, 1, length(${value}) - 5) || 'Z' ELSE ${value} END`],
    ];
  },
};
export const passwordKind: KindDescriptor = {
  ...scalar({
    sqlType: "TEXT",
    schema: stringSchema,
    optionsType: "string",
    // A secret's schema states no minimum length (as the document was first derived), though its input may not be blank.
    openapi: { output: () => ({}), input: (f) => ({ [f.name]: described(f, stringInput(f, { blankable: true })) }) },
  }),
  render: () => undefined,
  final: () => [],
  snapshot: none,
};
export const booleanKind: KindDescriptor = {
  ...scalar({
    sqlType: "INTEGER",
    schema: () => booleanSchema,
    filter: { lookups: "boolean" },
    store: (field, value, columns) => void columns.set(field.column!, value === null || value === undefined ? null : value ? 1 : 0),
    optionsType: "boolean",
    openapi: scalarApi(() => ({ type: "boolean" })),
  }),
  render: (field, row, out) => {
    const raw = readValue(field, row);
    out[field.name] = raw == null ? null : Boolean(raw);
  },
  final: (field, table) => {
    if (!field.column) return null;
    return [[field.name, booleanFinal(ref(table, field.column))]];
  },
  snapshot: (field, table) => [
    [
      field.name,
      sql`json(CASE WHEN ${ref(table, field.column!)} IS NULL THEN 'null' WHEN ${ref(table, field.column!)} THEN 'true' ELSE 'false' END)`,
    ],
  ],
};
export const choiceKind: KindDescriptor = {
  storage: { sqlType: "TEXT", sqlTypeOf: (field) => (typeof field.choices?.[0]?.value === "number" ? "INTEGER" : "TEXT") },
  input: { inputs: (field) => ({ [field.name]: choiceSchema(field) }), store: plainStore },
  filter: { lookups: "choice" },
  render: (field, row, out, rc) => void (out[field.name] = choiceOutput(field, readValue(field, row), rc.form)),
  final: (field, table, fc) => (field.column ? [[field.name, choiceFinal(field, ref(table, field.column), fc.form)]] : null),
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
};

export const stringListKind: KindDescriptor = jsonStored(() => stringListSchema, "list", "text", {
  type: "array",
  items: { type: "string" },
});
export const integerListKind: KindDescriptor = jsonStored(integerListSchema, "list", null, { type: "array", items: { type: "integer" } });
export const ipListKind: KindDescriptor = jsonStored(() => ipListSchema, "list", "text", { type: "array", items: { type: "string" } });

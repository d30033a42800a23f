import type { JsonSchema, Field } from "../shapes.ts";
import { sql } from "kysely";
import { described, nullableFor, type OpenApiFacet } from "../json-schema.ts";
import type { Out, Sql } from "./descriptor.ts";

/** What kinds share to store, read, render and describe a value. */

export const ref = (table: string, column: string) => sql.ref(`${table}.${column}`);
export const parsed = (raw: unknown): unknown => (typeof raw === "string" ? JSON.parse(raw) : raw);
/**
 * `aggregate` (an ordered array's aggregate, e.g. `jsonb_group_array(x ORDER BY y)`) over the rows
 * `from` (its FROM and WHERE) names, or `empty` where it names none. SQLite opens a sorter for an
 * ordered aggregate every time the subquery runs, rows or none, and most rows of a page have no
 * tags, VLANs or cable peers: on a page of 1,000 interfaces the guard took the statement from
 * 29.6-31.1 to 27.0-28.1 ms (median of 60 interleaved runs; 22.3-23.0 to 21.3-21.8 at best).
 * `any`: an uncorrelated condition false where no row has any (a many-to-many's own table has a
 * row), looked at once per statement (SQLite runs an uncorrelated EXISTS once), so a relation
 * nobody uses (an interface's VDCs, wireless LANs) costs a page no probe per row.
 */
export const orderedArraySql = (aggregate: Sql, from: Sql, empty: Sql, any?: Sql): Sql =>
  any
    ? sql`CASE WHEN ${any} AND EXISTS (SELECT 1 ${from}) THEN (SELECT ${aggregate} ${from}) ELSE ${empty} END`
    : sql`CASE WHEN EXISTS (SELECT 1 ${from}) THEN (SELECT ${aggregate} ${from}) ELSE ${empty} END`;
export const readValue = (field: Field, row: Out) => row[field.column ?? field.name];
/**
 * A boolean's final JSON (true, false or NULL), its value read once: a computed one is often a
 * probe (a port's `_occupied` is an EXISTS), which `CASE WHEN v IS NULL ... WHEN v` ran twice per row.
 * As JavaScript's `Boolean(raw)` reads it: any number but 0 is true.
 */
export const booleanFinal = (value: Sql): Sql => sql`CASE (${value}) <> 0 WHEN 1 THEN jsonb('true') WHEN 0 THEN jsonb('false') END`;
/** A value as stored in the field's column (NULL for none): the final JSON of most one-column kinds (`final`). */
export const columnFinal = (field: Field, table: string): [string, Sql][] | null =>
  field.column ? [[field.name, ref(table, field.column)]] : null;

export const info = (field: Field, type: string, writable = !field.readOnly): Out => {
  const out: Out = { type, required: Boolean(field.required) && writable, read_only: !writable, label: field.label };
  if (field.helpText) out.help_text = field.helpText;
  if (field.maxLength !== undefined) out.max_length = field.maxLength;
  if (field.min !== undefined) out.min_value = field.min;
  if (field.max !== undefined) out.max_value = field.max;
  return out;
};

export const scalarSnapshot = (field: Field, table: string): [string, Sql][] =>
  field.column ? [[field.name, ref(table, field.column)]] : [];
export const jsonSnapshot = (field: Field, table: string): [string, Sql][] =>
  field.column ? [[field.name, sql`json(${ref(table, field.column)})`]] : [];
export const none = (): [string, Sql][] => [];
export const plainStore = (field: Field, value: unknown, columns: Map<string, unknown>) =>
  void (field.column && columns.set(field.column, value ?? null));
export const jsonStore = (field: Field, value: unknown, columns: Map<string, unknown>) =>
  void (field.column && columns.set(field.column, value === null || value === undefined ? null : JSON.stringify(value)));
/** A one-key kind's OpenAPI facet: its output schema, and its input schema (default: the same). */
export function scalarApi(output: (field: Field) => JsonSchema, input: (field: Field) => JsonSchema = output): OpenApiFacet {
  return {
    output: (field) => ({ [field.name]: described(field, nullableFor(field, output(field))) }),
    input: (field) => ({ [field.name]: described(field, nullableFor(field, input(field))) }),
  };
}

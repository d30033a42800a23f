import type { FilterDeclaration } from "./shapes.ts";
import { sql, type RawBuilder } from "kysely";

/** The values django-filter's BooleanFilter reads as true; anything else filters for false. */
const TRUE = ["true", "True", "1"];

/**
 * A yes/no filter (`has_primary_ip=true`, `interfaces=false`): whether the row's condition,
 * given as SQL over the row's table alias, holds.
 */
export const whether = (condition: (table: string) => RawBuilder<unknown>): FilterDeclaration => ({
  sql: (values, t) => sql`(CASE WHEN ${condition(t)} THEN 1 ELSE 0 END) = ${TRUE.includes(values[0]) ? 1 : 0}`,
  boolean: true,
});

/** The filter values that are ids, as a JSON list for `json_each`. */
export const idList = (values: readonly string[]): string => JSON.stringify(values.filter((v) => /^\d{1,15}$/.test(v)).map(Number));

/** A row's column among a JSON list of values. */
export const inJsonList = (column: RawBuilder<unknown>, json: string) => sql`${column} IN (SELECT value FROM json_each(${json}))`;

/** A filter's values as an SQL set (`x IN ${valueSet(values)}`). */
export const valueSet = (values: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** An `integer` filter's values (whole numbers: the compiler has checked them) as an SQL set of numbers. */
export const numberSet = (values: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values.map(Number))}))`;

/** Whether the JSON list in `column` of the row under `t` holds a member of `set` (an SQL set). */
export const listHolds = (t: string, column: string, set: RawBuilder<unknown>) =>
  sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${t}.${column}`)}) x WHERE x.value IN ${set})`;

/** Rows whose JSON list in `column` holds any of the values given (`object_type` on permissions and event rules). */
export const listContains = (column: string): FilterDeclaration => ({ sql: (values, t) => listHolds(t, column, valueSet(values)) });

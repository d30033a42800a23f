import type { JsonSchema, SelectContext, Field } from "../shapes.ts";
import type * as v from "valibot";
import { sql } from "kysely";
import type { KindDescriptor, LookupFamily, Out, RenderContext, Sql } from "./descriptor.ts";
import { customFieldsSchema, jsonSchema, nullable } from "./inputs.ts";
import { MAX_NESTING } from "./limits.ts";
import { definedFor } from "../custom-field-types.ts";
import { info, jsonSnapshot, jsonStore, parsed, readValue, ref, scalarApi } from "./outputs.ts";

/** The JSON-stored kinds: free JSON and custom field data. */

/** A JSON-stored kind. */
export function jsonStored(
  schema: (field: Field) => v.GenericSchema,
  optionsType: string,
  lookups: LookupFamily,
  openapi: JsonSchema,
): KindDescriptor {
  return {
    storage: { sqlType: "TEXT" },
    input: { inputs: (field) => ({ [field.name]: nullable(field, schema(field)) }), store: jsonStore },
    ...(lookups && { filter: { lookups } }),
    render: (field, row, out) => void (out[field.name] = parsed(readValue(field, row)) ?? field.default ?? null),
    final: (field, table) => {
      if (!field.column) return null;
      const value = ref(table, field.column);
      // Stored as JSON text; `null` stored reads as the default, as `parsed(...) ?? default` does.
      const fallback =
        field.default === undefined || field.default === null ? sql`NULL` : sql`jsonb(${sql.lit(JSON.stringify(field.default))})`;
      return [[field.name, sql`CASE WHEN ${value} IS NULL OR ${value} = 'null' THEN ${fallback} ELSE jsonb(${value}) END`]];
    },
    options: (field) => ({ [field.name]: info(field, optionsType) }),
    openapi: scalarApi(() => openapi),
    snapshot: jsonSnapshot,
  };
}

/**
 * Every custom field defined for the row's object type (NetBox lists them all, null when unset),
 * as `{v: {name: value}, t: {name: [type, related type]}}`: object fields' ids come back as the
 * nested JSON of their objects, built in the same statement, and `t` says how to shape them.
 */
function customFieldsSql(field: Field, table: string, sc: SelectContext): Sql {
  if (!sc.customFields) return sql`json_object('v', json_object(), 't', json_object())`;
  const data = ref(table, field.column!);
  const path = sql`('$."' || cf.name || '"')`;
  // Related objects come one level short of the nesting cap: their own relations are nested once
  // more (an interface's device), no further, so this subquery stays within SQLite's parser depth
  // whatever else the statement nests around it (a webhook event's frozen representation).
  const among = sc.customFieldTypes ?? undefined;
  const nested = sc.anyNestedJson(sql`cf.related_object_type`, sql`j.value`, Math.max(sc.depth + 1, MAX_NESTING - 1), among);
  const objects = among?.length === 0 ? sql`NULL` : sql`(SELECT json_group_array(${nested}) FROM json_each(${data}, ${path}) j)`;
  const value = sql`CASE WHEN cf.type IN ('object', 'multiobject') THEN CASE WHEN json_type(${data}, ${path}) IN ('integer', 'array') THEN ${objects} END
    ELSE ${data} -> ${path} END`;
  return sql`(SELECT json_object('v', json_group_object(cf.name, ${value}),
      't', json_group_object(cf.name, json_array(cf.type, cf.related_object_type)) FILTER (WHERE cf.type IN ('object', 'multiobject')))
    FROM (SELECT name, type, related_object_type FROM extras_customfield
      WHERE ${definedFor(field.ownerType)} ORDER BY group_name, weight, name) cf)`;
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

export const jsonKind: KindDescriptor = jsonStored(jsonSchema, "json", null, {});
export const customFieldsKind: KindDescriptor = {
  ...jsonStored(() => customFieldsSchema, "field", null, { type: "object" }),
  read: { select: (field, table, sc) => (sc.depth === 0 ? customFieldsSql(field, table, sc) : null) },
  render: renderCustomFields,
  // With no custom field defined for the model, every object's are `{}`; defined ones are shaped in JavaScript.
  final: (field, _table, fc) => (fc.customFields || fc.depth > 0 ? null : [[field.name, sql`jsonb_object()`]]),
};

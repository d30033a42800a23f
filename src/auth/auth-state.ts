import { sql } from "kysely";
import type { ObjectFields } from "../schema/actor.ts";

/**
 * Two columns of the requester's authentication row, a token's or a session's: the auth version,
 * and every custom field's owner types with, for object fields, the related type
 * (`[[object_types, related type or null], ...]`). Read together, so a read shaped by the custom
 * fields is proven current by the same check as the identity.
 */
export const authStateColumns = sql`(SELECT version FROM auth_state) AS version,
  (SELECT json_group_array(json_array(object_types,
    CASE WHEN type IN ('object', 'multiobject') THEN related_object_type END)) FROM extras_customfield) AS object_fields`;

/** The version and object fields of a row read with `authStateColumns`. */
export const authStateOf = (row: Record<string, unknown>) => ({
  version: Number(row.version),
  objectFields: objectFieldsOf(row.object_fields),
});

/** Every object type with custom fields, and the related types its object fields name. */
function objectFieldsOf(raw: unknown): ObjectFields {
  const out = new Map<string, string[]>();
  for (const [owners, related] of JSON.parse(String(raw ?? "[]")) as [string, string | null][]) {
    for (const owner of JSON.parse(owners) as string[]) {
      const types = out.get(owner) ?? [];
      out.set(owner, related && !types.includes(related) ? [...types, related].sort() : types);
    }
  }
  return out;
}

import { sql } from "kysely";
import type { ObjectFields } from "../schema/actor.ts";

/**
 * A column of the requester's authentication row: every custom field's owner types and, for object
 * fields, the related type, as `[[object_types, related type or null], ...]`. Read with the auth
 * version, so a read shaped by it is proven current by the same check as the identity.
 */
export const objectFieldsSql = sql`(SELECT json_group_array(json_array(object_types,
  CASE WHEN type IN ('object', 'multiobject') THEN related_object_type END)) FROM extras_customfield)`;

/** Every object type with custom fields, and the related types its object fields name, from `objectFieldsSql`'s column. */
export function objectFieldsOf(raw: unknown): ObjectFields {
  const out = new Map<string, string[]>();
  for (const [owners, related] of JSON.parse(String(raw ?? "[]")) as [string, string | null][]) {
    for (const owner of JSON.parse(owners) as string[]) {
      const types = out.get(owner) ?? [];
      out.set(owner, related && !types.includes(related) ? [...types, related].sort() : types);
    }
  }
  return out;
}

import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { objectTypeIdFilters, objectTypeLabelSql } from "../extras/object-types.ts";

export const CHANGE_ACTIONS = [
  { value: "create", label: "Created" },
  { value: "update", label: "Updated" },
  { value: "delete", label: "Deleted" },
] as const;

/**
 * A range filter on a column of ISO 8601 text, compared as such (`time__gte=2026-01-01`; NetBox's
 * `DateTimeFromToRangeFilter`'s `_after`/`_before`).
 */
export const timeFilter = (op: ">=" | "<=", column = "time") => ({
  sql: (values: readonly string[], t: string) => sql`${sql.ref(`${t}.${column}`)} ${sql.raw(op)} ${values[0]}`,
});

/**
 * A change record (NetBox's ObjectChange), written by the engine in the transaction of every
 * create, update and delete (`src/engine/changes/`); served read-only at `/api/core/object-changes/`
 * (NetBox 4.1+) and `/api/extras/object-changes/` (SPEC.md 2.1, NetBox 4.0).
 */
export const objectChange = defineModel({
  app: "core",
  name: "objectchange",
  verboseName: "object change",
  className: "ObjectChange",
  taggable: false,
  timestamps: false,
  readOnly: true,
  // NetBox's UI lists change records at /core/changelog/.
  page: "/core/changelog/",
  aliases: [{ app: "extras", path: "object-changes" }],
  fields: {
    // Stored as ISO 8601 text by the engine (a `string`: the column predates the datetime kind's rules).
    time: f.string({ maxLength: 40, readOnly: true }),
    user: f.fk("users.user", { nullable: true, onDelete: "setNull", readOnly: true }),
    user_name: f.string({ maxLength: 150, readOnly: true }),
    request_id: f.string({ maxLength: 36, readOnly: true }),
    action: f.choice(CHANGE_ACTIONS, { readOnly: true }),
    // The record keeps naming the object after it is gone (`changed_object` is then null).
    changed_object: f.generic((models) => models, { readOnly: true, onDelete: "keep" }),
    related_object: f.generic((models) => models, { nullable: true, readOnly: true, onDelete: "keep" }),
    object_repr: f.string({ maxLength: 200, readOnly: true }),
    message: f.string({ maxLength: 200, blank: true, readOnly: true }),
    prechange_data: f.json({ nullable: true, readOnly: true }),
    postchange_data: f.json({ nullable: true, readOnly: true }),
  },
  brief: ["time", "user_name", "request_id", "action", "object_repr"],
  // NetBox: "<object type> <repr> <created|updated|deleted> by <user name>".
  display: (
    t,
  ) => sql`${objectTypeLabelSql(objectChange.registry, sql.ref(`${t}.changed_object_type`))} || ' ' || ${sql.ref(`${t}.object_repr`)} || ' ' ||
    CASE ${sql.ref(`${t}.action`)} WHEN 'create' THEN 'created' WHEN 'update' THEN 'updated' ELSE 'deleted' END || ' by ' || ${sql.ref(`${t}.user_name`)}`,
  search: ["user_name", "object_repr"],
  ordering: ["-time", "-id"],
  naturalKey: "id",
  filters: {
    ...objectTypeIdFilters("changed_object_type_id", "changed_object_type"),
    time__gte: timeFilter(">="),
    time__lte: timeFilter("<="),
    time_after: timeFilter(">="),
    time_before: timeFilter("<="),
  },
});

export const coreModels = [objectChange];

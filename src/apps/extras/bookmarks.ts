import type { Model, RowSql } from "../../schema/shapes.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { objectTypeColumnFilters } from "./object-types.ts";

/**
 * The models a user may bookmark, subscribe to or be notified of: those with tags and custom
 * fields (NetBox's models with these features), read from the registry at request time.
 */
export const featuredModels = (models: readonly Model[]): readonly Model[] => models.filter((m) => m.taggable !== false);

/**
 * A user's own object of a generic relation `object` (bookmarks, subscriptions, notifications).
 * The object's row is kept when the object is deleted (`keep`, `object` then reads null): a
 * relation every model may be named by would otherwise add statements to every delete.
 */
export const userObjectFields = {
  // Not nested inside another object: only the row's own forms carry the object.
  object: f.generic(featuredModels, { onDelete: "keep", notNested: true }),
  user: f.fk("users.user", { required: false, onDelete: "cascade" }),
  created: f.datetime({ readOnly: true, autoNow: "create" }),
};

/**
 * "dcim.site 7": the object's type and id. NetBox prints the object itself; here the display
 * stays one cheap expression, since these rows nest wherever any object may (object custom
 * fields), and their `object` shows the object's own display.
 */
export const objectDisplay: RowSql = (t) => sql`${sql.ref(`${t}.object_type`)} || ' ' || ${sql.ref(`${t}.object_id`)}`;

/**
 * A row a user owns (a bookmark, a subscription, a notification): written for the requester
 * unless another user is named, and the requester may always name themselves, whatever they may
 * view of users. Who sees and changes whose rows is the permissions' business: NetBox's default
 * permissions (DEFAULT_PERMISSIONS) give every user their own.
 */
export const ownedByRequester: ModelHooks = {
  prepareWrite(ctx, items) {
    for (const item of items) if (!item.current && item.values.user === undefined && ctx.user) item.values.user = ctx.user.id;
  },
  referable(ctx, field, table) {
    if (field !== "user" || !ctx.user) return null;
    return sql`${sql.ref(`${table}.id`)} = ${ctx.user.id}`;
  },
};

/** The filters of a user's objects: the object's type by name (with lookups) or id. */
export const userObjectFilters = objectTypeColumnFilters("object_type");

export const bookmark = defineModel({
  app: "extras",
  name: "bookmark",
  taggable: false,
  timestamps: false,
  fields: userObjectFields,
  uniqueTogether: [{ fields: ["object", "user"], message: "Bookmark with this Object type, Object ID and User already exists." }],
  // NetBox's brief form: `object_type` and `object_id`, which the generic relation gives with its `object`.
  brief: ["object"],
  display: objectDisplay,
  search: [],
  ordering: ["created", "user"],
  hooks: ownedByRequester,
  filters: userObjectFilters,
});

export const bookmarkModels = [bookmark];

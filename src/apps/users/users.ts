import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import type { RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { listHolds, whether } from "../../schema/filter-sql.ts";
import { keyFilters, tokenHooks } from "./token-rules.ts";
import { userHooks } from "./user-rules.ts";
import { provisionRoute } from "./provision.ts";
import { permissionHooks } from "./permission-rules.ts";
import { objectTypesListFilters } from "../extras/object-types.ts";

export const group = defineModel({
  app: "users",
  name: "group",
  taggable: false,
  timestamps: false,
  fields: {
    name: f.string({ maxLength: 150, unique: true }),
    description,
    user_count: f.countRows("users_user_groups", "group_id"),
    permissions: grantedPermissions("users_objectpermission_groups", "group_id"),
  },
  brief: ["name", "description"],
  filters: {
    user_id: {
      target: "users.user",
      byId: true,
      related: (t) => sql`SELECT x.user_id AS id FROM users_user_groups x WHERE x.group_id = ${sql.ref(`${t}.id`)}`,
    },
    ...grantedBy("users_objectpermission_groups", "group_id"),
    ...notifiedThrough("extras_notificationgroup_groups", "group_id"),
  },
});

/** The permissions granted to a user or group, through `table`'s `column`: written and read as NetBox 4.2's `permissions`. */
function grantedPermissions(table: string, column: string) {
  return f.m2m("users.objectpermission", { table, source: column, target: "objectpermission_id" });
}

/** `notification_group_id`: the users or groups (through `table`'s `column`) that notification groups notify. */
function notifiedThrough(table: string, column: string): Record<string, RelatedFilter> {
  return {
    notification_group_id: {
      target: "extras.notificationgroup",
      byId: true,
      related: (t) =>
        sql`SELECT x.notificationgroup_id AS id FROM ${sql.table(table)} x WHERE x.${sql.ref(column)} = ${sql.ref(`${t}.id`)}`,
    },
  };
}

/** `permission_id`: the users or groups (through `table`'s `column`) the permissions given are granted to. */
function grantedBy(table: string, column: string): Record<string, RelatedFilter> {
  return {
    permission_id: {
      target: "users.objectpermission",
      byId: true,
      related: (t) => sql`SELECT x.objectpermission_id AS id FROM ${sql.table(table)} x WHERE x.${sql.ref(column)} = ${sql.ref(`${t}.id`)}`,
    },
  };
}

export const user = defineModel({
  app: "users",
  name: "user",
  taggable: false,
  timestamps: false,
  fields: {
    username: f.string({
      maxLength: 150,
      unique: true,
      uniqueMessage: "A user with that username already exists.",
      pattern: {
        regex: /^[\w.@+-]+$/,
        message: "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.",
      },
    }),
    password: f.password({ required: true }),
    first_name: f.string({ maxLength: 150, blank: true }),
    last_name: f.string({ maxLength: 150, blank: true }),
    email: f.string({
      maxLength: 254,
      blank: true,
      pattern: { regex: /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: "Enter a valid email address." },
    }),
    is_staff: f.boolean({ default: false }),
    is_active: f.boolean({ default: true }),
    is_superuser: f.boolean({ default: false }),
    date_joined: f.datetime({ readOnly: true, autoNow: "create" }),
    last_login: f.datetime({ readOnly: true, nullable: true }),
    groups: f.m2m("users.group", { table: "users_user_groups", source: "user_id", target: "group_id" }, { filterName: "group" }),
    permissions: grantedPermissions("users_objectpermission_users", "user_id"),
  },
  brief: ["username"],
  // NetBox's display: the username, then the full name in brackets when there is one.
  display: (t) => {
    const full = sql`trim(${sql.ref(`${t}.first_name`)} || ' ' || ${sql.ref(`${t}.last_name`)})`;
    return sql`CASE WHEN ${full} = '' THEN ${sql.ref(`${t}.username`)} ELSE ${sql.ref(`${t}.username`)} || ' (' || ${full} || ')' END`;
  },
  naturalKey: "username",
  search: ["username", "first_name", "last_name", "email"],
  ordering: ["username"],
  hooks: userHooks,
  filters: { ...grantedBy("users_objectpermission_users", "user_id"), ...notifiedThrough("extras_notificationgroup_users", "user_id") },
});

export const token = defineModel({
  app: "users",
  name: "token",
  taggable: false,
  timestamps: false,
  fields: {
    user: f.fk("users.user", { required: false, onDelete: "cascade" }),
    created: f.datetime({ readOnly: true, autoNow: "create" }),
    expires: f.datetime({ nullable: true }),
    last_used: f.datetime({ nullable: true }),
    key: f.string({
      maxLength: 40,
      column: null,
      required: false,
      // NetBox's words for a short key; a key of the right length must still be hexadecimal.
      check: (key) => (key.length < 40 ? "Ensure this field has at least 40 characters." : undefined),
      pattern: { regex: /^[0-9a-fA-F]{40}$/, message: "Token key must be 40 hexadecimal characters." },
    }),
    write_enabled: f.boolean({ default: true }),
    description,
    allowed_ips: f.ipList(),
  },
  brief: ["key", "write_enabled", "description"],
  // Never the key: enough of it to tell tokens apart (maskTokenKey in SQL).
  display: (t) => sql`${"*".repeat(34)} || ${sql.ref(`${t}.key_last6`)}`,
  naturalKey: "id",
  search: ["description"],
  ordering: ["-created"],
  hooks: tokenHooks,
  sensitive: true,
  routes: [provisionRoute],
  filters: keyFilters(),
  storage: { key_digest: "TEXT NOT NULL UNIQUE", key_last6: "TEXT NOT NULL", key_ciphertext: "TEXT" },
});

/**
 * An object permission (NetBox's ObjectPermission): actions on object types for its users and
 * groups' members, optionally limited by constraints (lookups over each object's fields).
 */
export const objectPermission = defineModel({
  app: "users",
  name: "objectpermission",
  verboseName: "permission",
  className: "ObjectPermission",
  path: "permissions",
  taggable: false,
  timestamps: false,
  fields: {
    name: f.string({ maxLength: 100 }),
    description,
    enabled: f.boolean({ default: true }),
    object_types: f.stringList({ required: true, default: undefined }),
    actions: f.stringList({ required: true, default: undefined, helpText: "The list of actions granted by this permission" }),
    constraints: f.json({ nullable: true, helpText: "Queryset filter matching the applicable objects of the selected type(s)" }),
    groups: f.m2m(
      "users.group",
      { table: "users_objectpermission_groups", source: "objectpermission_id", target: "group_id" },
      { filterName: "group", nestedDisplayUrl: true },
    ),
    users: f.m2m(
      "users.user",
      { table: "users_objectpermission_users", source: "objectpermission_id", target: "user_id" },
      { filterName: "user", nestedDisplayUrl: true },
    ),
  },
  brief: ["name", "description", "enabled", "object_types", "actions"],
  search: ["name", "description"],
  ordering: ["name"],
  hooks: permissionHooks(() => objectPermission),
  filters: {
    ...objectTypesListFilters("object_types"),
    ...Object.fromEntries(
      ["view", "add", "change", "delete"].map((action) => [`can_${action}`, whether((t) => listHolds(t, "actions", sql`(${action})`))]),
    ),
  },
});

export const usersModels = [user, group, token, objectPermission];

import type { Choice } from "../../schema/shapes.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { objectDisplay, ownedByRequester, userObjectFields, userObjectFilters } from "./bookmarks.ts";

/** What a notification tells of its object: NetBox 4.2's event types, jobs' included (none run here). */
export const NOTIFICATION_EVENTS: readonly Choice[] = [
  { value: "object_created", label: "Object created" },
  { value: "object_updated", label: "Object updated" },
  { value: "object_deleted", label: "Object deleted" },
  { value: "job_started", label: "Job started" },
  { value: "job_completed", label: "Job completed" },
  { value: "job_failed", label: "Job failed" },
  { value: "job_errored", label: "Job errored" },
];

/** A set of users and groups to notify together (event rules of NetBox notify one). */
export const notificationGroup = defineModel({
  app: "extras",
  name: "notificationgroup",
  verboseName: "notification group",
  taggable: false,
  timestamps: false,
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    groups: f.m2m(
      "users.group",
      { table: "extras_notificationgroup_groups", source: "notificationgroup_id", target: "group_id" },
      { filterName: "group" },
    ),
    users: f.m2m(
      "users.user",
      { table: "extras_notificationgroup_users", source: "notificationgroup_id", target: "user_id" },
      { filterName: "user" },
    ),
  },
  brief: ["name", "description"],
  ordering: ["name"],
});

/** A notice to a user that something happened to an object; `read` is when they read it. */
export const notification = defineModel({
  app: "extras",
  name: "notification",
  taggable: false,
  timestamps: false,
  fields: {
    ...userObjectFields,
    read: f.datetime({ nullable: true }),
    event_type: f.choice(NOTIFICATION_EVENTS, { label: "Event" }),
  },
  brief: ["object", "user", "read", "event_type"],
  display: objectDisplay,
  search: [],
  ordering: ["-created"],
  hooks: ownedByRequester,
  filters: userObjectFilters,
});

/** A user's subscription to an object: its changes notify them. */
export const subscription = defineModel({
  app: "extras",
  name: "subscription",
  taggable: false,
  timestamps: false,
  fields: userObjectFields,
  uniqueTogether: [{ fields: ["object", "user"], message: "Subscription with this Object type, Object ID and User already exists." }],
  brief: ["object", "user"],
  display: objectDisplay,
  search: [],
  ordering: ["-created", "user"],
  hooks: ownedByRequester,
  filters: userObjectFilters,
});

export const notificationModels = [notificationGroup, notification, subscription];

import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { objectTypesChecked } from "./custom-links.ts";
import { objectTypesListFilters } from "./object-types.ts";

/**
 * A saved filter: a named set of list query parameters for some object types, a user's own
 * (`user`, as a bare id as NetBox gives it) and shared with everyone when `shared`.
 */
export const savedFilter = defineModel({
  app: "extras",
  name: "savedfilter",
  verboseName: "saved filter",
  taggable: false,
  fields: {
    object_types: f.stringList({ required: true, default: undefined }),
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    description,
    user: f.fk("users.user", { nullable: true, flat: true, onDelete: "setNull" }),
    weight: f.integer({ default: 100, min: 0, max: 32767 }),
    enabled: f.boolean({ default: true }),
    shared: f.boolean({ default: true }),
    parameters: f.json({
      required: true,
      checkJson: (value) => (typeof value === "object" && !Array.isArray(value) ? undefined : "Filter parameters must be a JSON object."),
    }),
  },
  brief: ["name", "slug", "description"],
  search: ["name", "slug", "description"],
  ordering: ["weight", "name"],
  hooks: objectTypesChecked(() => savedFilter),
  filters: objectTypesListFilters("object_types"),
});

export const savedFilterModels = [savedFilter];

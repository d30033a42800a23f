import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { customFieldModels } from "./custom-fields.ts";
import { objectTypeNames } from "./object-types.ts";
import { listHolds, valueSet } from "../../schema/filter-sql.ts";

export const tag = defineModel({
  app: "extras",
  name: "tag",
  taggable: false,
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({
      unique: true,
      pattern: {
        regex: /^[-\p{L}\p{N}_]+$/u,
        message: 'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.',
      },
    }),
    color: f.string({
      maxLength: 6,
      default: "9e9e9e",
      pattern: { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." },
    }),
    description,
    object_types: f.stringList(),
    tagged_items: f.countRows("extras_taggeditem", "tag_id"),
  },
  brief: ["name", "slug", "color", "description"],
  filters: {
    // Tags applied to objects of the types given, by name (`dcim.site`) or id.
    content_type: { sql: (values, t) => taggedAs(valueSet(values), t) },
    content_type_id: { integer: true, sql: (values, t) => taggedAs(objectTypeNames(values), t) },
    // Tags that may be applied to objects of the type given: those limited to it, and those limited to none.
    for_object_type_id: {
      integer: true,
      sql: (values, t) =>
        sql`(json_array_length(${sql.ref(`${t}.object_types`)}) = 0 OR ${listHolds(t, "object_types", objectTypeNames(values))})`,
    },
  },
});

/** Tags applied to an object of one of the types (a set of `app.model` names). */
const taggedAs = (types: RawBuilder<unknown>, t: string) =>
  sql`EXISTS (SELECT 1 FROM extras_taggeditem ti WHERE ti.tag_id = ${sql.ref(`${t}.id`)} AND ti.object_type IN ${types})`;

export const extrasModels = [tag, ...customFieldModels];

import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { customFieldModels } from "./custom-fields.ts";

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
});

export const extrasModels = [tag, ...customFieldModels];

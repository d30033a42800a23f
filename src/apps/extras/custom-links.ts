import type { Choice, Model } from "../../schema/shapes.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { objectTypeErrors } from "./event-rules.ts";
import { objectTypesListFilters } from "./object-types.ts";
import { templateProblem } from "./render.ts";

/** The colours of a custom link's button, as NetBox 4.2 names them. */
export const BUTTON_CLASSES: readonly Choice[] = [
  { value: "default", label: "Default" },
  { value: "blue", label: "Blue" },
  { value: "indigo", label: "Indigo" },
  { value: "purple", label: "Purple" },
  { value: "pink", label: "Pink" },
  { value: "red", label: "Red" },
  { value: "orange", label: "Orange" },
  { value: "yellow", label: "Yellow" },
  { value: "green", label: "Green" },
  { value: "teal", label: "Teal" },
  { value: "cyan", label: "Cyan" },
  { value: "gray", label: "Gray" },
  { value: "black", label: "Black" },
  { value: "white", label: "White" },
  { value: "ghost-dark", label: "Link" },
];

/** Object types that name registered models, checked on every write of a model with `object_types`. */
export const objectTypesChecked = (self: () => Model): ModelHooks => ({
  prepareWrite(_ctx, items) {
    for (const item of items) objectTypeErrors(self().registry, item, "object_types");
  },
});

/** A template that must parse (mustache here, where NetBox's are Jinja2). */
const template = (o: { blank?: boolean } = {}) =>
  f.text({ required: !o.blank, blank: Boolean(o.blank), check: (code) => templateProblem(code) ?? undefined });

/**
 * A link NetBox's pages show on the objects of some types: its text and URL are templates
 * rendered over the object (mustache here). This service keeps and serves them for clients.
 */
export const customLink = defineModel({
  app: "extras",
  name: "customlink",
  verboseName: "custom link",
  taggable: false,
  fields: {
    object_types: f.stringList({ required: true, default: undefined }),
    // NetBox 3.x's name, which older clients (Debian's Ansible collection) still send.
    content_types: f.alias("object_types"),
    name: f.string({ maxLength: 100, unique: true }),
    enabled: f.boolean({ default: true }),
    link_text: { ...template(), helpText: "A mustache template over the object (`{{object.name}}`)." },
    link_url: { ...template(), label: "Link URL", helpText: "A mustache template over the object, giving a URL." },
    weight: f.integer({ default: 100, min: 0, max: 32767 }),
    group_name: f.string({ maxLength: 50, blank: true, helpText: "Links with the same group appear as a dropdown menu" }),
    button_class: f.choice(BUTTON_CLASSES, {
      default: "default",
      helpText: "The class of the first link in a group is used for the dropdown button",
    }),
    new_window: f.boolean({ default: false, helpText: "Force link to open in a new window" }),
  },
  brief: ["name"],
  search: ["name", "link_text", "link_url"],
  ordering: ["group_name", "weight", "name"],
  hooks: objectTypesChecked(() => customLink),
  filters: objectTypesListFilters("object_types"),
});

export const customLinkModels = [customLink];

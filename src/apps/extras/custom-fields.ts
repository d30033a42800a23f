import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import {
  CHOICE_SET_BASE_CHOICES,
  CUSTOM_FIELD_FILTER_LOGIC,
  CUSTOM_FIELD_TYPES,
  CUSTOM_FIELD_UI_EDITABLE,
  CUSTOM_FIELD_UI_VISIBLE,
} from "../../schema/custom-field-types.ts";
import { choicesRoute, choiceSetHooks, customFieldHooks } from "./custom-field-definitions.ts";
import { objectTypeIdFilters, objectTypesListFilters } from "./object-types.ts";

const valuesSql = (values: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

export const customFieldChoiceSet = defineModel({
  app: "extras",
  name: "customfieldchoiceset",
  verboseName: "custom field choice set",
  taggable: false,
  path: "custom-field-choice-sets",
  // NetBox's UI names them so.
  page: "/extras/custom-field-choices/",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    base_choices: f.choice(CHOICE_SET_BASE_CHOICES, { nullable: true, helpText: "Base set of predefined choices (optional)" }),
    // A list of [value, label] pairs; checked and ordered by the hooks.
    extra_choices: f.json({ required: true }),
    order_alphabetically: f.boolean({ default: false, helpText: "Choices are automatically ordered alphabetically" }),
    choices_count: f.computed((t) => sql`coalesce(json_array_length(${sql.ref(`${t}.extra_choices`)}), 0)`, { returns: "integer" }),
  },
  brief: ["name", "description", "choices_count"],
  search: ["name", "description"],
  filters: {
    // Sets offering any of the values.
    choice: {
      sql: (values, table) =>
        sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${table}.extra_choices`)}) c WHERE c.value ->> 0 IN ${valuesSql(values)})`,
    },
  },
  hooks: choiceSetHooks,
  routes: [choicesRoute],
});

/** `str()` of a custom field: its label, else its name with spaces, capitalised. */
const customFieldDisplay = (t: string) => {
  const spaced = sql`replace(${sql.ref(`${t}.name`)}, '_', ' ')`;
  return sql`CASE WHEN ${sql.ref(`${t}.label`)} <> '' THEN ${sql.ref(`${t}.label`)} ELSE upper(substr(${spaced}, 1, 1)) || substr(${spaced}, 2) END`;
};

/** What a value of each type is, as the API reports it in `data_type`. */
const dataTypeSql = (t: string) => sql`CASE ${sql.ref(`${t}.type`)}
  WHEN 'integer' THEN 'integer' WHEN 'decimal' THEN 'decimal' WHEN 'boolean' THEN 'boolean'
  WHEN 'json' THEN 'object' WHEN 'object' THEN 'object' WHEN 'multiselect' THEN 'array' WHEN 'multiobject' THEN 'array'
  ELSE 'string' END`;

const NAME = { regex: /^[a-z0-9_]+$/, message: "Only alphanumeric characters and underscores are allowed." };

export const customField = defineModel({
  app: "extras",
  name: "customfield",
  verboseName: "custom field",
  taggable: false,
  fields: {
    object_types: f.stringList({ required: true }),
    type: f.choice(CUSTOM_FIELD_TYPES, { default: "text", helpText: "The type of data this custom field holds" }),
    related_object_type: f.string({ maxLength: 100, nullable: true, default: null }),
    data_type: f.computed(dataTypeSql, { returns: "string" }),
    name: f.string({ maxLength: 50, unique: true, pattern: NAME, helpText: "Internal field name" }),
    label: f.string({ maxLength: 50, blank: true }),
    group_name: f.string({ maxLength: 50, blank: true, helpText: "Custom fields within the same group will be displayed together" }),
    description,
    required: f.boolean({ default: false }),
    unique: f.boolean({ default: false, label: "Must be unique" }),
    search_weight: f.integer({ default: 1000, min: 0, max: 32767 }),
    filter_logic: f.choice(CUSTOM_FIELD_FILTER_LOGIC, { default: "loose" }),
    ui_visible: f.choice(CUSTOM_FIELD_UI_VISIBLE, { default: "always" }),
    ui_editable: f.choice(CUSTOM_FIELD_UI_EDITABLE, { default: "yes" }),
    is_cloneable: f.boolean({ default: false }),
    default: f.json({ nullable: true, default: null }),
    related_object_filter: f.json({ nullable: true, default: null }),
    weight: f.integer({ default: 100, min: 0, max: 32767 }),
    validation_minimum: f.integer({ nullable: true, default: null, label: "Minimum value" }),
    validation_maximum: f.integer({ nullable: true, default: null, label: "Maximum value" }),
    validation_regex: f.string({ maxLength: 500, blank: true }),
    choice_set: f.fk("extras.customfieldchoiceset", { nullable: true, onDelete: "protect" }),
    comments,
  },
  brief: ["name", "description"],
  display: customFieldDisplay,
  search: ["name", "label", "description", "group_name"],
  ordering: ["group_name", "weight", "name"],
  filters: {
    // Fields defined for any of the object types.
    ...objectTypesListFilters("object_types"),
    ...objectTypeIdFilters("related_object_type_id", "related_object_type"),
  },
  hooks: customFieldHooks(() => customField),
});

export const customFieldModels = [customFieldChoiceSet, customField];

import type { JsonSchema, Field, Model } from "../shapes.ts";
import { sql } from "kysely";
import { nullableFor, orNull } from "../json-schema.ts";
import type { GenericRef, KindDescriptor, Out, Ref } from "./descriptor.ts";
import { notNull, objectIdSchema, objectTypeSchema } from "./inputs.ts";
import { info, parsed, ref } from "./outputs.ts";

/** The model a generic relation's value names (its type is one of the field's targets, as validated). */
const genericTarget = (field: Field, value: GenericRef): Model => field.targets!().find((m) => m.objectType === value.type)!;
const genericRef = (value: GenericRef): Ref => ({ ref: "id", id: value.id });

/** A reference to a row of any of several models, stored as `<name>_type` and `<name>_id`. */
export const genericKind: KindDescriptor = {
  storage: {
    sqlType: null,
    columns: (field) => [
      [`${field.name}_type`, "TEXT"],
      [`${field.name}_id`, "INTEGER"],
    ],
    valueColumns: (field) => [
      [`${field.name}_type`, "type"],
      [`${field.name}_id`, "id"],
    ],
  },
  input: {
    inputs: (field) => ({ [`${field.name}_type`]: objectTypeSchema(field), [`${field.name}_id`]: objectIdSchema(field) }),
    collect: (field, input) => {
      const type = input[`${field.name}_type`];
      const id = input[`${field.name}_id`];
      if (type === undefined && id === undefined) return {};
      if (type === null || id === null)
        return type === null && id === null
          ? { value: null }
          : { errors: { [`${field.name}_${type === null ? "type" : "id"}`]: [notNull] } };
      if (type === undefined || id === undefined)
        return { errors: { [`${field.name}_${type === undefined ? "type" : "id"}`]: ["This field is required."] } };
      return { value: { type, id } };
    },
    store: (field, value, columns) => {
      const g = value as GenericRef | null;
      columns.set(`${field.name}_type`, g?.type ?? null);
      columns.set(`${field.name}_id`, g?.id ?? null);
    },
  },
  // A generic relation is written by id only; resolving it checks that the object exists.
  references: {
    referencesIn: (field, value) =>
      value ? [{ target: genericTarget(field, value as GenericRef), ref: genericRef(value as GenericRef) }] : [],
    resolveReferences: (field, values, resolve) => {
      const value = values[field.name] as GenericRef | null | undefined;
      if (value) resolve(genericTarget(field, value), genericRef(value));
    },
    errorKey: (field) => `${field.name}_id`,
  },
  deletion: {
    pointsAt: (field, target) => field.targets!().includes(target),
    pointingAt: (field, target, ids) =>
      sql`${sql.ref(`${field.name}_type`)} = ${target.objectType} AND ${sql.ref(`${field.name}_id`)} IN ${ids}`,
    idColumn: (field) => `${field.name}_id`,
    // A required one cannot be cleared, so its row goes too; `keep` leaves the reference dangling (change records).
    cascades: (field) => !field.nullable && field.onDelete !== "keep",
    // No foreign key clears it: it is tidied after the delete instead.
    setsNull: () => false,
    tidiedAfterDelete: (field) => field.onDelete !== "keep",
  },
  // Its two stored columns filter as the text and integer they are.
  filter: {
    lookups: null,
    params: (field) =>
      (
        [
          ["type", "string"],
          ["id", "integer"],
        ] as const
      ).map(([part, kind]) => {
        const name = `${field.name}_${part}`;
        return { name, field: { ...field, kind, name, column: name } };
      }),
  },
  read: {
    select: (field, table, sc) => {
      const cases = field.targets!().map(
        (m) => sql`WHEN ${m.objectType} THEN ${sc.nestedJson(m, ref(table, `${field.name}_id`), sc.depth + 1)}`,
      );
      return sql`CASE ${ref(table, `${field.name}_type`)} ${sql.join(cases, sql` `)} END`;
    },
    related: true,
  },
  render: (field, row, out, rc) => {
    const type = row[`${field.name}_type`] ?? null;
    out[`${field.name}_type`] = type;
    out[`${field.name}_id`] = row[`${field.name}_id`] ?? null;
    const raw = parsed(row[field.name]);
    const target = field.targets!().find((m) => m.objectType === type);
    out[field.nestedAs ?? field.name] = raw && typeof raw === "object" && target ? rc.nested(target, raw as Out, { page: false }) : null;
  },
  options: (field) => ({
    [`${field.name}_type`]: {
      ...info(field, "field"),
      choices: field.targets!().map((m) => ({ value: m.objectType, display_name: m.verboseName })),
    },
    [`${field.name}_id`]: info(field, "integer"),
    [field.nestedAs ?? field.name]: info(field, "field", false),
  }),
  openapi: {
    output: (field, sc) => {
      const objects = field.targets!()
        .map((m) => sc.related(m, { page: false }))
        .filter((s): s is JsonSchema => s !== null);
      return {
        [`${field.name}_type`]: nullableFor(field, { enum: field.targets!().map((m) => m.objectType) }),
        [`${field.name}_id`]: nullableFor(field, { type: "integer" }),
        // Null past the nesting limit, and once the object is gone (a change record's).
        [field.nestedAs ?? field.name]: objects.length ? orNull(objects.length === 1 ? objects[0] : { anyOf: objects }) : { type: "null" },
      };
    },
    input: (field) => ({
      [`${field.name}_type`]: nullableFor(field, { enum: field.targets!().map((m) => m.objectType) }),
      [`${field.name}_id`]: nullableFor(field, { type: "integer", minimum: 0 }),
    }),
  },
  snapshot: (field, table) => [
    [`${field.name}_type`, ref(table, `${field.name}_type`)],
    [`${field.name}_id`, ref(table, `${field.name}_id`)],
  ],
};

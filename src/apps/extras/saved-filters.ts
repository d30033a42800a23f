import type { ModelHooks } from "../../schema/hooks.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { combineHooks } from "../../schema/hooks.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { objectTypesChecked } from "./custom-links.ts";
import { objectTypesListFilters } from "./object-types.ts";

const TRUE = ["true", "True", "1"];

/**
 * `usable`: the filters the requester may apply, enabled and theirs or shared (NetBox's). The
 * requester is known only at request time, so `prepareFilters` writes their id into the value
 * (`true|7`), which the filter's SQL reads; no other filter sees it.
 */
const usableFilter: ModelHooks = {
  async prepareFilters(ctx, filters) {
    return filters.map(([name, value]) =>
      name === "usable" ? ([name, `${TRUE.includes(value) ? 1 : 0}|${ctx.user?.id ?? 0}`] as const) : [name, value],
    );
  },
};

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
  hooks: combineHooks(
    objectTypesChecked(() => savedFilter),
    usableFilter,
  ),
  filters: {
    ...objectTypesListFilters("object_types"),
    usable: {
      sql: (values, t) => {
        const [given, requester] = values[0].split("|");
        const wanted = given === "1" || TRUE.includes(given);
        const user = Number(requester ?? 0);
        const usable = sql`(${sql.ref(`${t}.enabled`)} = 1 AND (${sql.ref(`${t}.shared`)} = 1 OR ${sql.ref(`${t}.user_id`)} = ${user || null}))`;
        return wanted ? usable : sql`NOT coalesce(${usable}, 0)`;
      },
    },
  },
});

export const savedFilterModels = [savedFilter];

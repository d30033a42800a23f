import { f, type FieldOptions } from "./fields.ts";
import type { Model } from "./model.ts";

/** The fields every organizational model shares. */
export const nameAndSlug = {
  name: f.string({ maxLength: 100, unique: true }),
  slug: f.slug({ unique: true }),
};

export const description = f.string({ maxLength: 200, blank: true });
export const comments = f.text();

/** A nested-group model's link to its parent; deleting a parent deletes its subtree, as in NetBox. */
export const parentOf = (model: () => Model): FieldOptions => f.fk(model, { nullable: true, onDelete: "cascade" });

/** The uniqueness NetBox enforces on nested groups: name and slug unique among siblings. */
export const siblingUnique = (verbose: string) => [
  { fields: ["parent", "name"], message: `A ${verbose} with this name already exists under the same parent.` },
  { fields: ["parent", "slug"], message: `A ${verbose} with this slug already exists under the same parent.` },
];

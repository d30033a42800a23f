import type { Choice, FieldOptions, ModelName } from "./shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "./fields.ts";

export const description = f.string({ maxLength: 200, blank: true });
export const comments = f.text();

/** A nested-group model's link to its parent; deleting a parent deletes its subtree, as in NetBox. */
export const parentOf = (model: ModelName): FieldOptions => f.fk(model, { nullable: true, onDelete: "cascade", nestedDisplayUrl: true });

/**
 * The fields every nested group shares (regions, site groups, tenant groups): name, slug, parent,
 * description, comments, and a cumulative count of what it groups. `unique` makes name and slug
 * unique everywhere (tenant groups) instead of among siblings.
 */
export const nestedGroupFields = (
  self: ModelName,
  counts: Record<string, FieldOptions>,
  { unique = false }: { readonly unique?: boolean } = {},
) => ({
  name: f.string({ maxLength: 100, unique }),
  slug: f.slug({ unique }),
  parent: parentOf(self),
  description,
  comments,
  ...counts,
});

/** The uniqueness NetBox enforces on nested groups: name and slug unique among siblings. */
export const siblingUnique = (verbose: string) => [
  { fields: ["parent", "name"], message: `A ${verbose} with this name already exists under the same parent.` },
  { fields: ["parent", "slug"], message: `A ${verbose} with this slug already exists under the same parent.` },
];

/** Filters every model placed in a site has: the site's region and group, with their descendants. */
export const siteTreeFilters = (path: string) => ({
  region: { path: `${path}__region`, tree: true },
  region_id: { path: `${path}__region__id`, tree: true },
  site_group: { path: `${path}__group`, tree: true },
  site_group_id: { path: `${path}__group__id`, tree: true },
});

/** Filters by the tenant's group, with its descendants. */
export const tenantGroupFilters = (path = "tenant") => ({
  tenant_group: { path: `${path}__group`, tree: true },
  tenant_group_id: { path: `${path}__group__id`, tree: true },
});

/** The config template a device, virtual machine, role or platform renders its configuration with. */
export const configTemplateField = (): FieldOptions => f.fk("extras.configtemplate", { nullable: true, onDelete: "protect" });

/** A choice column's label as SQL, for display texts (the stored value where it is none of the choices). */
export const choiceLabelSql = (choices: readonly Choice[], column: RawBuilder<unknown>) =>
  sql`CASE ${column} ${sql.join(
    choices.map((c) => sql`WHEN ${c.value} THEN ${c.label}`),
    sql` `,
  )} ELSE ${column} END`;

import type { Choice, RowSql, Model, RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description, nestedGroupFields, siblingUnique } from "../../schema/common.ts";
import { objectTypeIdFilters } from "../extras/object-types.ts";

/** The models contacts may be assigned to: those NetBox gives contacts, as far as they are served. */
const CONTACT_TARGETS = new Set([
  "circuits.circuit",
  "circuits.provider",
  "circuits.provideraccount",
  "circuits.virtualcircuit",
  "dcim.device",
  "dcim.location",
  "dcim.manufacturer",
  "dcim.powerpanel",
  "dcim.rack",
  "dcim.region",
  "dcim.site",
  "dcim.sitegroup",
  "ipam.asn",
  "tenancy.tenant",
  "virtualization.cluster",
  "virtualization.clustergroup",
  "virtualization.virtualmachine",
]);

export const contactTargets = (models: readonly Model[]): readonly Model[] => models.filter((m) => CONTACT_TARGETS.has(m.objectType));

export const CONTACT_PRIORITY: readonly Choice[] = [
  { value: "primary", label: "Primary" },
  { value: "secondary", label: "Secondary" },
  { value: "tertiary", label: "Tertiary" },
  { value: "inactive", label: "Inactive" },
];

export const contactGroup = defineModel({
  app: "tenancy",
  name: "contactgroup",
  verboseName: "contact group",
  tree: true,
  fields: nestedGroupFields("tenancy.contactgroup", { contact_count: f.count("tenancy.contact", "group", { cumulative: true }) }),
  uniqueTogether: siblingUnique("contact group"),
  brief: ["name", "slug", "description", "contact_count", "_depth"],
});

export const contactRole = defineModel({
  app: "tenancy",
  name: "contactrole",
  verboseName: "contact role",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    description,
  },
  brief: ["name", "slug", "description"],
});

const EMAIL = { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: "Enter a valid email address." };
const URL_PATTERN = { regex: /^(https?|ftps?):\/\/[^\s/?#]+[^\s]*$/i, message: "Enter a valid URL." };

export const contact = defineModel({
  app: "tenancy",
  name: "contact",
  fields: {
    // NetBox 4.2: one group per contact (4.3 made it a set).
    group: f.fk("tenancy.contactgroup", { nullable: true, onDelete: "setNull" }),
    name: f.string({ maxLength: 100 }),
    title: f.string({ maxLength: 100, blank: true }),
    phone: f.string({ maxLength: 50, blank: true }),
    email: f.string({ maxLength: 254, blank: true, pattern: EMAIL }),
    address: f.string({ maxLength: 200, blank: true }),
    link: f.string({ maxLength: 200, blank: true, pattern: URL_PATTERN }),
    description,
    comments,
  },
  uniqueTogether: [
    { fields: ["group", "name"], nullsDistinct: ["group"], message: "A contact with this name already exists within the group." },
  ],
  brief: ["name", "description"],
  search: ["name", "title", "phone", "email", "address", "link", "description", "comments"],
  filters: {
    group: { path: "group", tree: true },
    group_id: { path: "group__id", tree: true },
  },
});

/** The `str()` of the generic object of a row under `t`, whatever its type. */
const objectDisplay = (t: string) => {
  const cases = contactAssignment.field.object.targets!().map(
    (m) =>
      sql`WHEN ${m.objectType} THEN (SELECT ${m.displaySql("o")} FROM ${sql.table(m.table)} o WHERE o.id = ${sql.ref(`${t}.object_id`)})`,
  );
  return cases.length ? sql`CASE ${sql.ref(`${t}.object_type`)} ${sql.join(cases, sql` `)} END` : sql`NULL`;
};

/** "Contact (Priority) -> object", as NetBox prints an assignment. */
const assignmentDisplay: RowSql = (t) => {
  const priority = sql`CASE ${sql.ref(`${t}.priority`)} ${sql.join(
    CONTACT_PRIORITY.map((c) => sql`WHEN ${c.value} THEN ' (' || ${c.label} || ')'`),
    sql` `,
  )} ELSE '' END`;
  return sql`(SELECT c.name FROM tenancy_contact c WHERE c.id = ${sql.ref(`${t}.contact_id`)}) || ${priority} || ' -> ' || coalesce(${objectDisplay(t)}, '')`;
};

export const contactAssignment = defineModel({
  app: "tenancy",
  name: "contactassignment",
  pageless: true,
  verboseName: "contact assignment",
  fields: {
    object: f.generic(contactTargets),
    contact: f.fk("tenancy.contact", { onDelete: "protect" }),
    role: f.fk("tenancy.contactrole", { nullable: true, onDelete: "protect" }),
    priority: f.choice(CONTACT_PRIORITY, { nullable: true }),
  },
  uniqueTogether: [
    {
      fields: ["object", "contact", "role"],
      message: "Contact assignment with this Object type, Object ID, Contact and Role already exists.",
    },
  ],
  brief: ["contact", "role", "priority"],
  display: assignmentDisplay,
  search: [],
  ordering: ["contact", "priority", "role"],
  filters: {
    ...objectTypeIdFilters("object_type_id", "object_type"),
    group: { path: "contact__group", tree: true },
    group_id: { path: "contact__group__id", tree: true },
  },
});

/**
 * The filters NetBox gives every model contacts may be assigned to: `contact`, `contact_role`
 * (ids) and `contact_group` (ids, with descendants), matched through the assignments of the row.
 * A model declaration spreads `...contactFilters("app.model")` into its filters.
 */
export function contactFilters(objectType: string): Record<string, RelatedFilter> {
  const through = (column: RowSql) => (t: string) =>
    sql`SELECT ${column("a")} AS id FROM tenancy_contactassignment a
    WHERE a.object_type = ${objectType} AND a.object_id = ${sql.ref(`${t}.id`)}`;
  return {
    contact: { target: "tenancy.contact", byId: true, related: through((a) => sql.ref(`${a}.contact_id`)) },
    contact_role: { target: "tenancy.contactrole", byId: true, related: through((a) => sql.ref(`${a}.role_id`)) },
    contact_group: {
      target: "tenancy.contactgroup",
      byId: true,
      tree: true,
      related: through((a) => sql`(SELECT c.group_id FROM tenancy_contact c WHERE c.id = ${sql.ref(`${a}.contact_id`)})`),
    },
  };
}

export const contactModels = [contactGroup, contactRole, contact, contactAssignment];

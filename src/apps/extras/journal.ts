import type { Choice, RowSql, Model } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { choiceLabelSql } from "../../schema/common.ts";
import { objectTypeIdFilters } from "./object-types.ts";

export const JOURNAL_KIND: readonly Choice[] = [
  { value: "info", label: "Info" },
  { value: "success", label: "Success" },
  { value: "warning", label: "Warning" },
  { value: "danger", label: "Danger" },
];

/** The apps whose models keep a journal, as NetBox's do. */
const JOURNALED_APPS = new Set(["circuits", "dcim", "ipam", "tenancy", "virtualization"]);
/** Models of those apps NetBox keeps no journal for: assignments, terminations and component templates. */
const NOT_JOURNALED = new Set(["tenancy.contactassignment", "circuits.circuittermination", "circuits.circuitgroupassignment"]);

/** Every registered model a journal entry may be written on, read at request time. */
const journaledModels = (models: readonly Model[]): readonly Model[] =>
  models.filter((m) => JOURNALED_APPS.has(m.app) && !NOT_JOURNALED.has(m.objectType) && !m.name.endsWith("template"));

/** "2025-01-31 14:05 (Info)": the entry's time and kind, as NetBox prints an entry. */
const entryDisplay: RowSql = (t) => {
  const kind = choiceLabelSql(JOURNAL_KIND, sql.ref(`${t}.kind`));
  return sql`coalesce(substr(replace(${sql.ref(`${t}.created`)}, 'T', ' '), 1, 16), '') || ' (' || ${kind} || ')'`;
};

export const journalEntry = defineModel({
  app: "extras",
  name: "journalentry",
  verboseName: "journal entry",
  path: "journal-entries",
  fields: {
    assigned_object: f.generic(journaledModels),
    // Who wrote the entry: the requesting user, never what the client says.
    created_by: f.fk("users.user", { nullable: true, readOnly: true, onDelete: "setNull", flat: true }),
    kind: f.choice(JOURNAL_KIND, { default: "info" }),
    comments: f.text({ blank: false, required: true, default: undefined }),
  },
  brief: ["created"],
  display: entryDisplay,
  search: ["comments"],
  ordering: ["-created"],
  filters: {
    ...objectTypeIdFilters("assigned_object_type_id", "assigned_object_type"),
    created_after: { sql: (values, t) => sql`${sql.ref(`${t}.created`)} >= ${values[0]}` },
    created_before: { sql: (values, t) => sql`${sql.ref(`${t}.created`)} <= ${values[0]}` },
  },
  hooks: {
    prepareWrite: (ctx, items) => {
      for (const item of items) if (!item.current) item.columns.created_by_id = ctx.user?.id ?? null;
    },
  },
});

export const journalModels = [journalEntry];

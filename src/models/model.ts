import { columnOf, labelOf, type Field, type FieldOptions } from "./fields.ts";
import type { ModelHooks } from "./hooks.ts";

/** The applications under /api/, in the order the API root lists them. */
export const APPS = ["circuits", "dcim", "extras", "ipam", "plugins", "tenancy", "users", "virtualization"] as const;
export type AppName = (typeof APPS)[number];

/** A multi-field uniqueness rule; NULLs compare equal, as NetBox's constraints do. */
export interface UniqueTogether {
  readonly fields: readonly string[];
  readonly message: string;
}

/** What a model file declares. */
export interface ModelDeclaration {
  readonly app: AppName;
  /** Lower-case model name as in `app.model` object types: "site", "tenantgroup". */
  readonly name: string;
  /** Python-style class name used in messages: "Site", "TenantGroup". */
  readonly className: string;
  /** Human name used in uniqueness messages: "site", "tenant group". */
  readonly verboseName: string;
  /** The URL segment below the app: "sites", "tenant-groups". */
  readonly path: string;
  readonly table: string;
  readonly fields: Record<string, FieldOptions>;
  /** Fields of the brief and nested forms (id, url and display are always included). */
  readonly brief: readonly string[];
  /** `str(obj)`: the `display` value, from a stored row. */
  readonly display: (row: Record<string, any>) => string;
  /** Fields searched by `q` (icontains). */
  readonly search?: readonly string[];
  /** Default ordering; a leading `-` sorts descending. The id always breaks ties. */
  readonly ordering?: readonly string[];
  /** The field relation filters match by value (`?site=dc1`): slug, else name. */
  readonly naturalKey?: string;
  /** A nested-group model: `parent` fk to itself and a stored `_depth`. */
  readonly tree?: boolean;
  readonly uniqueTogether?: readonly UniqueTogether[];
  /** Adds `created` and `last_updated` (default true). */
  readonly timestamps?: boolean;
  /** Adds `tags` and `custom_fields` (default true). */
  readonly taggable?: boolean;
  readonly hooks?: ModelHooks;
  /** Stored columns no field maps to (a token's digest), with their SQL declarations. */
  readonly storage?: Readonly<Record<string, string>>;
}

/** A registered model: the declaration with every field resolved, in output order. */
export interface Model extends Omit<ModelDeclaration, "fields"> {
  /** `app.model`, as in change records and `assigned_object_type`. */
  readonly objectType: string;
  readonly fields: readonly Field[];
  readonly field: Readonly<Record<string, Field>>;
  readonly naturalKey: string;
  /** The fields of the full form (all but write-only ones) and of the brief and nested forms. */
  readonly readableFields: readonly Field[];
  readonly briefFields: readonly Field[];
  readonly search: readonly string[];
  readonly ordering: readonly string[];
}

const TAGS = (objectType: string): FieldOptions => ({
  kind: "m2m",
  target: () => tagModel(),
  through: { table: "extras_taggeditem", source: "object_id", target: "tag_id", objectTypeColumn: "object_type" },
  default: [],
});

let tagModel: () => Model = () => {
  throw new Error("the tag model is not registered");
};

/** Lets the extras app name the model every `tags` field points to, without an import cycle. */
export function setTagModel(get: () => Model): void {
  tagModel = get;
}

/** Declares a model once; everything else (table check, validation, shapes, filters, routes) derives from it. */
export function defineModel(d: ModelDeclaration): Model {
  const objectType = `${d.app}.${d.name}`;
  const declared: Record<string, FieldOptions> = { ...d.fields };
  if (d.tree) {
    declared._depth = { kind: "integer", readOnly: true, default: 0 };
  }
  if (d.taggable !== false) {
    declared.tags = TAGS(objectType);
    declared.custom_fields = { kind: "json", default: {}, column: "custom_field_data" };
  }
  if (d.timestamps !== false) {
    declared.created = { kind: "datetime", readOnly: true, nullable: true, autoNow: "create" };
    declared.last_updated = { kind: "datetime", readOnly: true, nullable: true, autoNow: "always" };
  }
  const fields = Object.entries(declared).map(
    ([name, o]): Field => ({ ...o, name, column: columnOf(name, o), label: o.label ?? labelOf(name) }),
  );
  const field = Object.fromEntries(fields.map((x) => [x.name, x]));
  const unknown = [...d.brief, ...(d.search ?? []), ...(d.ordering ?? []).map((o) => o.replace(/^-/, ""))].filter((n) => !field[n] && n !== "id");
  if (unknown.length) throw new Error(`${objectType}: unknown field(s) ${unknown.join(", ")} in brief, search or ordering`);
  const naturalKey = d.naturalKey ?? (field.slug ? "slug" : "name");
  return Object.freeze({
    ...d,
    objectType,
    fields,
    field,
    naturalKey,
    readableFields: fields.filter((x) => !x.writeOnly),
    briefFields: d.brief.map((name) => field[name]),
    search: d.search ?? fields.filter((x) => ["name", "slug", "description"].includes(x.name)).map((x) => x.name),
    ordering: d.ordering ?? (field.name ? ["name"] : ["id"]),
  });
}

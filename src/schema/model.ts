import type { CountOf, Field, FieldOptions, FilterDeclaration, Model, ModelDeclaration, ModelName, Registry } from "./shapes.ts";
import { sql } from "kysely";
import { labelOf } from "./fields.ts";
import { columnOf, KINDS, mirrorOf } from "./kinds/index.ts";
import { tenantGroupFilters } from "./common.ts";

const TAGS: FieldOptions = {
  kind: "m2m",
  target: "extras.tag",
  through: { table: "extras_taggeditem", source: "object_id", target: "tag_id", objectTypeColumn: "object_type" },
  default: [],
  filterName: "tag",
  matchAll: true,
  nestedDisplayUrl: true,
};

/** The registry each model belongs to, set once when a registry adopts the model. */
const owners = new WeakMap<Model, Registry>();

/**
 * Makes `registry` the model's own: the models its fields and filters name are found there. Once
 * per model: a model belongs to one registry.
 */
export function adopt(model: Model, registry: Registry): void {
  if (owners.has(model)) throw new Error(`${model.objectType} is already in a registry`);
  owners.set(model, registry);
}

/** "tenant group" -> "TenantGroup"; "IP address" -> "IPAddress". */
export const classNameOf = (verbose: string) =>
  verbose
    .split(/\s+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
/** "tenant group" -> "tenant-groups"; "IP address" -> "ip-addresses". */
const pathOf = (verbose: string) => `${verbose.toLowerCase().replace(/\s+/g, "-")}${/(s|x|ch|sh)$/.test(verbose) ? "es" : "s"}`;

/** Declares a model once; everything else (table check, validation, shapes, filters, routes) derives from it. */
export function defineModel(d: ModelDeclaration): Model {
  const objectType = `${d.app}.${d.name}`;
  const verboseName = d.verboseName ?? d.name;
  const declared: Record<string, FieldOptions> = { ...d.fields };
  if (d.tree) declared._depth = { kind: "integer", readOnly: true, default: 0 };
  if (d.taggable !== false) {
    declared.tags = TAGS;
    declared.custom_fields = { kind: "customFields", default: {}, column: "custom_field_data" };
  }
  if (d.timestamps !== false) {
    declared.created = { kind: "datetime", readOnly: true, nullable: true, autoNow: "create" };
    declared.last_updated = { kind: "datetime", readOnly: true, nullable: true, autoNow: "always" };
  }
  const registryOf = (): Registry => {
    const owner = owners.get(model);
    if (!owner) throw new Error(`${objectType} is in no registry yet`);
    return owner;
  };
  const named = (name: ModelName) => (): Model => registryOf().get(name);
  const fields = Object.entries(declared).map(([name, o]): Field => {
    const { target, targets, countOf, ...rest } = o;
    return {
      ...rest,
      ...(target !== undefined && { target: named(target) }),
      ...(targets !== undefined && { targets: targetsOf(targets, registryOf) }),
      ...(countOf !== undefined && { countOf: "model" in countOf ? { ...countOf, model: named(countOf.model) } : (countOf as CountOf) }),
      name,
      ownerType: objectType,
      column: columnOf(name, o),
      label: o.label ?? labelOf(name),
    };
  });
  // Every model with a tenant filters by the tenant's group too, as NetBox's tenancy filter set gives it.
  const tenancy = d.fields.tenant?.kind === "fk" && d.fields.tenant.target === "tenancy.tenant" ? tenantGroupFilters() : {};
  const declaredFilters: Readonly<Record<string, FilterDeclaration>> = { ...tenancy, ...d.filters };
  const filters =
    Object.keys(declaredFilters).length > 0
      ? Object.fromEntries(
          Object.entries(declaredFilters).map(([name, x]) => [
            name,
            typeof x === "object" && "target" in x ? { ...x, target: named(x.target) } : x,
          ]),
        )
      : undefined;
  // Without a prototype: request input (attribute references, filter paths, `ordering`, `fields`)
  // indexes it by name, and `constructor` or `toString` must name no field, not Object's methods.
  const field: Record<string, Field> = Object.assign(Object.create(null), Object.fromEntries(fields.map((x) => [x.name, x])));
  const listed = [...d.brief, ...(d.search ?? []), ...(d.ordering ?? []).map((o) => o.replace(/^-/, ""))];
  const unknown = listed.filter((n) => !field[n] && n !== "id");
  if (unknown.length) throw new Error(`${objectType}: unknown field(s) ${unknown.join(", ")} in brief, search or ordering`);
  for (const x of fields) {
    const mirrored = mirrorOf(x);
    if (mirrored !== undefined && fields.indexOf(field[mirrored] ?? x) >= fields.indexOf(x)) {
      throw new Error(`${objectType}: alias ${x.name} must follow the field it mirrors`);
    }
  }
  const display = d.display ?? (field.name ? "name" : "id");
  const briefFields = d.brief.map((name) => field[name]);
  const nestedFields = briefFields.filter((x) => !(x.notNested ?? KINDS[x.kind].read?.notNested));
  const model: Model = Object.freeze({
    ...d,
    get registry() {
      return registryOf();
    },
    filters,
    verboseName,
    className: d.className ?? classNameOf(verboseName),
    path: d.path ?? pathOf(verboseName),
    table: d.table ?? `${d.app}_${d.name}`,
    page: d.page ?? `/${d.app}/${d.path ?? pathOf(verboseName)}/`,
    objectType,
    fields,
    field,
    naturalKey: d.naturalKey ?? (field.slug ? "slug" : "name"),
    readableFields: fields.filter((x) => !x.writeOnly),
    briefFields,
    nestedFields,
    pageNestedFields: nestedFields.filter((x) => x.name !== "description"),
    search: d.search ?? fields.filter((x) => ["name", "slug", "description"].includes(x.name)).map((x) => x.name),
    ordering: d.ordering ?? (field.name ? ["name"] : ["id"]),
    routes: d.routes ?? [],
    displaySql:
      typeof display === "string"
        ? (table: string) => sql`CAST(${sql.ref(`${table}.${field[display]?.column ?? display}`)} AS TEXT)`
        : display,
  });
  return model;
}

/** A generic relation's targets, resolved once in the registry (which is frozen). */
function targetsOf(declared: NonNullable<FieldOptions["targets"]>, registryOf: () => Registry): () => readonly Model[] {
  let resolved: readonly Model[] | undefined;
  return () =>
    (resolved ??= typeof declared === "function" ? declared(registryOf().models) : declared.map((name) => registryOf().get(name)));
}

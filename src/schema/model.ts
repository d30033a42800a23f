import { sql, type RawBuilder } from "kysely";
import { labelOf, type CountOf, type Field, type FieldOptions, type ModelName, type RowSql } from "./fields.ts";
import { columnOf, KINDS, mirrorOf } from "./kinds/index.ts";
import type { ModelHooks } from "./hooks.ts";
import type { RouteDeclaration } from "./routes.ts";
import type { Registry } from "./registry.ts";

/** The applications under /api/, in the order the API root lists them. */
export const APPS = ["circuits", "core", "dcim", "extras", "ipam", "plugins", "tenancy", "users", "virtualization"] as const;
export type AppName = (typeof APPS)[number];

/** A multi-field uniqueness rule; NULLs compare equal, as NetBox's constraints do. */
export interface UniqueTogether {
  readonly fields: readonly string[];
  readonly message: string;
  /** Fields whose NULL never conflicts (an unnamed device), unlike the others'. */
  readonly nullsDistinct?: readonly string[];
  /** Text fields compared case-insensitively (`Lower('name')` in NetBox's constraints). */
  readonly caseInsensitive?: readonly string[];
  /** A text field whose blank value never conflicts (an unnamed provider account). */
  readonly unlessBlank?: string;
}

/**
 * A filter a model declares beyond those its fields give: a lookup path through relations
 * (`device_type__manufacturer__slug`; a path ending at a relation matches its natural key, or
 * its id when the path ends in `__id`), optionally including descendants of a nested-group
 * target (`tree`), or SQL of its own for what a path cannot say.
 */
export type FilterDeclaration<Target = ModelName> =
  | string
  | { readonly path: string; readonly tree?: boolean }
  | { readonly sql: (values: readonly string[], table: string) => RawBuilder<unknown> }
  | RelatedFilter<Target>;

/**
 * A filter on a relation no fk holds (a circuit's sites, through its terminations' generic
 * objects): `related` is a SELECT of the ids (as `id`) of the `target` rows the row under `table`
 * relates to. Matched by natural key, or by id with `byId`; `tree` includes descendants; `null`
 * matches rows relating to none; unknown values are a 400 like any relation filter's.
 */
export interface RelatedFilter<Target = ModelName> {
  readonly target: Target;
  readonly related: RowSql;
  readonly byId?: boolean;
  readonly tree?: boolean;
}

/** What a model file declares. */
export interface ModelDeclaration {
  readonly app: AppName;
  /** Lower-case model name as in `app.model` object types: "site", "tenantgroup". */
  readonly name: string;
  /** Human name used in messages: "site", "tenant group" (default: the name). */
  readonly verboseName?: string;
  /** Python-style class name used in messages: "Site", "TenantGroup" (default: from verboseName). */
  readonly className?: string;
  /** The URL segment below the app (default: verboseName pluralised, hyphenated: "tenant-groups"). */
  readonly path?: string;
  /** The table (default: `app_name`). */
  readonly table?: string;
  /**
   * Where an object's page for people lives, below the site root and before its id: its
   * `display_url` (default NetBox's `/<app>/<path>/`; NetBox names a few otherwise, as
   * `/core/changelog/`, and our own pages, as `/admin/webhook-deliveries/`, come first).
   */
  readonly page?: string;
  readonly fields: Record<string, FieldOptions>;
  /** Fields of the brief form; the nested form is the same less counts (id, url, display always). */
  readonly brief: readonly string[];
  /** `str(obj)`: a field name, or SQL over the row (default: `name`). */
  readonly display?: string | RowSql;
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
  /** Filters beyond the ones the fields give, by parameter name. */
  readonly filters?: Readonly<Record<string, FilterDeclaration>>;
  /** Never shown inside another object by a reference named at run time (a token: its key). */
  readonly sensitive?: boolean;
  /** Endpoints beyond list and detail (`provision`, `available-ips`, `trace`). */
  readonly routes?: readonly RouteDeclaration[];
  /**
   * Rows only the engine writes (change records, webhook deliveries): the API serves reads and
   * OPTIONS, and answers 405 to writes.
   */
  readonly readOnly?: boolean;
  /**
   * The rows the API serves, as SQL over a row; others are the engine's own until they qualify
   * (a webhook delivery whose conditions are not yet evaluated). Default: every row.
   */
  readonly visibleRows?: RowSql;
  /** Further paths serving the same endpoints (NetBox 4.0's `/api/extras/object-changes/`). */
  readonly aliases?: readonly { readonly app: AppName; readonly path: string }[];
}

/** A registered model: the declaration with names derived and every field resolved, in output order. */
export interface Model extends Omit<ModelDeclaration, "fields" | "display" | "filters"> {
  /** The registry that adopted the model: where the models its declaration names are found. */
  readonly registry: Registry;
  readonly filters?: Readonly<Record<string, FilterDeclaration<() => Model>>>;
  readonly verboseName: string;
  readonly className: string;
  readonly path: string;
  readonly table: string;
  readonly page: string;
  /** `app.model`, as in change records and `assigned_object_type`. */
  readonly objectType: string;
  readonly fields: readonly Field[];
  readonly field: Readonly<Record<string, Field>>;
  readonly naturalKey: string;
  /** The fields of the full form (all but write-only ones), of the brief form and of the nested form. */
  readonly readableFields: readonly Field[];
  readonly briefFields: readonly Field[];
  readonly nestedFields: readonly Field[];
  readonly search: readonly string[];
  readonly ordering: readonly string[];
  readonly routes: readonly RouteDeclaration[];
  /** `display` as SQL over a row read under `table`. */
  displaySql(table: string): RawBuilder<unknown>;
}

const TAGS: FieldOptions = {
  kind: "m2m",
  target: "extras.tag",
  through: { table: "extras_taggeditem", source: "object_id", target: "tag_id", objectTypeColumn: "object_type" },
  default: [],
  filterName: "tag",
  matchAll: true,
  nestedDisplayUrl: true,
};

/** How a registry takes in a model it adopts: see `adopt`. */
const adoptions = new WeakMap<Model, (registry: Registry) => void>();

/**
 * Makes `registry` the model's own: the models its fields and filters name are found there. Once
 * per model: a model belongs to one registry.
 */
export function adopt(model: Model, registry: Registry): void {
  const take = adoptions.get(model);
  if (!take) throw new Error(`${model.objectType} is already in a registry`);
  adoptions.delete(model);
  take(registry);
}

/** "tenant group" -> "TenantGroup"; "IP address" -> "IPAddress". */
const classNameOf = (verbose: string) =>
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
  let owner: Registry | null = null;
  const registryOf = (): Registry => {
    if (!owner) throw new Error(`${objectType} is in no registry yet`);
    return owner;
  };
  const named = (name: ModelName) => (): Model => {
    const found = registryOf().byObjectType(name);
    if (!found) throw new Error(`${objectType} names ${name}, which is not registered`);
    return found;
  };
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
  const filters =
    d.filters &&
    Object.fromEntries(
      Object.entries(d.filters).map(([name, x]) => [name, typeof x === "object" && "target" in x ? { ...x, target: named(x.target) } : x]),
    );
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
    nestedFields: briefFields.filter((x) => !KINDS[x.kind].read?.notNested && !x.notNested),
    search: d.search ?? fields.filter((x) => ["name", "slug", "description"].includes(x.name)).map((x) => x.name),
    ordering: d.ordering ?? (field.name ? ["name"] : ["id"]),
    routes: d.routes ?? [],
    displaySql:
      typeof display === "string"
        ? (table: string) => sql`CAST(${sql.ref(`${table}.${field[display]?.column ?? display}`)} AS TEXT)`
        : display,
  });
  adoptions.set(model, (registry) => {
    owner = registry;
  });
  return model;
}

/** A generic relation's targets, resolved once in the registry (which is frozen). */
function targetsOf(declared: NonNullable<FieldOptions["targets"]>, registryOf: () => Registry): () => readonly Model[] {
  let resolved: readonly Model[] | undefined;
  return () =>
    (resolved ??=
      typeof declared === "function"
        ? declared(registryOf().models)
        : declared.map((name) => {
            const found = registryOf().byObjectType(name);
            if (!found) throw new Error(`a generic relation names ${name}, which is not registered`);
            return found;
          }));
}

import type { RawBuilder } from "kysely";
import type { GenericSchema } from "valibot";
import type { Action, Actor } from "./actor.ts";
import type { ModelHooks } from "./hooks.ts";

/*
 * The shapes of the vocabulary: models, fields, the registry, declared routes and what SQL
 * builders see. They are defined in terms of each other (a model has fields, a field points at
 * a model, a registry holds models and a model knows its registry), so they live in one file and
 * every other file of schema/ imports them from here, one way.
 */

type Sql = RawBuilder<unknown>;

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** The representations: full (an object's own), brief (`?brief=1`) and nested (inside another). */
export type Form = "full" | "brief" | "nested";

/** What `select` may ask of the selection builder: a related object as nested JSON (JSONB, which enclosing JSON functions take as it is). */
export interface SelectContext {
  readonly depth: number;
  nestedJson(model: Model, id: Sql, depth: number): Sql;
  /** `nestedJson` of the object a foreign key of the read row names: read through a join where the statement allows. */
  relatedJson(model: Model, id: Sql, depth: number): Sql;
  /** The JSONB object of a row already in scope under `alias` (its nested form, or the fields named). */
  nestedObject(model: Model, alias: string, depth: number, fields?: readonly Field[]): Sql;
  /**
   * The nested JSON of the object of any registered model: `type` is its `app.model`, as SQL;
   * `among`, when given, the only models it can be (each model costs the statement a branch).
   */
  anyNestedJson(type: Sql, id: Sql, depth: number, among?: readonly string[]): Sql;
  /**
   * The related types the read model's object custom fields name (`ObjectFields`), when the
   * requester's data says; null: any registered type.
   */
  readonly customFieldTypes: readonly string[] | null;
  /** Whether the read model may have custom fields defined (`SelectOptions.customFields`). */
  readonly customFields: boolean;
  /** A registered model by `app.model`, for SQL that reaches models a field set cannot import. */
  byType(objectType: string): Model | undefined;
  /**
   * The name of the CTE holding the ids of the statement's own rows (a list page's), over which a
   * field may compute a value once for the whole page (`finishPage` hands it to each row); null
   * elsewhere.
   */
  readonly page: string | null;
}

/**
 * What a field's `final` may ask while SQLite writes an object's final JSON (src/engine/final-json.ts):
 * the form and nesting, and related objects in their nested forms (their URLs this request's).
 * Values it gives are SQL scalars or JSONB, which every enclosing JSON function takes as it is
 * (JSON text from a subquery would lose its subtype and read as a string).
 */
export interface FinalContext {
  readonly form: Form;
  /** How deep the object being written is nested (0: the object read). */
  readonly depth: number;
  /** Whether its relations are nested objects; past the nesting limit they are their ids. */
  readonly nests: boolean;
  /**
   * The nested form of the `target` object whose id is `id`, NULL when there is none; null when
   * its fields cannot be written so (past the nesting limit a relation writes its id: `nests`).
   */
  related(target: Model, id: RawBuilder<unknown>, shown: NestedShown): RawBuilder<unknown> | null;
  /** The nested form of the row of `target` under `alias`, already in scope; null when its fields cannot be written so. */
  nestedObject(target: Model, alias: string, shown: NestedShown): RawBuilder<unknown> | null;
  /** Whether the read model may have custom fields defined (`SelectOptions.customFields`). */
  readonly customFields: boolean;
  /** The raw rows' select context at this depth, for SQL a field computes its value with. */
  readonly select: SelectContext;
}

/** What a nested object shows: the fields named (default: its nested form's), and `display_url` when `page`. */
export interface NestedShown {
  readonly fields?: readonly Field[];
  readonly page?: boolean;
}

/** One option of a choice field; `id` is the legacy numeric id some clients still read. */
export interface Choice {
  readonly value: string | number;
  readonly label: string;
  readonly id?: number;
  /** Other spellings accepted on write and in filters (a VLAN's status 1 also as "active"). */
  readonly accepts?: readonly (string | number)[];
}

/** The kinds of field a model can declare; `src/schema/kinds/` says what each derives. */
export type FieldKind =
  | "string"
  | "text"
  | "slug"
  | "integer"
  | "float"
  | "boolean"
  | "choice"
  | "date"
  | "datetime"
  | "json"
  | "customFields"
  | "stringList"
  | "integerList"
  | "ipList"
  | "fk"
  | "m2m"
  | "generic"
  | "count"
  | "counter"
  | "computed"
  | "alias"
  | "password"
  | "reverse"
  | "network";

/** How an m2m field is stored: a through table, optionally shared by models (tags). */
export interface Through {
  readonly table: string;
  readonly source: string;
  readonly target: string;
  /** Column holding `app.model` when one through table serves several models. */
  readonly objectTypeColumn?: string;
}

/**
 * A model a declaration relates to, named `app.model`: resolved in the registry that adopts the
 * declaring model, so model files name each other without importing each other.
 */
export type ModelName = string;

/** The models a generic relation may point to: named, or picked from every registered model. */
export type TargetsDeclaration = readonly ModelName[] | ((models: readonly Model[]) => readonly Model[]);

/** What a `count` field counts, as declared: rows of a model whose fk points here, or rows of a through table. */
export type CountOfDeclaration =
  | { readonly model: ModelName; readonly field: string; readonly cumulative?: boolean; readonly annotated?: boolean }
  | { readonly table: string; readonly column: string }
  | { readonly sql: RowSql };

/** What a `count` field counts, its model resolved. */
export type CountOf =
  | { readonly model: () => Model; readonly field: string; readonly cumulative?: boolean; readonly annotated?: boolean }
  | { readonly table: string; readonly column: string }
  | { readonly sql: RowSql };

/** For `reverse`: the row of another model whose fk `field` points here and whose columns equal `where`. */
export interface ReverseOf {
  readonly field: string;
  readonly where: Readonly<Record<string, string | number>>;
  /** The fields of the related row shown (default: its nested form's). */
  readonly fields?: readonly string[];
}

/**
 * What a computed field's SQL may use besides the row: the object type of the model that spreads
 * the field (one field set serves many models) and the selection builder, for nested objects.
 */
export interface SqlScope {
  readonly ownerType: string;
  readonly sc: SelectContext;
}

/** SQL over a row of the model, given the table name or alias the row is read under. */
export type RowSql = (table: string, scope?: SqlScope) => RawBuilder<unknown>;

/**
 * A filter a field brings to every model that declares it, as SQL over the model's row; `byType`
 * reaches registered models the field set cannot import.
 */
export type FieldFilter = (
  values: readonly string[],
  table: string,
  field: Field,
  byType: (objectType: string) => Model | undefined,
) => RawBuilder<unknown>;

/** A field as declared, before `defineModel` names it. */
export interface FieldOptions {
  readonly kind: FieldKind;
  readonly label?: string;
  /** Must be given on create and PUT. */
  readonly required?: boolean;
  readonly nullable?: boolean;
  /** Empty string allowed (string kinds). */
  readonly blank?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly unique?: boolean;
  /** The message a duplicate gets, where NetBox words it otherwise than "<model> with this <field> already exists.". */
  readonly uniqueMessage?: string;
  readonly default?: unknown;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** For a decimal: digits allowed in all and after the point (Django's DecimalField). */
  readonly maxDigits?: number;
  readonly decimalPlaces?: number;
  readonly pattern?: { readonly regex: RegExp; readonly message: string };
  /** A further check of a non-empty string value; returns the error message, if any. */
  readonly check?: (value: string) => string | undefined;
  /** For `json`: a further check of a value other than null (JSON that must be an object); returns the error message, if any. */
  readonly checkJson?: (value: unknown) => string | undefined;
  readonly choices?: readonly Choice[];
  /** For `choice`: read as the bare value, not `{value, label}` (DRF's plain ChoiceField: `term_side`). */
  readonly bare?: boolean;
  /** For `fk`, `m2m` and `reverse`: the related model. */
  readonly target?: ModelName;
  /** For `generic`: the models the relation may point to. */
  readonly targets?: TargetsDeclaration;
  /**
   * What deleting the target does: refuse (protect), delete this row too (cascade), clear the
   * reference (setNull), or, for a generic relation that records history (a change record's
   * object), keep naming the object that is gone (keep).
   */
  readonly onDelete?: "protect" | "cascade" | "setNull" | "keep";
  readonly through?: Through;
  /** For m2m: the filter parameter naming it (`group` for `groups`; `tag` for tags, matched all-of). */
  readonly filterName?: string;
  /** For m2m filters: every listed value must match (tags), instead of any. */
  readonly matchAll?: boolean;
  /**
   * For m2m: the targets' field the set is written and read as, instead of ids and nested objects
   * (a config context lists its tags by slug).
   */
  readonly listedBy?: string;
  /** For `count`: the model counted and its fk field pointing here; cumulative walks a tree. */
  readonly countOf?: CountOfDeclaration;
  /** For `reverse`: which related row is shown. */
  readonly reverseOf?: ReverseOf;
  /**
   * For `computed`: the SQL giving its value, and how to read it (default: as SQLite gives it).
   * For a read-only `fk` without a column: the SQL giving the related object's id (`f.related`).
   */
  readonly sql?: RowSql;
  /**
   * Part of the brief form but left out when nested in another object (a module bay's
   * `installed_module`); `false` keeps a field whose kind is left out by default (a count NetBox
   * stores, such as a virtual chassis' `member_count`).
   */
  readonly notNested?: boolean;
  /**
   * For `fk` and `m2m`: the nested objects carry `display_url`, as NetBox 4.2's older `Nested*`
   * serializers give it (tags, a tree's `parent`, an address's `nat_inside`); its other nested
   * forms, like the brief form, do not.
   */
  readonly nestedDisplayUrl?: boolean;
  /** For `fk`: read as the bare id instead of the nested object (an inventory item's `parent`, as NetBox gives it). */
  readonly flat?: boolean;
  /**
   * How a computed value reads: as a boolean, as JSON, or as JSON in which every object carrying
   * `__type` (`app.model`) is that model's nested form (a cable's terminations, link peers); a
   * scalar as SQLite gives it, named for the OpenAPI document (`integer`, `number`, `string`).
   */
  readonly returns?: "boolean" | "json" | "nested" | "integer" | "number" | "string";
  /**
   * For a `computed` field returning nested objects: SQL giving only what it relates to, as JSON
   * `{"id": ...}` (one) or `[{"__type": "app.model", "id": ...}]` (several), for readers that read
   * each object again by its id (GraphQL), cheaper than the nested forms.
   */
  readonly refs?: RowSql;
  /**
   * For a `computed` field returning nested objects: SQL giving its value's final JSON (its nested
   * objects in the forms the serializer gives them, final-json.ts), or null where it cannot be
   * written so. Without it, JavaScript makes the value from `sql`'s.
   */
  readonly finalSql?: (table: string, scope: { readonly ownerType: string; readonly fc: FinalContext }) => RawBuilder<unknown> | null;
  /** For `computed`: a pure function from that value to the output (a config context's merge of its layers). */
  readonly finish?: (value: unknown) => unknown;
  /**
   * For `computed`: the outputs of a whole page from those `finish` gave, for SQL that computed a
   * value once for the page's rows (`SelectContext.page`) and gave it to one of them.
   */
  readonly finishPage?: (values: readonly unknown[]) => unknown[];
  /**
   * For `computed`: the key of one JSON object several fields share, computed once per row by
   * their common SQL (a cable path gives three fields); each field reads its member by name.
   */
  readonly sharedAs?: string;
  /** For `computed`: makes it writable with this schema; the model's hooks store the value. */
  readonly input?: GenericSchema;
  /**
   * Filters the field gives every model that declares it (`cabled`, `occupied`), by parameter
   * name; one given with `negatable` also takes `__n` (`cable_id__n`).
   */
  readonly filters?: Readonly<
    Record<string, FieldFilter | { readonly sql: FieldFilter; readonly negatable?: boolean; readonly boolean?: boolean }>
  >;
  /**
   * Statements a delete runs in its transaction once rows of the owning model are gone (directly
   * or by cascade), for data kept outside the model's table that points at them (cable ends).
   */
  readonly afterDelete?: (table: string, ownerType: string) => readonly RawBuilder<unknown>[];
  /** For `generic`: the key its nested object reads under, when not the field's name (an image attachment's `parent`). */
  readonly nestedAs?: string;
  /** For `alias`: the field this one mirrors (`device_role` mirrors `role`). */
  readonly aliasOf?: string;
  readonly helpText?: string;
  /** A datetime the engine sets: on create only, or on every write. */
  readonly autoNow?: "create" | "always";
  /**
   * For `network`: an IP address keeps its host bits (`10.0.0.5/24`, stored as that one host),
   * a prefix may not have any (stored as the range it covers).
   */
  readonly network?: "address" | "prefix";
  /** Stored column name, when it differs from the derived one; null: not stored (hooks handle it). */
  readonly column?: string | null;
}

/** A field of a defined model: named, and the models it relates to resolved. */
export interface Field extends Omit<FieldOptions, "target" | "targets" | "countOf"> {
  readonly target?: () => Model;
  readonly targets?: () => readonly Model[];
  readonly countOf?: CountOf;
  readonly name: string;
  /** `app.model` of the model that declares the field (an m2m through table shared by models). */
  readonly ownerType: string;
  /** The stored column, or null for m2m and computed fields. */
  readonly column: string | null;
  readonly label: string;
}

/** The applications under /api/, in the order the API root lists them. */
export const APPS = [
  "circuits",
  "core",
  "dcim",
  "extras",
  "ipam",
  "plugins",
  "tenancy",
  "users",
  "virtualization",
  "vpn",
  "wireless",
] as const;

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
  | {
      readonly sql: (values: readonly string[], table: string) => RawBuilder<unknown>;
      /** Its values are whole numbers: others are refused (NetBox's "Enter a whole number."), and documented as integers. */
      readonly integer?: boolean;
      /** Also takes `__n`: the rows the filter does not match (NetBox gives it to its multi-value filters). */
      readonly negatable?: boolean;
      /** A yes/no filter (`has_primary_ip`): GraphQL types it Boolean. */
      readonly boolean?: boolean;
      /**
       * How many rows the filter alone matches, as SQL reading a stored tally rather than counting
       * the rows (IP addresses by `parent`); null for values it has none for. A list counts with it
       * when it is the only filter and the requester sees every row.
       */
      readonly tally?: (values: readonly string[]) => RawBuilder<unknown> | null;
    }
  | ValuesFilter
  | RelatedFilter<Target>;

/**
 * A filter over values SQL finds for a row (a feed's available power, a device's MAC addresses):
 * `valuesOf` is a SELECT of them (as `value`; one row for a single value), compared with the
 * lookups of their family, as a field's are; a row matches when one of its values does.
 */
export interface ValuesFilter {
  readonly valuesOf: RowSql;
  readonly lookups: "text" | "number";
  /** A row may have several values (or none): `__empty` is not offered, as NetBox offers it only on one value. */
  readonly many?: boolean;
  /** The stored spelling of an exact value (a MAC address written in any of its forms). */
  readonly normal?: (value: string) => string;
}

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
  /** NetBox gives the model no page for people (assignments, component templates): its objects carry no `display_url`. */
  readonly pageless?: boolean;
  readonly fields: Record<string, FieldOptions>;
  /** Fields of the brief form; the nested form is the same less counts (id, url, display always). */
  readonly brief: readonly string[];
  /** `str(obj)`: a field name, or SQL over the row (default: `name`). */
  readonly display?: string | RowSql;
  /** Fields searched by `q` (icontains). */
  readonly search?: readonly string[];
  /** What `q` matches besides the text of `search` (a prefix: the prefixes holding the address searched for). */
  readonly searchAlso?: (q: string, table: string) => RawBuilder<unknown> | null;
  /** Default ordering; a leading `-` sorts descending. The id always breaks ties. */
  readonly ordering?: readonly string[];
  /**
   * Nullable fields of `ordering` whose empty values come first ascending (NetBox's prefixes and
   * ranges: the global table first). Every other nullable term sorts its empty values last
   * ascending and first descending, as NetBox's PostgreSQL does.
   */
  readonly nullsFirst?: readonly string[];
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
  /**
   * The nested form where a relation nests with NetBox's older `Nested*` serializers (those with
   * `display_url`: tags, a tree's parent, an interface's LAG...): the nested fields but its description.
   */
  readonly pageNestedFields: readonly Field[];
  readonly search: readonly string[];
  readonly ordering: readonly string[];
  readonly routes: readonly RouteDeclaration[];
  /** `display` as SQL over a row read under `table`. */
  displaySql(table: string): RawBuilder<unknown>;
}

/** The frozen set of models the service serves, with the lookups the engine needs. */
export interface Registry {
  readonly models: readonly Model[];
  /** A model by its API path: `("dcim", "sites")`. */
  byPath(app: string, path: string): Model | undefined;
  /** A model by `app.model`. */
  byObjectType(objectType: string): Model | undefined;
  /** A model by `app.model` that must be there (a rule naming a model of its own app). */
  get(objectType: string): Model;
  /** The models of one app, sorted by path, as the app root lists them. */
  app(app: AppName): readonly Model[];
  /** Every field in the registry that can point at `model`: its fks and the generic relations that may name it. */
  referencesTo(model: Model): readonly { model: Model; field: Model["fields"][number] }[];
}

/**
 * What a declared route's handler is given: the requester as an actor, the request's method, its
 * URL (for the route's query parameters and page links) and its body read as JSON (415 for
 * another type, 400 for bad JSON, undefined when empty).
 */
export interface RouteContext extends Actor {
  readonly method: string;
  readonly url: URL;
  readonly json: () => Promise<unknown>;
}

/**
 * An endpoint a model declares beyond list and detail: below the list (`/api/users/tokens/provision/`)
 * or below one object (`/api/ipam/prefixes/<id>/available-ips/`). The pipeline serves it like any
 * other: request id, host check, authentication, the declared permission, errors, headers, OPTIONS.
 */
export interface RouteDeclaration {
  /** The URL segment: "provision", "available-ips", "trace". */
  readonly name: string;
  /** True below an object (`<id>/name/`), false below the list (`name/`). */
  readonly detail: boolean;
  /**
   * A list route served at the app's root instead (`/api/dcim/connected-device/`, NetBox's), and
   * listed there; only there.
   */
  readonly atAppRoot?: boolean;
  readonly methods: readonly string[];
  /**
   * The model permission checked before the handler runs, per method; null lets anonymous
   * requests in (token provisioning checks credentials itself).
   */
  readonly permission: ((method: string) => Action) | null;
  /** What the route does, for the OpenAPI document. */
  readonly summary?: string;
  /** Query parameters the route reads, for the OpenAPI document (`peer_device` of `connected-device`). */
  readonly query?: readonly { readonly name: string; readonly description: string; readonly required?: boolean }[];
  /** GET answers a list (`available-ips`), not one object (`trace`): the operation id ends in `_list`. */
  readonly lists?: boolean;
  /** POST creates objects and answers 201. */
  readonly creates?: boolean;
  /**
   * The route's bodies for the OpenAPI document, by method (`GET`, `POST`): what it takes and
   * what it answers on success, as JSON Schema (`ref("IPAddress")` names a component). A method
   * left out is documented as taking and giving any JSON.
   */
  readonly bodies?: Readonly<Record<string, RouteBodies>>;
  /** Answers the request; `id` is the object's id for detail routes. */
  handler(ctx: RouteContext, model: Model, id: number | null): Promise<Response>;
}

/** One method's bodies of a declared route. */
export interface RouteBodies {
  readonly request?: JsonSchema;
  readonly response?: JsonSchema;
}

/** One method of an app path: what the OpenAPI document says of it. */
export interface AppOperation {
  readonly summary: string;
  readonly request?: JsonSchema;
  readonly response?: JsonSchema;
  /** The success status (default 200; 204 answers no body). */
  readonly status?: number;
}

/**
 * A path an app serves that no model backs (the requester's dashboard, scripts, background
 * queues, workers and tasks over the webhook queue): its own methods, items by key below it and
 * POST actions on an item. The pipeline serves it (host, authentication, errors, headers, a 405
 * naming what is allowed), lists it in the app's root and documents it; its handler checks who
 * may call it.
 */
export interface AppPath {
  readonly app: AppName;
  /** The URL segment below the app: "background-tasks". */
  readonly path: string;
  /** The methods of the path itself. */
  readonly operations: Readonly<Record<string, AppOperation>>;
  /** `<path>/<key>/`: its methods, and the key's name and schema (default: a numeric `id`). */
  readonly item?: {
    readonly key?: { readonly name: string; readonly schema: JsonSchema };
    readonly operations: Readonly<Record<string, AppOperation>>;
  };
  /** POST actions on an item (`<key>/requeue/`), by name. */
  readonly actions?: Readonly<Record<string, AppOperation>>;
  /** The detail of a 405, when there is more to say than what is allowed (scripts: none are run here). */
  readonly refusal?: string;
  /** Answers a request to the path (`key` null), to an item, or to an item's `action`. */
  handler(ctx: RouteContext, at: { readonly key: string | null; readonly action?: string }): Promise<Response>;
}

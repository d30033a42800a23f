import type { RawBuilder } from "kysely";
import type { GenericSchema } from "valibot";
import type { SelectContext } from "./kinds/descriptor.ts";
import type { Model } from "./model.ts";

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
  | { readonly model: ModelName; readonly field: string; readonly cumulative?: boolean }
  | { readonly table: string; readonly column: string }
  | { readonly sql: RowSql };

/** What a `count` field counts, its model resolved. */
export type CountOf =
  | { readonly model: () => Model; readonly field: string; readonly cumulative?: boolean }
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
  /** Part of the brief form but left out when nested in another object (a module bay's `installed_module`). */
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
  /** For `computed`: a pure function from that value to the output (a config context's merge of its layers). */
  readonly finish?: (value: unknown) => unknown;
  /**
   * For `computed`: the key of one JSON object several fields share, computed once per row by
   * their common SQL (a cable path gives three fields); each field reads its member by name.
   */
  readonly sharedAs?: string;
  /** For `computed`: makes it writable with this schema; the model's hooks store the value. */
  readonly input?: GenericSchema;
  /** Filters the field gives every model that declares it (`cabled`, `occupied`), by parameter name. */
  readonly filters?: Readonly<Record<string, FieldFilter>>;
  /**
   * Statements a delete runs in its transaction once rows of the owning model are gone (directly
   * or by cascade), for data kept outside the model's table that points at them (cable ends).
   */
  readonly afterDelete?: (table: string, ownerType: string) => readonly RawBuilder<unknown>[];
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

/** A declared field with its name and column resolved. */
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

const SLUG = { regex: /^[-a-zA-Z0-9_]+$/, message: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.' };

type Opts = Omit<FieldOptions, "kind">;

/** Field builders: the vocabulary of model declarations. */
export const f = {
  /** A short string; required unless `blank` (then it defaults to ""). */
  string: (o: Opts & { maxLength: number }): FieldOptions => ({
    kind: "string",
    required: !o.blank && !o.nullable && o.default === undefined,
    default: o.blank ? "" : undefined,
    ...o,
  }),
  /** Long free text (comments), blank allowed. */
  text: (o: Opts = {}): FieldOptions => ({ kind: "text", blank: true, default: "", ...o }),
  slug: (o: Opts = {}): FieldOptions => ({ kind: "slug", required: true, maxLength: 100, pattern: SLUG, ...o }),
  integer: (o: Opts = {}): FieldOptions => ({ kind: "integer", ...o }),
  float: (o: Opts = {}): FieldOptions => ({ kind: "float", ...o }),
  /** A fixed-point number (`vcpus`, a rack unit): stored as REAL, written with at most these digits. */
  decimal: (o: Opts & { maxDigits: number; decimalPlaces: number }): FieldOptions => ({ kind: "float", ...o }),
  boolean: (o: Opts & { default: boolean }): FieldOptions => ({ kind: "boolean", ...o }),
  /** A choice; blank-able choices (`nullable`) store NULL for "" and null, and read as null. */
  choice: (choices: readonly Choice[], o: Opts = {}): FieldOptions => ({
    kind: "choice",
    choices,
    required: o.default === undefined && !o.nullable,
    ...o,
  }),
  /** A calendar date, `YYYY-MM-DD`. */
  date: (o: Opts = {}): FieldOptions => ({ kind: "date", ...o }),
  datetime: (o: Opts = {}): FieldOptions => ({ kind: "datetime", ...o }),
  json: (o: Opts = {}): FieldOptions => ({ kind: "json", ...o }),
  /** A list of strings stored as JSON (object types). */
  stringList: (o: Opts = {}): FieldOptions => ({ kind: "stringList", default: [], ...o }),
  /** A list of integers stored as JSON, each within `min` and `max` (a rack reservation's units). */
  integerList: (o: Opts = {}): FieldOptions => ({ kind: "integerList", required: true, ...o }),
  /** A list of IP networks stored as JSON (token `allowed_ips`). */
  ipList: (o: Opts = {}): FieldOptions => ({ kind: "ipList", default: [], ...o }),
  fk: (target: ModelName, o: Opts = {}): FieldOptions => ({
    kind: "fk",
    target,
    onDelete: o.nullable ? "setNull" : "protect",
    required: !o.nullable,
    ...o,
  }),
  m2m: (target: ModelName, through: Through, o: Opts = {}): FieldOptions => ({ kind: "m2m", target, through, default: [], ...o }),
  /**
   * A generic relation named `<name>`: written as `<name>_type` (`app.model`) and `<name>_id`, read
   * as those two plus the nested `<name>` object (`assigned_object`, `scope`, `termination`).
   */
  generic: (targets: TargetsDeclaration, o: Opts = {}): FieldOptions => ({ kind: "generic", targets, required: !o.nullable, ...o }),
  /**
   * A read-only list of the rows of `target` (stored in `table`) whose `column` points here (a
   * provider's accounts), or whose generic relation does when `typeColumn` names its type column
   * (a circuit's group assignments): an m2m whose link table is the target's own.
   */
  reverseList: (target: ModelName, table: string, column: string, o: Opts & { typeColumn?: string } = {}): FieldOptions => {
    const { typeColumn, ...rest } = o;
    const through: Through = { table, source: column, target: "id", ...(typeColumn ? { objectTypeColumn: typeColumn } : {}) };
    return { kind: "m2m", target, through, readOnly: true, default: [], ...rest };
  },
  /**
   * A read-only related object whose id SQL finds from the row, for a relation stored on the other
   * side (a device's `parent_device`: the device of the bay holding it; a bay's `installed_module`).
   */
  related: (target: ModelName, sql: RowSql, o: Opts = {}): FieldOptions => ({
    kind: "fk",
    target,
    sql,
    column: null,
    readOnly: true,
    nullable: true,
    onDelete: "setNull",
    ...o,
  }),
  /** A read-only count of `model` rows whose `field` points here. */
  count: (model: ModelName, field: string, o: Opts & { cumulative?: boolean } = {}): FieldOptions => ({
    kind: "count",
    readOnly: true,
    countOf: { model, field, cumulative: o.cumulative },
    ...o,
  }),
  /** A read-only count of through-table rows whose `column` points here. */
  countRows: (table: string, column: string, o: Opts = {}): FieldOptions => ({
    kind: "count",
    readOnly: true,
    countOf: { table, column },
    ...o,
  }),
  /** A read-only count given by SQL over the row, for what no fk or through table says (circuits at a site). */
  countSql: (sql: RowSql, o: Opts = {}): FieldOptions => ({ kind: "count", readOnly: true, countOf: { sql }, ...o }),
  /**
   * A read-only nested object: the one row of `target` whose fk `field` points here and whose
   * columns equal `where` (a circuit's `termination_a`: its termination on side A), or null.
   */
  reverse: (target: ModelName, of: ReverseOf, o: Opts = {}): FieldOptions => ({
    kind: "reverse",
    readOnly: true,
    nullable: true,
    target,
    reverseOf: of,
    ...o,
  }),
  /** A read-only value computed in SQL from the row (`display_name`, `_occupied`). */
  computed: (sql: RowSql, o: Opts = {}): FieldOptions => ({ kind: "computed", readOnly: true, sql, ...o }),
  /** Another name for a field, accepted on write and returned on read (`device_role` for `role`). */
  alias: (of: string, o: Opts = {}): FieldOptions => ({ kind: "alias", aliasOf: of, ...o }),
  /**
   * An IP address or prefix with its mask (`10.0.0.5/24`): stored as text plus sortable start and
   * end keys and the mask length (`src/lib/network.ts`), so containment is a range scan.
   */
  network: (network: "address" | "prefix", o: Opts = {}): FieldOptions => ({ kind: "network", network, required: !o.nullable, ...o }),
  /** A write-only secret stored as a hash (user passwords). */
  password: (o: Opts = {}): FieldOptions => ({ kind: "password", writeOnly: true, maxLength: 128, ...o }),
};

/** The display label DRF derives from a field name: `time_zone` -> "Time zone". */
export function labelOf(name: string): string {
  const words = name.replace(/^_/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

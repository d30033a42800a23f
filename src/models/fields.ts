import type { RawBuilder } from "kysely";
import type { Model } from "./model.ts";

/** One option of a choice field; `id` is the legacy numeric id some clients still read. */
export interface Choice {
  readonly value: string | number;
  readonly label: string;
  readonly id?: number;
  /** Other spellings accepted on write and in filters (a VLAN's status 1 also as "active"). */
  readonly accepts?: readonly (string | number)[];
}

/** The kinds of field a model can declare; `src/models/kinds.ts` says what each derives. */
export type FieldKind =
  | "string" | "text" | "slug" | "integer" | "float" | "boolean" | "choice" | "datetime"
  | "json" | "customFields" | "stringList" | "ipList" | "fk" | "m2m" | "generic" | "count"
  | "computed" | "alias" | "password" | "network";

/** How an m2m field is stored: a through table, optionally shared by models (tags). */
export interface Through {
  readonly table: string;
  readonly source: string;
  readonly target: string;
  /** Column holding `app.model` when one through table serves several models. */
  readonly objectTypeColumn?: string;
}

/** What a `count` field counts: rows of a model whose fk points here, or rows of a through table. */
export type CountOf =
  | { readonly model: () => Model; readonly field: string; readonly cumulative?: boolean }
  | { readonly table: string; readonly column: string };

/** SQL over a row of the model, given the table name or alias the row is read under. */
export type RowSql = (table: string) => RawBuilder<unknown>;

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
  readonly pattern?: { readonly regex: RegExp; readonly message: string };
  /** A further check of a non-empty string value; returns the error message, if any. */
  readonly check?: (value: string) => string | undefined;
  /** For `json`: a further check of a value other than null (JSON that must be an object); returns the error message, if any. */
  readonly checkJson?: (value: unknown) => string | undefined;
  readonly choices?: readonly Choice[];
  readonly target?: () => Model;
  /** For `generic`: the models the relation may point to. */
  readonly targets?: () => readonly Model[];
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
  readonly countOf?: CountOf;
  /** For `computed`: the SQL giving its value, and how to read it (default: as SQLite gives it). */
  readonly sql?: RowSql;
  readonly returns?: "boolean" | "json";
  /** For `computed`: a pure function from that value to the output (a config context's merge of its layers). */
  readonly finish?: (value: unknown) => unknown;
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
export interface Field extends FieldOptions {
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
  string: (o: Opts & { maxLength: number }): FieldOptions =>
    ({ kind: "string", required: !o.blank && !o.nullable && o.default === undefined, default: o.blank ? "" : undefined, ...o }),
  /** Long free text (comments), blank allowed. */
  text: (o: Opts = {}): FieldOptions => ({ kind: "text", blank: true, default: "", ...o }),
  slug: (o: Opts = {}): FieldOptions => ({ kind: "slug", required: true, maxLength: 100, pattern: SLUG, ...o }),
  integer: (o: Opts = {}): FieldOptions => ({ kind: "integer", ...o }),
  float: (o: Opts = {}): FieldOptions => ({ kind: "float", ...o }),
  boolean: (o: Opts & { default: boolean }): FieldOptions => ({ kind: "boolean", ...o }),
  /** A choice; blank-able choices (`nullable`) store NULL for "" and null, and read as null. */
  choice: (choices: readonly Choice[], o: Opts = {}): FieldOptions =>
    ({ kind: "choice", choices, required: o.default === undefined && !o.nullable, ...o }),
  datetime: (o: Opts = {}): FieldOptions => ({ kind: "datetime", ...o }),
  json: (o: Opts = {}): FieldOptions => ({ kind: "json", ...o }),
  /** A list of strings stored as JSON (object types). */
  stringList: (o: Opts = {}): FieldOptions => ({ kind: "stringList", default: [], ...o }),
  /** A list of IP networks stored as JSON (token `allowed_ips`). */
  ipList: (o: Opts = {}): FieldOptions => ({ kind: "ipList", default: [], ...o }),
  fk: (target: () => Model, o: Opts = {}): FieldOptions =>
    ({ kind: "fk", target, onDelete: o.nullable ? "setNull" : "protect", required: !o.nullable, ...o }),
  m2m: (target: () => Model, through: Through, o: Opts = {}): FieldOptions =>
    ({ kind: "m2m", target, through, default: [], ...o }),
  /**
   * A generic relation named `<name>`: written as `<name>_type` (`app.model`) and `<name>_id`, read
   * as those two plus the nested `<name>` object (`assigned_object`, `scope`, `termination`).
   */
  generic: (targets: () => readonly Model[], o: Opts = {}): FieldOptions =>
    ({ kind: "generic", targets, required: !o.nullable, ...o }),
  /** A read-only count of `model` rows whose `field` points here. */
  count: (model: () => Model, field: string, o: Opts & { cumulative?: boolean } = {}): FieldOptions =>
    ({ kind: "count", readOnly: true, countOf: { model, field, cumulative: o.cumulative }, ...o }),
  /** A read-only count of through-table rows whose `column` points here. */
  countRows: (table: string, column: string, o: Opts = {}): FieldOptions =>
    ({ kind: "count", readOnly: true, countOf: { table, column }, ...o }),
  /** A read-only value computed in SQL from the row (`display_name`, `_occupied`). */
  computed: (sql: RowSql, o: Opts = {}): FieldOptions => ({ kind: "computed", readOnly: true, sql, ...o }),
  /** Another name for a field, accepted on write and returned on read (`device_role` for `role`). */
  alias: (of: string, o: Opts = {}): FieldOptions => ({ kind: "alias", aliasOf: of, ...o }),
  /**
   * An IP address or prefix with its mask (`10.0.0.5/24`): stored as text plus sortable start and
   * end keys and the mask length (`src/ipam/network.ts`), so containment is a range scan.
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

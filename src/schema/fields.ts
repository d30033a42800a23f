import type { Choice, FieldOptions, ModelName, ReverseOf, RowSql, TargetsDeclaration, Through } from "./shapes.ts";

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
  /**
   * A read-only count of `model` rows whose `field` points here, kept in a column of its own by
   * triggers: NetBox's counter caches (a device's component counts), which it stores too.
   * `annotated`: a count NetBox computes as it reads (a site's `device_count`), kept here only so
   * that a page reads a column instead of counting; change records leave it out, as NetBox's do.
   */
  counter: (model: ModelName, field: string, o: Opts & { annotated?: boolean } = {}): FieldOptions => {
    const { annotated, ...rest } = o;
    return { kind: "counter", readOnly: true, default: 0, countOf: { model, field, annotated }, ...rest };
  },
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
  // As Django labels a field, `_depth` too (" depth").
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

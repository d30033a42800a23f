import type { Field, FieldKind, FinalContext, Form, JsonSchema, Model, NestedShown, SelectContext } from "../shapes.ts";
import type * as v from "valibot";
import type { RawBuilder } from "kysely";
import type { OpenApiFacet } from "../json-schema.ts";

/**
 * THE FIELD KINDS. One descriptor per kind says everything the engine derives from a field: its
 * stored columns and their DDL, its input schema, how a validated value is stored, what a read
 * selects beyond the stored columns, its output in each form, its filters and how a lookup path
 * walks it, the references a write names, what a delete does to it, its OPTIONS and OpenAPI types
 * and its change-record snapshot. Callers ask the descriptor instead of testing the kind. What only
 * some kinds do is grouped in facets (storage, input, references, walk, deletion, filter, read),
 * each present as a whole or absent, so a reader sees which members go together. Adding a
 * kind is one descriptor in this folder, one entry in `KINDS` (index.ts) and a builder in fields.ts.
 * This file holds the descriptor's shape and the types it names; the kinds' files hold the
 * descriptors, index.ts assembles them.
 */

export type Out = Record<string, unknown>;
export type Sql = RawBuilder<unknown>;

/** A related reference as the client named it: by id, or by attributes that must match one. */
export type Ref = { readonly ref: "id"; readonly id: number } | { readonly ref: "attrs"; readonly attrs: Record<string, unknown> };
export const isRef = (x: unknown): x is Ref => typeof x === "object" && x !== null && "ref" in x;

/** A generic relation as written: `{type: "dcim.interface", id: 4}`, or null. */
export interface GenericRef {
  readonly type: string;
  readonly id: number;
}

/** A filter parameter a field gives: compared as the field, or matching the relation's targets by key or by id. */
export type FilterParam =
  | { readonly name: string; readonly field: Field }
  | { readonly name: string; readonly relation: Field; readonly byId: boolean; readonly tree: boolean };

/**
 * Where a walk reads a relation's targets from: the row under `table` when `owners` is null, else
 * the rows of `owner` whose ids `owners` selects, under `alias`.
 */
export interface WalkFrom {
  readonly owner: Model;
  readonly alias: string;
  readonly table: string;
  readonly owners: Sql | null;
}

/** Which filter lookups a kind supports. */
export type LookupFamily = "text" | "number" | "boolean" | "choice" | "relation" | null;

/** What `render` may ask of the serializer: the nested form of a related object. */
export interface RenderContext {
  readonly form: Form;
  /** The nested form of a related object (or the fields named, for `reverse`), with `display_url` when `page`. */
  nested(model: Model, raw: Out, shown?: NestedShown): Out;
  /** The nested form of an object of the registered model `app.model`, or null if there is none. */
  nestedOf(objectType: string, raw: Out): Out | null;
}

export type SqlType = "TEXT" | "INTEGER" | "REAL";

/** Storage: the columns a field of the kind keeps in its model's table, and their DDL. */
export interface StorageFacet {
  /** The SQL type of the field's own column; null when the kind stores no column of its own. */
  readonly sqlType: SqlType | null;
  /** The column's name for a field named `name` (default: the name itself). */
  column?(name: string): string;
  /** Stored columns beyond one of its own (a generic relation's type and id), with their types. */
  columns?(field: Field): readonly (readonly [string, SqlType])[];
  /** Uniqueness: stored columns that each hold one part of a value (a generic relation's `type` and `id`). */
  valueColumns?(field: Field): readonly (readonly [column: string, part: string])[];
  /** DDL: the column's SQL type when the field decides it (a choice of numbers is INTEGER). */
  sqlTypeOf?(field: Field): SqlType;
  /** DDL: the column declares no NOT NULL, whatever the field says. */
  readonly nullableColumn?: boolean;
  /** DDL: what follows the column's declaration (an fk's `REFERENCES ... ON DELETE ...`). */
  constraint?(field: Field): string;
  /** DDL: the index of a field with one column, named `<table>_<name>` (several columns are indexed together by default). */
  index?(field: Field): { readonly name: string; readonly columns: readonly string[] } | null;
  /** DDL: tables a field creates beside its model's own (an m2m's through table). */
  tables?(field: Field, model: Model): string[];
}

/** Input: how clients write a field of the kind, and how a validated value is stored. */
export interface InputFacet {
  /** Input keys and their schemas. */
  inputs(field: Field): Record<string, v.GenericSchema>;
  /** Gathers a value written under several keys (generic relations: `_type` and `_id`). */
  collect?(field: Field, parsed: Out): { value?: unknown; errors?: Record<string, string[]> };
  /** Stored columns of a validated value (none for a value stored by other means: a link table, a hook). */
  store?(field: Field, value: unknown, columns: Map<string, unknown>): void;
  /** The field is stored in a link table, written after its row (an m2m set). */
  readonly linked?: boolean;
}

/** References: the related objects a written value names, found (or reported missing) before a write. */
export interface ReferencesFacet {
  /** The related objects a written value names, each with the model it names it in. */
  referencesIn(field: Field, value: unknown): readonly { readonly target: Model; readonly ref: Ref }[];
  /**
   * Replaces the references in `values[field.name]` by the ids `resolve` finds (it reports those
   * it does not find, and gives undefined for them).
   */
  resolveReferences(field: Field, values: Out, resolve: (target: Model, ref: Ref) => number | undefined): void;
  /** The input key a field's reference errors are reported under, when not its name (a generic relation's `_id`). */
  errorKey?(field: Field): string;
  /** Uniqueness: the model a value of the field references, when it is one reference (an fk's target). */
  singleTarget?(field: Field): Model;
}

/** Walking: how relation filters and lookup paths (`site__region__slug`, config-context paths) reach the field's targets. */
export interface WalkFacet {
  /** Whether a lookup path walks through the field to its target. */
  walks(field: Field): boolean;
  /**
   * A SELECT of the ids of the targets the field reaches, from the row under `table` when
   * `owners` is null, else from the rows of `owner` whose ids `owners` selects (under `alias`).
   */
  targetIds(field: Field, from: WalkFrom): Sql;
  /** The rows under `alias` whose relation points into `ids` (a parenthesised list or subquery of target ids). */
  matchIds(field: Field, alias: string, ids: Sql): Sql;
  /** The rows under `alias` whose relation points nowhere. */
  matchNone(field: Field, alias: string): Sql;
  /** The target field a relation's filter values name (default: the target's natural key). */
  filterKey?(field: Field, target: Model): string;
}

/** Deletion: what deleting a row a field of the kind points at does to the rows holding the field. */
export interface DeletionFacet {
  /** Whether the field holds references to rows of `target` (which a delete of them must protect, cascade or clear). */
  pointsAt(field: Field, target: Model): boolean;
  /** A condition on the rows of the field's model that point at `ids` of `target`. */
  pointingAt(field: Field, target: Model, ids: Sql): Sql;
  /** The column holding the id of the row the field points at. */
  idColumn(field: Field): string;
  /** Whether rows pointing at a deleted row are deleted with it. */
  cascades(field: Field): boolean;
  /** Whether the field is set to NULL, and the change recorded, before the row it points at goes. */
  setsNull(field: Field): boolean;
  /** Whether the field is tidied after the delete (cleared, or its row removed), no foreign key guarding it. */
  tidiedAfterDelete(field: Field): boolean;
}

/** Filtering: the filters a field of the kind gives and how their values are compared. */
export interface FilterFacet {
  /** The lookups the field's own filter takes; null when it is filtered only by the parameters it gives. */
  readonly lookups: LookupFamily;
  /** The parameters the field gives, in place of one of its name (a relation's by key and by id). */
  params?(field: Field, model: Model): readonly FilterParam[];
  /** What a filter compares for a kind with no column of its own (a count), as SQL over the row. */
  sql?(field: Field, table: string): Sql;
  /** What a number lookup's values must be, when not any number. */
  readonly numberFormat?: "integer" | "date";
  /** OpenAPI: the schema of a number lookup's values, when not any number. */
  readonly numberSchema?: JsonSchema;
}

/** Reading by SQL: what a read selects for a field of the kind beyond its stored columns. */
export interface ReadFacet {
  /** The SQL selected for the field (aliased as the field name), or null when there is none to select. */
  select(field: Field, table: string, sc: SelectContext): Sql | null;
  /** Reads another row (nested); such reads stop at the nesting limit. */
  readonly related?: boolean;
  /** Left out of the nested form (counts, m2m sets), though part of the brief one. */
  readonly notNested?: boolean;
}

/**
 * A kind's descriptor: the members every kind has, and facets each present as a whole where the
 * kind has that behaviour (a facet's required members are those every kind having it provides).
 */
export interface KindDescriptor {
  /** Stored columns and DDL; absent for kinds read by SQL or through another field (count, computed, reverse, alias). */
  readonly storage?: StorageFacet;
  /** Writing; absent when clients cannot write the kind. */
  readonly input?: InputFacet;
  /** Written references to related objects (fk, m2m, generic). */
  readonly references?: ReferencesFacet;
  /** Walked by relation filters and lookup paths (fk, m2m). */
  readonly walk?: WalkFacet;
  /** Protected, cascaded or cleared when what it points at is deleted (fk, generic). */
  readonly deletion?: DeletionFacet;
  /** Filters; absent when the field gives none. */
  readonly filter?: FilterFacet;
  /** Selected by SQL beyond the stored columns (relations, counts, computed values, custom fields). */
  readonly read?: ReadFacet;
  /** What sorting by the field sorts by, when not its own column (an address by its numeric key). */
  order?(field: Field, table: string): Sql[];
  /** The field another name stands for (an alias): read, written and filtered as that one. */
  mirrors?(field: Field): string;
  /** Writes the field's output keys from a row (or a nested JSON object). */
  render(field: Field, row: Out, out: Out, rc: RenderContext): void;
  /**
   * The field's output keys as SQL writes them, each the final JSON value `render` would give
   * (src/engine/final-json.ts), over the row under `table`; none for a field it leaves out; null
   * when the kind, or this field, has no such form, and the object is shaped by `render`.
   */
  final?(field: Field, table: string, fc: FinalContext): [string, Sql][] | null;
  /** OPTIONS entries (DRF metadata) by key. */
  options(field: Field): Record<string, Out>;
  /** OpenAPI schemas of its output keys (per form) and input keys. */
  readonly openapi: OpenApiFacet;
  /** Change-record snapshot entries, as SQL over the stored row. */
  snapshot(field: Field, table: string): [string, Sql][];
}

/** The descriptor of a kind, for a kind whose behaviour asks another kind's (an alias's, a nested object's fields). */
export type KindOf = (kind: FieldKind) => KindDescriptor;

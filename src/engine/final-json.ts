import type { FinalContext, Field, Form, Model, NestedShown, Registry } from "../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { KINDS, selectKey } from "../schema/kinds/index.ts";
import { madeInJavaScript } from "../schema/kinds/computed.ts";
import { MAX_NESTING } from "../schema/kinds/limits.ts";
import { frozen, qb, Slot } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { fieldsKey, Joins, jsonObjectSql, PAGE_IDS, selectContext } from "./select.ts";
import { renderedFields } from "./serialize.ts";
import type { Actor } from "../schema/actor.ts";
import { PAGE_TEXT, type Row } from "../db/database.ts";

type Sql = RawBuilder<unknown>;

/*
 * Objects written whole by SQLite: the JSON text of each object of a page exactly as the
 * serializer (serialize.ts) would shape it from the row, with this request's URLs, so that the
 * answer is joined from the rows' text and nothing is parsed, shaped and serialized again. On a
 * page of 50 sites, parsing the rows, shaping them and serializing the page took 275 of its 630 us,
 * and SQLite writing the final text cost 1.26x what writing the raw rows did (497 against 393 us;
 * measured). For a page of 50 devices, whose 17 nested objects each get their URL and forms, the
 * whole request went from 3.35 to 2.22 ms of CPU (in-process, interleaved rounds): a model's form
 * that qualifies is written so whatever its weight.
 *
 * A model qualifies for a form when each of its fields' kinds can write its value (`final`) or is
 * a hole JavaScript fills (`isHole`), and its representation has no hook (`represent`) or one
 * that says what it does as SQL (`representFinal`): the others are shaped by serialize.ts. test/final-json.test.ts holds the two to the same JSON
 * for every model that qualifies.
 */

/** This request's origin, a parameter each statement is bound with (`Template.bind({ origin })`). */
const ORIGIN = new Slot("origin");

/** What writing one object needs besides the row: its nesting and how its `display_url`s go. */
interface Level {
  readonly form: Form;
  readonly depth: number;
  /** Inside an object nested with its page (`NestedShown.page`): what it nests carries theirs too. */
  readonly pages: boolean;
  readonly customFields: boolean;
  /** Top-level foreign keys read through the statement's joins (a list page's), else null. */
  readonly joins: Joins | null;
  /**
   * A list page's related objects written once each (`sharedObject`): the CTEs that hold them,
   * added to as the object's relations are written; null elsewhere.
   */
  readonly shared?: Sql[] | null;
}

const url = (path: Sql): Sql => sql`${ORIGIN} || ${path}`;

/**
 * The final JSON of the row of `model` under `alias` with `fields` (JSON text at the top, JSONB
 * nested), or null when one of them cannot be written so.
 */
function objectSql(model: Model, fields: readonly Field[], alias: string, level: Level): Sql | null {
  const written = members(model, fields, alias, level, false);
  return written && jsonObjectSql(written as [string, Sql][], level.depth === 0 ? "json" : "jsonb");
}

/** A member of a final object: its key and value, or a field left to JavaScript (`isHole`). */
type Member = readonly [string, Sql] | Field;

/**
 * A field of the object read (depth 0) whose value JavaScript makes from what its SQL gave: a
 * config context (merged over the page), a port's cable, link peers and connection (nested forms
 * of models named at run time, from a value several fields share). Its raw value is selected
 * beside the text, which is written in parts around it, and `finalTexts` puts the value in.
 */
const isHole = (field: Field) => field.kind === "computed" && madeInJavaScript(field);

/** The members of the final JSON of the row under `alias`, in the serializer's order, or null when one cannot be written so. */
function members(model: Model, fields: readonly Field[], alias: string, level: Level, holes: boolean): Member[] | null {
  // A `represent` hook sees the page's own objects only (serialize.ts): a nested object of its model is shaped without it.
  const hooks = level.depth === 0 ? model.hooks : undefined;
  if (hooks?.represent && !hooks.representFinal) return null;
  const id = sql.ref(`${alias}.id`);
  const out: Member[] = [
    ["id", id],
    ["url", url(sql`${sql.lit(`/api/${model.app}/${model.path}/`)} || ${id} || '/'`)],
  ];
  if ((level.form === "full" || level.pages) && !model.pageless)
    out.push(["display_url", url(sql`${sql.lit(model.page)} || ${id} || '/'`)]);
  // `display` is text even where the object's display is its id.
  out.push(["display", sql`CAST(coalesce(${model.displaySql(alias)}, ${id}) AS TEXT)`]);
  const fc = context(level, model.registry);
  for (const field of fields) {
    if (holes && isHole(field)) {
      out.push(field);
      continue;
    }
    const written = KINDS[field.kind].final?.(field, alias, fc);
    if (!written) return null;
    out.push(...written);
  }
  if (hooks?.representFinal) {
    const pairs = out.filter((m): m is [string, Sql] => Array.isArray(m));
    out.push(...hooks.representFinal(new Map(pairs)));
  }
  // A field writing a key the object already has is shaped in place by the serializer: not here.
  const keys = out.map((m) => (Array.isArray(m) ? m[0] : (m as Field).name));
  if (new Set(keys).size !== keys.length) return null;
  return out;
}

/**
 * The nested form of the object a list page's row names by the column `id`, written once for the
 * page: the page's CTE holds each row's id there (`Joins.share`, `pageColumns`), a CTE of its own
 * the final JSON of each distinct object the page names, and each row looks its object up there.
 * Written per row through a join, a page of 50 devices' 14 relations cost its statement 1.81-1.85
 * ms against 1.04-1.19 for the raw rows. Null when `id` is not a plain column.
 */
function sharedObject(
  joins: Joins,
  ctes: Sql[],
  target: Model,
  id: Sql,
  shown: NestedShown,
  nested: (target: Model, alias: string, shown: NestedShown) => Sql | null,
): Sql | null {
  const key = `final ${id.compile(qb).sql} ${target.objectType} ${shown.page ?? ""} ${shown.fields ? fieldsKey(shown.fields) : ""}`;
  // A row without the relation skips the lookup: most of a page's relations are often empty (a
  // device's platform, cluster, rack, chassis, IPs; a port's module, parent, LAG, VLANs), and the
  // guard took a page of 50 devices' statement from 1.40 to 1.21 ms (medians, interleaved).
  const lookup = (i: number) => sql`CASE WHEN ${id} IS NULL THEN NULL ELSE (SELECT j FROM ${sql.raw(`__f${i}`)} WHERE id = ${id}) END`;
  const known = [...joins.shared.keys()].indexOf(key);
  if (known >= 0) return lookup(known);
  const i = joins.shared.size;
  const alias = `s${i}`;
  const object = nested(target, alias, shown);
  if (!object || !joins.share(key, target, id)) return null;
  const ref = sql.ref(`${alias}.id`);
  ctes.push(sql`${sql.raw(`__f${i}`)} AS MATERIALIZED (SELECT ${ref} AS id, ${object} AS j FROM ${sql.table(target.table)} ${sql.raw(alias)}
    WHERE ${ref} IN (SELECT ${sql.raw(`k${i}`)} FROM ${sql.raw(PAGE_IDS)}))`);
  return lookup(i);
}

function context(level: Level, registry: Registry): FinalContext {
  const nested = (target: Model, alias: string, shown: NestedShown): Sql | null => {
    // As serialize.ts: inside an object nested with its page, relations nest with theirs unless they say not.
    const page = level.pages ? shown.page !== false : Boolean(shown.page);
    const fields = shown.fields ?? (page ? target.pageNestedFields : target.nestedFields);
    return objectSql(target, fields, alias, { form: "nested", depth: level.depth + 1, pages: page, customFields: true, joins: null });
  };
  return {
    form: level.form,
    depth: level.depth,
    // The row's own relations nest; a nested object's, to MAX_NESTING (the raw rows' rule, select.ts).
    nests: level.depth === 0 || level.depth < MAX_NESTING,
    customFields: level.customFields,
    select: selectContext(registry, level.depth, { customFields: level.customFields }),
    nestedObject: nested,
    related(target, id, shown) {
      const alias = `f${level.depth + 1}`;
      const object = nested(target, alias, shown);
      if (!object) return null;
      if (level.joins && level.shared) {
        const shared = sharedObject(level.joins, level.shared, target, id, shown, nested);
        if (shared) return shared;
      }
      if (level.joins) return level.joins.join(target, id, (joined) => nested(target, joined, shown)!);
      return sql`(SELECT ${object} FROM ${sql.table(target.table)} ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${id})`;
    },
  };
}

/** A final select, with the joins to follow its FROM (empty for a detail read). */
export interface FinalSelect {
  /** The shape it was built for (model, form, joins, custom fields, fields): part of a statement's cache key. */
  readonly key: string;
  /** Column `__json`; with holes, the text up to the first as `__json`, each hole's raw value under its select key and the text after each run of holes as `__j<i>`. */
  readonly select: Sql;
  readonly joins: Sql;
  readonly model: Model;
  readonly form: Form;
  /** The fields JavaScript makes (`isHole`), in runs between the parts of the text, in the object's order. */
  readonly gaps: readonly (readonly Field[])[];
  /** Whether the select reads the page's ids (`PAGE_IDS`: a hole computed over the page, objects written once for it). */
  readonly paged: boolean;
  /** What the page's CTE holds beside each id (`Joins.pageColumns`). */
  readonly pageColumns: readonly Sql[];
  /** The CTEs of the related objects written once for the page (`sharedObject`), after the page's; null for none. */
  readonly ctes: Sql | null;
}

const finalSelects = new Map<string, FinalSelect | null>();

/**
 * The final JSON select of `model`'s `form` with `fields`, as column `__json`, built and frozen once
 * per shape (as `selectSql`); null when the model's objects of that form are shaped in JavaScript.
 * `joined`: the read row's related objects through LEFT JOINs, for a statement whose WHERE names
 * the table's columns qualified (a list page's).
 */
export function finalSelect(
  model: Model,
  fields: readonly Field[],
  form: Form,
  { customFields, joined }: { readonly customFields: boolean; readonly joined: boolean },
): FinalSelect | null {
  const key = `${model.objectType} ${form} ${joined} ${customFields} ${fieldsKey(fields)}`;
  return remembered(
    finalSelects,
    key,
    () => {
      const joins = joined ? new Joins() : null;
      const shared: Sql[] | null = joins ? [] : null;
      const written = members(model, fields, model.table, { form, depth: 0, pages: false, customFields, joins, shared }, true);
      if (!written) return null;
      // The text in parts between runs of holes (a port's three connection fields are one run).
      const parts: [string, Sql][][] = [[]];
      const gaps: Field[][] = [];
      for (const m of written) {
        if (Array.isArray(m)) parts[parts.length - 1].push(m as [string, Sql]);
        else if (parts[parts.length - 1].length || !gaps.length) {
          gaps.push([m as Field]);
          parts.push([]);
        } else gaps[gaps.length - 1].push(m as Field);
      }
      const holes = gaps.flat();
      // Each hole's raw value under its select key, once for fields sharing one; what a hole
      // computes over the page reads the page's ids through the statement's joins.
      const raw = new Map<string, Sql>();
      // No key: the related objects a hole reads are joined, not shared over the page (a final select has no `__related`).
      const sc = selectContext(model.registry, 0, { customFields }, joins, null);
      for (const field of holes) {
        const at = selectKey(field);
        if (!raw.has(at)) raw.set(at, sql`${KINDS[field.kind].read!.select(field, model.table, sc)} AS ${sql.ref(at)}`);
      }
      const columns = [
        sql`${jsonObjectSql(parts[0])} AS __json`,
        ...raw.values(),
        ...gaps.map((_, i) => sql`${jsonObjectSql(parts[i + 1])} AS ${sql.raw(`__j${i}`)}`),
      ];
      return {
        key,
        model,
        form,
        select: frozen(sql.join(columns)),
        joins: joins ? frozen(sql.join(joins.clauses, sql` `)) : sql``,
        gaps,
        paged: Boolean(joins?.paged || shared?.length),
        pageColumns: joins?.pageColumns.map(frozen) ?? [],
        ctes: shared?.length ? frozen(sql.join(shared, sql`, `)) : null,
      };
    },
    256,
  );
}

/** The inside of a JSON object's text: its members, without the braces. */
const inside = (object: string) => object.slice(1, -1);

/**
 * The objects of a page read whole (`listStatements`), joined by commas: the text of its one row's
 * `PAGE_TEXT`, or the UTF-8 bytes a driver gave instead; empty for an empty page.
 */
export function pageText(rows: readonly Row[]): string | Uint8Array {
  const value = rows[0]?.[PAGE_TEXT];
  return value instanceof Uint8Array ? value : value == null ? "" : String(value);
}

/**
 * The final JSON text of each row read with `final`: `__json` whole, or, with holes, its parts
 * joined around the holes' values, made as the serializer makes them (`renderedFields`).
 */
export function finalTexts(ctx: Actor, final: FinalSelect, rows: readonly Row[]): string[] {
  if (!final.gaps.length) return rows.map((row) => String(row.__json));
  const holes = final.gaps.flat();
  const values = renderedFields(ctx, final.model, final.form, holes, rows);
  return rows.map((row, r) => {
    const members = [inside(String(row.__json))];
    let h = 0;
    final.gaps.forEach((gap, i) => {
      for (const field of gap) {
        const value = JSON.stringify(values[h++][r]);
        // As JSON.stringify leaves out a member whose value it cannot write.
        if (value !== undefined) members.push(`${JSON.stringify(field.name)}:${value}`);
      }
      members.push(inside(String(row[`__j${i}`])));
    });
    return `{${members.filter((m) => m.length).join(",")}}`;
  });
}

import type { FinalContext, Field, Form, Model, NestedShown, Registry } from "../schema/shapes.ts";
import type { RenderContext } from "../schema/kinds/descriptor.ts";
import type { Row } from "../db/database.ts";
import { sql, type RawBuilder } from "kysely";
import { KINDS } from "../schema/kinds/index.ts";
import { MAX_NESTING } from "../schema/kinds/limits.ts";
import { frozen, Slot } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { Joins, jsonObjectSql, selectContext } from "./select.ts";

type Sql = RawBuilder<unknown>;

/*
 * Objects written whole by SQLite: the JSON text of each object of a page exactly as the
 * serializer (serialize.ts) would shape it from the row, with this request's URLs, so that the
 * answer is joined from the rows' text and nothing is parsed, shaped and serialized again. On a
 * page of 50 sites, parsing the rows, shaping them and serializing the page took 275 of its 630 us
 * (measured), and SQLite writing the final text costs what writing the raw rows did.
 *
 * A model qualifies for a form when each of its fields' kinds can write its value (`final`), its
 * representation has no hook (`represent`) and no field is finished over the page in JavaScript:
 * the others are shaped by serialize.ts. test/final-json.test.ts holds the two to the same JSON
 * for every model that qualifies.
 */

/** This request's origin, a parameter each statement is bound with (`Template.bind({ origin })`). */
export const ORIGIN = new Slot("origin");

/** What writing one object needs besides the row: its nesting and how its `display_url`s go. */
interface Level {
  readonly form: Form;
  readonly depth: number;
  /** Inside an object nested with its page (`NestedShown.page`): what it nests carries theirs too. */
  readonly pages: boolean;
  readonly customFields: boolean;
  /** Top-level foreign keys read through the statement's joins (a list page's), else null. */
  readonly joins: Joins | null;
}

const url = (path: Sql): Sql => sql`${ORIGIN} || ${path}`;

/** A member of the top object left for JavaScript: a field finished over the page (config contexts). */
interface Hole {
  readonly field: Field;
  readonly raw: Sql;
}

/** An object's members in order, as SQL or as holes; null when one of them cannot be written at all. */
type Members = ([string, Sql] | Hole)[];

/**
 * The members of the row of `model` under `alias` with `fields`, or null when one of them cannot
 * be written so. Only the read row (depth 0) may have holes and `represent` hooks, as only there
 * does the serializer finish fields over the page and run hooks.
 */
function membersOf(model: Model, fields: readonly Field[], alias: string, level: Level): Members | null {
  const top = level.depth === 0;
  if (top && model.hooks?.represent && !model.hooks.representFinal) return null;
  const id = sql.ref(`${alias}.id`);
  const members: Members = [
    ["id", id],
    ["url", url(sql`${sql.lit(`/api/${model.app}/${model.path}/`)} || ${id} || '/'`)],
  ];
  if ((level.form === "full" || level.pages) && !model.pageless)
    members.push(["display_url", url(sql`${sql.lit(model.page)} || ${id} || '/'`)]);
  // `display` is text even where the object's display is its id.
  members.push(["display", sql`CAST(coalesce(${model.displaySql(alias)}, ${id}) AS TEXT)`]);
  const fc = context(level, model.registry);
  for (const field of fields) {
    if (field.finishPage) {
      // Its value as the raw rows' select reads it, finished in JavaScript (`finalTexts`).
      const raw = top && KINDS[field.kind].read?.select(field, alias, fc.select);
      if (!raw) return null;
      members.push({ field, raw });
      continue;
    }
    const written = KINDS[field.kind].final?.(field, alias, fc);
    if (!written) return null;
    members.push(...written);
  }
  if (top && model.hooks?.representFinal) {
    const adds = model.hooks.representFinal(new Map(members.filter((m): m is [string, Sql] => Array.isArray(m))));
    if (!adds) return null;
    members.push(...adds);
  }
  // A field writing a key the object already has is shaped in place by the serializer: not here.
  const keys = members.map((m) => (Array.isArray(m) ? m[0] : m.field.name));
  return new Set(keys).size === keys.length ? members : null;
}

/** The nested form's JSONB of the row of `model` under `alias`, or null. */
function objectSql(model: Model, fields: readonly Field[], alias: string, level: Level): Sql | null {
  const members = membersOf(model, fields, alias, level);
  return members && jsonObjectSql(members as [string, Sql][], "jsonb");
}

/** Where a JSON text is cut around a hole: `null}` after the hole's key, `{"-":null` before the next member. */
const HOLE_END = 5;
const HOLE_START = 9;

/**
 * The read row's text in parts around its holes: the first part ends with the first hole's key
 * and colon, each next part starts with the comma after the hole before it (the last ends the
 * object). Each part is a `json_object` cut: its escaping, key order and number forms are SQLite's.
 */
function partsSql(members: Members): Sql[] {
  const parts: Sql[] = [];
  let run: [string, Sql][] = [];
  for (const member of members) {
    if (Array.isArray(member)) {
      run.push(member);
      continue;
    }
    const text = jsonObjectSql([...(parts.length ? [["-", sql`NULL`] as [string, Sql]] : []), ...run, [member.field.name, sql`NULL`]]);
    parts.push(
      parts.length
        ? sql`substr(${text}, ${HOLE_START + 1}, length(${text}) - ${HOLE_START + HOLE_END})`
        : sql`substr(${text}, 1, length(${text}) - ${HOLE_END})`,
    );
    run = [];
  }
  const last = jsonObjectSql([["-", sql`NULL`], ...run]);
  parts.push(sql`substr(${last}, ${HOLE_START + 1})`);
  return parts;
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
    url,
    customFields: level.customFields,
    // At the top of a list page, with its joins: a field computing over the page's ids reads them (`SelectContext.page`).
    select: selectContext(registry, level.depth, { customFields: level.customFields }, level.joins),
    nestedObject: nested,
    related(target, id, shown) {
      const alias = `f${level.depth + 1}`;
      const object = nested(target, alias, shown);
      if (!object) return null;
      if (level.joins) return level.joins.join(target, id, (joined) => nested(target, joined, shown)!);
      return sql`(SELECT ${object} FROM ${sql.table(target.table)} ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${id})`;
    },
  };
}

/** A final select, with the joins to follow its FROM (empty for a detail read). */
export interface FinalSelect {
  /** The shape it was built for (model, form, joins, custom fields, fields): part of a statement's cache key. */
  readonly key: string;
  /** Columns `__json` and, per hole, `__hole<i>` (its raw value) and `__part<i>` (the text after it). */
  readonly select: Sql;
  readonly joins: Sql;
  /** A hole reads the page's ids (`PAGE_IDS`). */
  readonly paged: boolean;
  /** The fields finished in JavaScript, in order, each written between two parts. */
  readonly holes: readonly Field[];
}

const finalSelects = new Map<string, FinalSelect | null>();

/**
 * The final JSON select of `model`'s `form` with `fields`, built and frozen once per shape (as
 * `selectSql`); null when the model's objects of that form are shaped in JavaScript. `joined`: the
 * read row's related objects through LEFT JOINs, for a statement whose WHERE names the table's
 * columns qualified (a list page's).
 */
export function finalSelect(
  model: Model,
  fields: readonly Field[],
  form: Form,
  { customFields, joined }: { readonly customFields: boolean; readonly joined: boolean },
): FinalSelect | null {
  const key = `${model.objectType} ${form} ${joined} ${customFields} ${fields.map((field) => `${field.ownerType}.${field.name}`).join(",")}`;
  return remembered(
    finalSelects,
    key,
    () => {
      const joins = joined ? new Joins() : null;
      const members = membersOf(model, fields, model.table, { form, depth: 0, pages: false, customFields, joins });
      if (!members) return null;
      const holes = members.filter((m): m is Hole => !Array.isArray(m));
      const columns = holes.length
        ? partsSql(members).flatMap((part, i) => [
            // As text: a column loses JSON's subtype, and JSONB would arrive as bytes.
            ...(i ? [sql`json(${holes[i - 1].raw}) AS ${sql.raw(`__hole${i - 1}`)}`] : []),
            sql`${part} AS ${sql.raw(i ? `__part${i - 1}` : "__json")}`,
          ])
        : [sql`${jsonObjectSql(members as [string, Sql][])} AS __json`];
      return {
        key,
        select: frozen(sql.join(columns)),
        joins: joins ? frozen(sql.join(joins.clauses, sql` `)) : sql``,
        paged: joins?.paged ?? false,
        holes: holes.map((h) => h.field),
      };
    },
    256,
  );
}

/**
 * The JSON text of each row a final select read: its parts, and between them its holes' values
 * as the serializer renders and finishes them over the page (a config context's layers merged once
 * per group of rows alike, then serialized once per distinct object).
 */
export function finalTexts(rows: readonly Row[], final: FinalSelect): string[] {
  if (!final.holes.length) return rows.map((row) => String(row.__json));
  const values = final.holes.map((field, i) => {
    const rendered = rows.map((row) => {
      const out: Record<string, unknown> = {};
      KINDS[field.kind].render(field, { [field.name]: row[`__hole${i}`] }, out, NO_NESTING);
      return out[field.name];
    });
    return field.finishPage!(rendered);
  });
  const texts = new Map<unknown, string>();
  const text = (value: unknown) => {
    if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
    let t = texts.get(value);
    if (t === undefined) texts.set(value, (t = JSON.stringify(value)));
    return t;
  };
  return rows.map((row, r) => {
    let out = String(row.__json);
    final.holes.forEach((_, i) => {
      out += text(values[i][r]) + String(row[`__part${i}`]);
    });
    return out;
  });
}

/** A hole's value holds no related object to nest (a config context is plain JSON). */
const NO_NESTING: RenderContext = {
  form: "full",
  nested: () => {
    throw new Error("a field finished over the page nests no object");
  },
  nestedOf: () => null,
};

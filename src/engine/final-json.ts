import type { FinalContext, Field, Form, Model, NestedShown, Registry } from "../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { KINDS } from "../schema/kinds/index.ts";
import { MAX_NESTING } from "../schema/kinds/limits.ts";
import { frozen, Slot } from "../db/query-builder.ts";
import { remembered } from "../lib/memo.ts";
import { fieldsKey, Joins, jsonObjectSql, selectContext } from "./select.ts";

type Sql = RawBuilder<unknown>;

/*
 * Objects written whole by SQLite: the JSON text of each object of a page exactly as the
 * serializer (serialize.ts) would shape it from the row, with this request's URLs, so that the
 * answer is joined from the rows' text and nothing is parsed, shaped and serialized again. On a
 * page of 50 sites, parsing the rows, shaping them and serializing the page took 275 of its 630 us,
 * and SQLite writing the final text cost 1.26x what writing the raw rows did (497 against 393 us;
 * measured). For a device, whose 17 nested objects each get their URL and forms, it cost 2.2x, more
 * than it saved: a model's form that qualifies is written so whatever its weight.
 *
 * A model qualifies for a form when each of its fields' kinds can write its value (`final`), its
 * representation has no hook (`represent`) and no field is finished over the page in JavaScript:
 * the others are shaped by serialize.ts. test/final-json.test.ts holds the two to the same JSON
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
}

const url = (path: Sql): Sql => sql`${ORIGIN} || ${path}`;

/**
 * The final JSON of the row of `model` under `alias` with `fields` (JSON text at the top, JSONB
 * nested), or null when one of them cannot be written so.
 */
function objectSql(model: Model, fields: readonly Field[], alias: string, level: Level): Sql | null {
  // A `represent` hook sees the page's own objects only (serialize.ts): a nested object of its model is shaped without it.
  if ((level.depth === 0 && model.hooks?.represent) || fields.some((field) => field.finishPage)) return null;
  const id = sql.ref(`${alias}.id`);
  const pairs: [string, Sql][] = [
    ["id", id],
    ["url", url(sql`${sql.lit(`/api/${model.app}/${model.path}/`)} || ${id} || '/'`)],
  ];
  if ((level.form === "full" || level.pages) && !model.pageless)
    pairs.push(["display_url", url(sql`${sql.lit(model.page)} || ${id} || '/'`)]);
  // `display` is text even where the object's display is its id.
  pairs.push(["display", sql`CAST(coalesce(${model.displaySql(alias)}, ${id}) AS TEXT)`]);
  const fc = context(level, model.registry);
  for (const field of fields) {
    const written = KINDS[field.kind].final?.(field, alias, fc);
    if (!written) return null;
    pairs.push(...written);
  }
  // A field writing a key the object already has is shaped in place by the serializer: not here.
  if (new Set(pairs.map(([key]) => key)).size !== pairs.length) return null;
  return jsonObjectSql(pairs, level.depth === 0 ? "json" : "jsonb");
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
      if (level.joins) return level.joins.join(target, id, (joined) => nested(target, joined, shown)!);
      return sql`(SELECT ${object} FROM ${sql.table(target.table)} ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.id`)} = ${id})`;
    },
  };
}

/** A final select, with the joins to follow its FROM (empty for a detail read). */
export interface FinalSelect {
  /** The shape it was built for (model, form, joins, custom fields, fields): part of a statement's cache key. */
  readonly key: string;
  readonly select: Sql;
  readonly joins: Sql;
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
      const object = objectSql(model, fields, model.table, { form, depth: 0, pages: false, customFields, joins });
      if (!object) return null;
      return { key, select: frozen(sql`${object} AS __json`), joins: joins ? frozen(sql.join(joins.clauses, sql` `)) : sql`` };
    },
    256,
  );
}

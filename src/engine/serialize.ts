import type { Form, Field, Model, Registry } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import type { Row } from "../db/database.ts";
import type { RenderContext } from "../schema/kinds/descriptor.ts";
import { KINDS } from "../schema/kinds/index.ts";
import { parsed } from "../schema/kinds/outputs.ts";
import { SHARED } from "./select.ts";

type Out = Record<string, unknown>;

/** The absolute API URL of an object (or of a model's list, without `id`). */
export function objectUrl(ctx: Actor, model: Model, id?: unknown): string {
  return `${ctx.origin}/api/${model.app}/${model.path}/${id === undefined ? "" : `${id}/`}`;
}

/** Which representation to give: the full or brief form, of all its fields or of those named. */
export interface Representation {
  readonly form: "full" | "brief";
  /** The fields shown (default: all of the form's). */
  readonly fields?: readonly Field[];
}

/**
 * The absolute URL of an object's page for people, NetBox's `display_url` (`/dcim/sites/7/`, as
 * NetBox's UI names it; relative in webhooks, whose origin is empty). A browser there is sent on
 * to the object's browsable API page (`uiRedirect`).
 */
export function displayUrl(ctx: Actor, model: Model, id: unknown): string {
  return `${ctx.origin}${model.page}${id}/`;
}

/**
 * Shapes rows read with `selectSql` into the full or brief representation. The rows already carry
 * every related object as nested JSON (built by SQLite in the same statement), so this costs no
 * query; the model's `represent` hook then sees the whole page at once.
 */
export async function represent(ctx: Actor, model: Model, rows: readonly Row[], { form, fields }: Representation): Promise<Out[]> {
  const chosen = fields ?? (form === "brief" ? model.briefFields : model.readableFields);
  const rc = renderContext(ctx, model.registry, form);
  const outs = rows.map((row) => shape(model, row, chosen, rc));
  for (const field of chosen) {
    if (!field.finishPage || !outs.length) continue;
    const done = field.finishPage(outs.map((out) => out[field.name]));
    outs.forEach((out, i) => (out[field.name] = done[i]));
  }
  if (outs.length) await model.hooks?.represent?.(ctx, rows, outs);
  return outs;
}

/**
 * The values of `fields` (computed fields final-json.ts leaves to JavaScript) for each raw row of
 * `model`, as `represent` gives them: rendered by their kind, then finished over the page. `rows`
 * hold each field's value under its select key (`selectKey`).
 */
export function renderedFields(ctx: Actor, model: Model, form: Form, fields: readonly Field[], rows: readonly Row[]): unknown[][] {
  const rc = renderContext(ctx, model.registry, form);
  // A value several fields share (a port's connection) is parsed once for all of them.
  const shared = [...new Set(fields.flatMap((field) => (field.sharedAs ? [field.sharedAs] : [])))];
  const outs = rows.map((row) => {
    const read: Row = shared.length ? { ...row } : row;
    for (const key of shared) read[key] = parsed(read[key]);
    const out: Out = {};
    for (const field of fields) KINDS[field.kind].render(field, read, out, rc);
    return out;
  });
  return fields.map((field) => {
    const values = outs.map((out) => out[field.name]);
    return field.finishPage && values.length ? field.finishPage(values) : values;
  });
}

/** A render context that also carries the request, whose origin every object's `url` starts with. */
interface Shaping extends RenderContext {
  readonly ctx: Actor;
  /** Nested objects that carry `display_url` too (where NetBox nests with its Nested* serializers). */
  readonly pages?: boolean;
}

function renderContext(ctx: Actor, registry: Registry, form: Form): Shaping {
  // A list page's rows share the related objects it read once (select.ts, `Joins.share`): each is
  // shaped once, kept on the raw object, and its rows share the shape. A raw object is only ever
  // one relation's, so it is always shaped alike.
  const once = (raw: Out, make: () => Out): Out => {
    if (!(SHARED in raw)) return make();
    const kept = raw as Record<symbol, Out | null>;
    return (kept[SHARED] ??= make());
  };
  const nestedContext: Shaping = {
    ctx,
    form: "nested",
    nested: (target, raw, shown = {}) =>
      once(raw, () =>
        shown.page
          ? shape(target, raw, shown.fields ?? target.pageNestedFields, paged)
          : shape(target, raw, shown.fields ?? target.nestedFields, nestedContext),
      ),
    nestedOf: (objectType, raw) => {
      const target = registry.byObjectType(objectType);
      return target ? shape(target, raw, target.nestedFields, nestedContext) : null;
    },
  };
  // Inside an object nested with its page (NetBox's older Nested* serializers), what it nests by
  // a foreign key is nested so too (an interface's LAG's device carries `display_url`, no
  // description); a generic relation (`page: false`) keeps the brief nested form.
  const paged: Shaping = {
    ...nestedContext,
    pages: true,
    nested: (target, raw, shown = {}) =>
      once(raw, () =>
        shown.page === false
          ? shape(target, raw, shown.fields ?? target.nestedFields, nestedContext)
          : shape(target, raw, shown.fields ?? target.pageNestedFields, paged),
      ),
  };
  return form === "nested" ? nestedContext : { ...nestedContext, form };
}

/** The nested form of a raw object of the registered model `objectType` (trace segments), or null. */
export function nestedForm(ctx: Actor, registry: Registry, objectType: string, raw: Out): Out | null {
  return renderContext(ctx, registry, "nested").nestedOf(objectType, raw);
}

/** An object: `id`, `url`, `display_url` (full form, and nested where the relation says so, as NetBox), `display`, then its fields. */
function shape(model: Model, row: Out, fields: readonly Field[], rc: Shaping): Out {
  const pages = (rc.form === "full" || rc.pages) && !model.pageless;
  let byModel = templates.get(fields);
  if (!byModel) templates.set(fields, (byModel = new Map()));
  let shapes = byModel.get(model);
  if (!shapes) byModel.set(model, (shapes = []));
  const template = shapes[pages ? 1 : 0];
  const out: Out = template ? { ...template } : {};
  out.id = row.id;
  out.url = objectUrl(rc.ctx, model, row.id);
  if (pages) out.display_url = displayUrl(rc.ctx, model, row.id);
  out.display = String(row.__display ?? row.id);
  for (const field of fields) KINDS[field.kind].render(field, row, out, rc);
  if (!template) shapes[pages ? 1 : 0] = templateOf(out);
  return out;
}

/**
 * Objects of one shape (fields, model, with or without `display_url`) start as a copy of a
 * template holding their keys in order, so filling one never adds a property. Added one by one
 * under names known only at run time, an object of more than a dozen keys turned into a hash
 * table in V8: shaping a page was 2.5x and serializing it 1.8x slower (measured) than with
 * objects of a fixed layout.
 */
const templates = new WeakMap<readonly Field[], Map<Model, (Out | undefined)[]>>();

/**
 * A fixed-layout object with the keys of `out` in its order, each undefined until filled. A key a
 * render leaves unfilled (write-only fields write none) never enters a template, being taken
 * from an object already shaped.
 */
function templateOf(out: Out): Out {
  const keys = Object.keys(out);
  const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, 0])))) as Out;
  for (const k of keys) template[k] = undefined;
  return template;
}

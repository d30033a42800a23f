import type { Row } from "../db/database.ts";
import type { RequestContext } from "../http/context.ts";
import type { Field } from "../models/fields.ts";
import { KINDS, type Form, type RenderContext } from "../models/kinds.ts";
import { modelByType, type Model } from "../models/model.ts";

type Out = Record<string, unknown>;

/** The absolute API URL of an object (or of a model's list, without `id`). */
export function objectUrl(ctx: RequestContext, model: Model, id?: unknown): string {
  return `${ctx.origin}/api/${model.app}/${model.path}/${id === undefined ? "" : `${id}/`}`;
}

/**
 * The absolute URL of an object's page for people, NetBox's `display_url` (`/dcim/sites/7/`, as
 * NetBox's UI names it; relative in webhooks, whose origin is empty). A browser there is sent on
 * to the object's browsable API page (`uiRedirect`).
 */
export function displayUrl(ctx: RequestContext, model: Model, id: unknown): string {
  return `${ctx.origin}${model.page}${id}/`;
}

/**
 * Shapes rows read with `selectSql` into the full or brief representation. The rows already carry
 * every related object as nested JSON (built by SQLite in the same statement), so this costs no
 * query; the model's `represent` hook then sees the whole page at once.
 */
export async function represent(
  ctx: RequestContext, model: Model, rows: readonly Row[], form: "full" | "brief", fields?: readonly Field[],
): Promise<Out[]> {
  const chosen = fields ?? (form === "brief" ? model.briefFields : model.readableFields);
  const rc = renderContext(ctx, form);
  const outs = rows.map((row) => shape(ctx, model, row, chosen, rc));
  if (outs.length) await model.hooks?.represent?.(ctx, rows, outs);
  return outs;
}

function renderContext(ctx: RequestContext, form: Form): RenderContext {
  const nestedContext: RenderContext = {
    form: "nested",
    nested: (target, raw, fields, page) => shape(ctx, target, raw, fields ?? target.nestedFields, nestedContext, page),
    nestedOf: (objectType, raw) => {
      const target = modelByType(objectType);
      return target ? shape(ctx, target, raw, target.nestedFields, nestedContext) : null;
    },
  };
  return form === "nested" ? nestedContext : { ...nestedContext, form };
}

/** The nested form of a raw object of the registered model `objectType` (trace segments), or null. */
export function nestedForm(ctx: RequestContext, objectType: string, raw: Out): Out | null {
  return renderContext(ctx, "nested").nestedOf(objectType, raw);
}

/** An object: `id`, `url`, `display_url` (full form, and nested where the relation says so, as NetBox), `display`, then its fields. */
function shape(ctx: RequestContext, model: Model, row: Out, fields: readonly Field[], rc: RenderContext, page = rc.form === "full"): Out {
  const out: Out = { id: row.id, url: objectUrl(ctx, model, row.id) };
  if (page) out.display_url = displayUrl(ctx, model, row.id);
  out.display = String(row.__display ?? row.id);
  for (const field of fields) KINDS[field.kind].render(field, row, out, rc);
  return out;
}

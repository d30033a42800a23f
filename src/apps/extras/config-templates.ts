import type { Model, RouteContext, RouteDeclaration } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { ApiError } from "../../schema/errors.ts";
import { qb } from "../../db/query-builder.ts";
import { json } from "../../lib/responses.ts";
import { BRIEF, FULL, retrieveObject } from "../../engine/crud.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { withSyncedData } from "./data-sync.ts";
import { RenderBudget, renderTemplate, templateProblem } from "./render.ts";

/**
 * Config templates: text rendered over an object's data (a device's configuration). NetBox writes
 * them in Jinja2; here they are mustache, as webhook bodies are: no JavaScript library that runs
 * Jinja2 keeps templates away from JavaScript's globals and prototypes, and mustache runs no code.
 */

/** The most a render may write (and four times as many steps), so no template can stall a thread. */
const RENDER_LIMIT = 1024 * 1024;

/** The rendered text, or a 400 naming what went wrong: config templates' and export templates' renders. */
export function renderText(code: string, context: Record<string, unknown>): string {
  try {
    return renderTemplate(code, context, "none", new RenderBudget(RENDER_LIMIT));
  } catch (error) {
    throw ApiError.detail("invalid", `Rendering failed: ${(error as Error).message}`);
  }
}

/** The request body as the render's context: a JSON object (an empty body is none). */
async function bodyContext(ctx: RouteContext): Promise<Record<string, unknown>> {
  const body = await ctx.json().catch(() => ({}));
  if (body === null || body === undefined) return {};
  if (typeof body !== "object" || Array.isArray(body)) throw ApiError.detail("invalid", "The context must be a JSON object.");
  return body as Record<string, unknown>;
}

/** NetBox's answer to a render: the template (brief) and the text; plain text when that is what the client accepts. */
async function answer(ctx: RouteContext, template: Model, id: number, content: string): Promise<Response> {
  if ((ctx.url.searchParams.get("format") ?? "") === "txt")
    return new Response(content, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return json({ configtemplate: await retrieveObject(ctx, template, id, BRIEF), content });
}

const renderRoute: RouteDeclaration = {
  name: "render",
  detail: true,
  summary: "Renders the template over the context given as the body (a JSON object).",
  methods: ["POST"],
  permission: () => "view",
  handler: async (ctx, model, id) => {
    const template = await retrieveObject(ctx, model, id!, FULL);
    return answer(ctx, model, id!, renderText(String(template.template_code), await bodyContext(ctx)));
  },
};

/**
 * `render-config/` of a device or virtual machine: its config template (its own, else its role's,
 * else its platform's, as NetBox picks it) rendered over the object (under its model's name),
 * its rendered config context and the body's data.
 */
export const renderConfigRoute = (name: "device" | "virtualmachine"): RouteDeclaration => ({
  name: "render-config",
  detail: true,
  summary: "Renders the object's config template over the object, its config context and the body's data.",
  methods: ["POST"],
  permission: () => "view",
  handler: async (ctx, model, id) => {
    const object = await retrieveObject(ctx, model, id!, FULL);
    const [picked] = await readBatch(ctx, [
      sql`SELECT t.id, t.template_code FROM extras_configtemplate t WHERE t.id = (SELECT coalesce(o.config_template_id,
          (SELECT r.config_template_id FROM dcim_devicerole r WHERE r.id = o.role_id),
          (SELECT p.config_template_id FROM dcim_platform p WHERE p.id = o.platform_id))
        FROM ${sql.table(model.table)} o WHERE o.id = ${id!})`.compile(qb),
    ]);
    const row = picked.rows[0];
    if (!row) throw ApiError.detail("invalid", `No config template found for ${object.display}.`);
    const template = model.registry.get("extras.configtemplate");
    const context = { ...((object.config_context as Record<string, unknown>) ?? {}), [name]: object, ...(await bodyContext(ctx)) };
    return answer(ctx, template, Number(row.id), renderText(String(row.template_code), context));
  },
});

export const configTemplate = defineModel(
  withSyncedData(
    {
      app: "extras",
      name: "configtemplate",
      verboseName: "config template",
      fields: {
        name: f.string({ maxLength: 100 }),
        description,
        environment_params: f.json({ nullable: true, default: {}, label: "Environment parameters" }),
        template_code: f.text({ required: true, blank: false, check: (code) => templateProblem(code) ?? undefined }),
        // Where NetBox shows them; `withSyncedData` declares them (a data file's text becomes `template_code`).
        data_source: f.text(),
        data_path: f.text(),
        data_file: f.text(),
        data_synced: f.text(),
      },
      brief: ["name", "description"],
      search: ["name", "description"],
      ordering: ["name"],
      routes: [renderRoute],
    },
    (text) => templateProblem(text) ?? { template_code: text },
  ),
);

export const configTemplateModels = [configTemplate];

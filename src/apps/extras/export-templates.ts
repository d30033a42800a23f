import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { withSyncedData } from "./data-sync.ts";
import { description } from "../../schema/common.ts";
import { ApiError } from "../../schema/errors.ts";
import { qb } from "../../db/query-builder.ts";
import { listObjects, type ListQuery } from "../../engine/crud.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { objectTypesChecked } from "./custom-links.ts";
import { objectTypesListFilters } from "./object-types.ts";
import { templateProblem } from "./render.ts";
import { renderText } from "./config-templates.ts";

/**
 * An export template: text rendered over a list of objects (`?export=<name>` on the list of one
 * of its object types), served with its MIME type, as an attachment when it says so. NetBox
 * writes them in Jinja2; here they are mustache, as config templates are.
 */
export const exportTemplate = defineModel(
  withSyncedData(
    {
      app: "extras",
      name: "exporttemplate",
      verboseName: "export template",
      taggable: false,
      fields: {
        object_types: f.stringList({ required: true, default: undefined }),
        // NetBox 3.x's name, which older clients (Debian's Ansible collection) still send.
        content_types: f.alias("object_types"),
        name: f.string({ maxLength: 100 }),
        description,
        template_code: f.text({
          required: true,
          blank: false,
          check: (code) => templateProblem(code) ?? undefined,
          helpText: "A mustache template over `queryset`, the list of objects as the API represents them.",
        }),
        mime_type: f.string({
          maxLength: 50,
          blank: true,
          label: "MIME type",
          helpText: "Defaults to text/plain; charset=utf-8",
          // It becomes a response header: a type/subtype and parameters, nothing that could end the header.
          pattern: { regex: /^$|^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+-]+)*$/, message: "Enter a MIME type such as text/csv." },
        }),
        // NetBox 4.3's: the attachment's name, without its extension (blank: netbox_<objects>).
        file_name: f.string({ maxLength: 200, blank: true }),
        file_extension: f.string({
          maxLength: 15,
          blank: true,
          helpText: "Extension to append to the rendered filename",
          pattern: { regex: /^[\w.-]*$/, message: "Enter an extension of letters, digits, dots, hyphens or underscores." },
        }),
        as_attachment: f.boolean({ default: true, helpText: "Download file as attachment" }),
      },
      brief: ["name", "description"],
      search: ["name", "description"],
      ordering: ["name"],
      hooks: objectTypesChecked(() => exportTemplate),
      filters: objectTypesListFilters("object_types"),
    },
    (text) => ({ template_code: text }),
  ),
);

/** The most objects one export renders: a list larger than this is to be narrowed with filters first. */
export const EXPORT_MAX_OBJECTS = 10_000;

/** `netbox_sites.csv`, `netbox_ip_addresses.csv`: the attachment's name (NetBox's, from the plural), unless the template names it. */
function fileNameOf(model: Model, row: Record<string, unknown>): string {
  const base = String(row.file_name || `netbox_${model.path.replace(/-/g, "_")}`);
  const extension = String(row.file_extension ?? "");
  // A quote or line break would end the header's value: the name keeps neither.
  return `${base}${extension ? `.${extension}` : ""}`.replace(/["\r\n\\]/g, "_");
}

/**
 * `GET <list>?export=<name>`: the export template of that name for the list's model rendered over
 * the objects the list's filters and ordering give (every page, up to EXPORT_MAX_OBJECTS), with
 * the template's MIME type and, when it is an attachment, its file name. No template of that name
 * for the model: 404, as NetBox answers. The render is bounded as config templates' are.
 */
export async function exportList(ctx: Actor, model: Model, name: string, query: ListQuery): Promise<Response> {
  const [found] = await readBatch(ctx, [
    sql`SELECT template_code, mime_type, file_name, file_extension, as_attachment FROM extras_exporttemplate t
      WHERE t.name = ${name} AND EXISTS (SELECT 1 FROM json_each(t.object_types) o WHERE o.value = ${model.objectType})
      ORDER BY t.id LIMIT 1`.compile(qb),
  ]);
  const template = found.rows[0];
  if (!template) throw ApiError.notFound();
  const { count, results } = await listObjects(ctx, model, { ...query, page: { limit: EXPORT_MAX_OBJECTS, offset: 0 } });
  if (count > EXPORT_MAX_OBJECTS)
    throw ApiError.detail(
      "invalid",
      `An export renders at most ${EXPORT_MAX_OBJECTS} objects (${count} match): narrow the list with filters.`,
    );
  const content = renderText(String(template.template_code), { queryset: results });
  const headers: Record<string, string> = { "Content-Type": String(template.mime_type || "text/plain; charset=utf-8") };
  if (template.as_attachment) headers["Content-Disposition"] = `attachment; filename="${fileNameOf(model, template)}"`;
  return new Response(content, { status: 200, headers });
}

export const exportTemplateModels = [exportTemplate];

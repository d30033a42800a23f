import { type AppOperation, type AppPath, type JsonSchema, APPS, type Model, type RouteDeclaration } from "../schema/shapes.ts";
import { ref } from "../schema/json-schema.ts";
import { detailParameters, listParameters, objectIdParameter, type Parameter } from "./openapi-parameters.ts";

/** An OpenAPI operation object. */
export interface Operation {
  operationId: string;
  description: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

export type PathItem = Record<string, Operation | Parameter[]>;

const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });
const ok = (schema: JsonSchema, description = "OK") => ({ description, content: jsonContent(schema) });
const body = (schema: JsonSchema, { required = true }: { readonly required?: boolean } = {}) => ({
  required,
  content: jsonContent(schema),
});
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
const listOf = (schema: JsonSchema): JsonSchema => ({ type: "array", items: schema });
const withId = (name: string): JsonSchema => ({ allOf: [ref(name), ref("ObjectId")] });

/** Errors by status, in NetBox's shapes, as the engine answers them. */
export const ERROR_RESPONSES: Record<string, Record<string, unknown>> = {
  BadRequest: ok(ref("ValidationError"), "Invalid input or filter values: field errors (aligned by item for a list), or a detail."),
  Forbidden: ok(ref("Error"), "No credentials, or no permission for this action."),
  NotFound: ok(ref("Error"), "No such object (or not visible to the requester)."),
  Conflict: ok(ref("Error"), "The change conflicts with stored data (protected dependants, no room left to allocate)."),
  PayloadTooLarge: ok(ref("Error"), "The request body is larger than the server accepts."),
  UnsupportedMediaType: ok(ref("Error"), "The request body is not JSON."),
};
const readErrors = { 400: response("BadRequest"), 403: response("Forbidden") };
const writeErrors = { ...readErrors, 409: response("Conflict"), 413: response("PayloadTooLarge"), 415: response("UnsupportedMediaType") };
const noContent = { description: "Deleted." };

/** Anonymous requests welcome: the endpoint holds no data (or checks credentials itself). */
export const OPEN: Record<string, string[]>[] = [{}, { tokenAuth: [] }, { cookieAuth: [] }];

/**
 * The paths of one model (and its aliases): list and detail with every method it answers, and
 * its declared routes. Operation ids follow NetBox's: `dcim_sites_list`, `dcim_sites_create`,
 * `dcim_sites_bulk_update`, `dcim_sites_retrieve`, `dcim_sites_partial_update`, ...
 */
export function modelPaths(model: Model): Record<string, PathItem> {
  const out: Record<string, PathItem> = {};
  for (const at of [{ app: model.app, path: model.path }, ...(model.aliases ?? [])]) {
    const base = `/api/${at.app}/${at.path}/`;
    const opId = `${at.app}_${at.path.replace(/-/g, "_")}`;
    const x = model.className;
    const noun = model.verboseName;
    const op = (suffix: string, description: string, rest: Omit<Operation, "operationId" | "description" | "tags">): Operation => ({
      operationId: `${opId}_${suffix}`,
      description,
      tags: [model.app],
      ...rest,
    });

    const list: PathItem = {
      get: op("list", `Get a list of ${noun} objects (\`?brief=1\`: their brief form).`, {
        parameters: listParameters(model),
        responses: { 200: ok({ anyOf: [ref(`Paginated${x}List`), ref(`PaginatedBrief${x}List`)] }), ...readErrors },
      }),
    };
    const detail: PathItem = {
      parameters: [objectIdParameter()],
      get: op("retrieve", `Get a ${noun} object.`, {
        parameters: detailParameters(),
        responses: { 200: ok({ anyOf: [ref(x), ref(`Brief${x}`)] }), 403: response("Forbidden"), 404: response("NotFound") },
      }),
    };
    if (!model.readOnly) {
      Object.assign(list, {
        post: op("create", `Create a ${noun} object, or a list of them (all or none).`, {
          requestBody: body({ oneOf: [ref(`Writable${x}Request`), listOf(ref(`Writable${x}Request`))] }),
          responses: { 201: ok({ oneOf: [ref(x), listOf(ref(x))] }, "Created."), ...writeErrors },
        }),
        put: op("bulk_update", `Replace a list of ${noun} objects, each named by its id (all or none).`, {
          requestBody: body(listOf(withId(`Writable${x}Request`))),
          responses: { 200: ok(listOf(ref(x))), ...writeErrors },
        }),
        patch: op("bulk_partial_update", `Change a list of ${noun} objects, each named by its id (all or none).`, {
          requestBody: body(listOf(withId(`PatchedWritable${x}Request`))),
          responses: { 200: ok(listOf(ref(x))), ...writeErrors },
        }),
        delete: op("bulk_destroy", `Delete a list of ${noun} objects, each named by its id (all or none).`, {
          requestBody: body(listOf(ref("ObjectId"))),
          responses: { 204: noContent, ...writeErrors },
        }),
      });
      Object.assign(detail, {
        put: op("update", `Replace a ${noun} object.`, {
          requestBody: body(ref(`Writable${x}Request`)),
          responses: { 200: ok(ref(x)), ...writeErrors, 404: response("NotFound") },
        }),
        patch: op("partial_update", `Change a ${noun} object.`, {
          requestBody: body(ref(`PatchedWritable${x}Request`), { required: false }),
          responses: { 200: ok(ref(x)), ...writeErrors, 404: response("NotFound") },
        }),
        delete: op("destroy", `Delete a ${noun} object.`, {
          responses: { 204: noContent, ...writeErrors, 404: response("NotFound") },
        }),
      });
    }
    out[base] = list;
    out[`${base}{id}/`] = detail;
    for (const route of model.routes) {
      if (route.atAppRoot) {
        out[`/api/${model.app}/${route.name}/`] = routePath(route, `${model.app}_${route.name.replace(/-/g, "_")}`, model);
        continue;
      }
      const path = route.detail ? `${base}{id}/${route.name}/` : `${base}${route.name}/`;
      // A name declared on both the list and its objects (`retry`): the list's is the bulk one.
      const bulk = !route.detail && model.routes.some((r) => r.detail && r.name === route.name) ? "bulk_" : "";
      out[path] = routePath(route, `${opId}_${bulk}${route.name.replace(/-/g, "_")}`, model);
    }
  }
  return out;
}

/** A declared route: the methods it answers, with the bodies it declares (any JSON where it declares none). */
function routePath(route: RouteDeclaration, opId: string, model: Model): PathItem {
  const item: PathItem = route.detail ? { parameters: [objectIdParameter()] } : {};
  const summary = route.summary ?? `${route.name} (${model.verboseName})`;
  for (const method of route.methods) {
    if (method === "HEAD" || method === "OPTIONS") continue;
    const write = method !== "GET";
    const bodies = route.bodies?.[method] ?? {};
    const suffix = method === "GET" ? (route.lists ? "list" : "retrieve") : method === "POST" ? "create" : method.toLowerCase();
    const query = (route.query ?? []).map(({ name, description, required = false }) => ({
      in: "query",
      name,
      description,
      required,
      schema: { type: "string" },
    }));
    item[method.toLowerCase()] = {
      operationId: `${opId}_${suffix}`,
      description: summary,
      ...(query.length ? { parameters: query } : {}),
      tags: [model.app],
      ...(write ? { requestBody: body(bodies.request ?? {}, { required: bodies.request !== undefined }) } : {}),
      ...(route.permission === null ? { security: OPEN } : {}),
      responses: {
        [method === "POST" && route.creates ? 201 : 200]: ok(bodies.response ?? {}),
        ...(write ? writeErrors : readErrors),
        ...(route.detail ? { 404: response("NotFound") } : {}),
      },
    };
  }
  return item;
}

/**
 * An app path's operations (the path, its items by key, POST actions on an item), documented as
 * a model's routes are.
 */
export function appPathItems(path: AppPath): Record<string, PathItem> {
  const base = `/api/${path.app}/${path.path}/`;
  const opId = `${path.app}_${path.path.replace(/-/g, "_")}`;
  const key: Parameter = path.item?.key
    ? { in: "path", name: path.item.key.name, required: true, schema: path.item.key.schema }
    : objectIdParameter();
  const item = (operations: Readonly<Record<string, AppOperation>>, at: "list" | "detail" | string): PathItem => {
    const out: PathItem = at === "list" ? {} : { parameters: [key] };
    for (const [method, o] of Object.entries(operations)) {
      const write = method !== "GET";
      const suffix =
        // A path with items below it lists them; one without (the dashboard) is one document.
        {
          GET: at === "list" && path.item ? "list" : "retrieve",
          PUT: "update",
          PATCH: "partial_update",
          DELETE: "destroy",
          POST: "create",
        }[method] ?? method.toLowerCase();
      out[method.toLowerCase()] = {
        operationId: `${opId}_${at === "list" || at === "detail" ? "" : `${at}_`}${suffix}`,
        description: o.summary,
        tags: [path.app],
        ...(o.request ? { requestBody: body(o.request) } : {}),
        responses: {
          [o.status ?? 200]: o.status === 204 ? noContent : ok(o.response ?? {}),
          ...(write ? writeErrors : readErrors),
          ...(at === "list" ? {} : { 404: response("NotFound") }),
        },
      };
    }
    return out;
  };
  const keyed = `${base}{${path.item?.key?.name ?? "id"}}/`;
  return {
    [base]: item(path.operations, "list"),
    ...(path.item ? { [keyed]: item(path.item.operations, "detail") } : {}),
    ...Object.fromEntries(Object.entries(path.actions ?? {}).map(([name, o]) => [`${keyed}${name}/`, item({ POST: o }, name)])),
  };
}

const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string", format: "uri" } };

/** `/api/`, each application's root, `/api/status/` and `/api/schema/`. */
export function rootPaths(): Record<string, PathItem> {
  const out: Record<string, PathItem> = {
    "/api/": {
      get: {
        operationId: "api_root",
        description: "Every application's root and the status endpoint.",
        tags: ["status"],
        security: OPEN,
        responses: { 200: ok(stringMap) },
      },
    },
    "/api/status/": {
      get: {
        operationId: "status_retrieve",
        description: "The release this API is compatible with and what is installed.",
        tags: ["status"],
        responses: { 200: ok({ type: "object", required: ["netbox-version", "installed-apps", "plugins"] }), 403: response("Forbidden") },
      },
    },
    "/api/users/config/": {
      get: {
        operationId: "users_config_retrieve",
        description: "The requesting user's preferences: always empty here, as this service keeps none.",
        tags: ["users"],
        responses: { 200: ok({ type: "object" }), 403: response("Forbidden") },
      },
    },
    "/api/schema/": {
      get: {
        operationId: "schema_retrieve",
        description: "This document: YAML by default, JSON with `?format=json` or `Accept: application/json`.",
        tags: ["schema"],
        security: OPEN,
        parameters: [{ in: "query", name: "format", schema: { enum: ["json", "yaml"] } }],
        responses: {
          200: {
            description: "The OpenAPI document.",
            content: Object.fromEntries(
              ["application/vnd.oai.openapi", "application/yaml", "application/vnd.oai.openapi+json", "application/json"].map((type) => [
                type,
                { schema: { type: "object" } },
              ]),
            ),
          },
          304: { description: "Not modified (If-None-Match)." },
        },
      },
    },
  };
  for (const app of APPS) {
    out[`/api/${app}/`] = {
      get: {
        operationId: `${app}_root`,
        description: `The endpoints of ${app}.`,
        tags: [app],
        security: OPEN,
        responses: { 200: ok(stringMap) },
      },
    };
  }
  return out;
}

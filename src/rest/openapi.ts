import { APPS, type Registry } from "../schema/shapes.ts";
import { encoder, toHex } from "../lib/crypto.ts";
import type { RequestContext } from "../http/context.ts";
import { componentSchemas } from "./openapi-schemas.ts";
import type { Parameter } from "./openapi-parameters.ts";
import { openApiYaml } from "./openapi-yaml.ts";
import { appPathItems, ERROR_RESPONSES, modelPaths, rootPaths, type Operation, type PathItem } from "./openapi-paths.ts";
import { APP_PATHS } from "../apps/index.ts";

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, PathItem>;
  components: Record<string, Record<string, unknown>>;
};

/**
 * The OpenAPI 3.1 document of the API, from the registry: every model's paths, filters, request
 * and response schemas, derived from the same declarations that validate input and shape output,
 * so it cannot drift from what the API does. `servers` is relative (`/`): the document is built
 * once and serves any host it is reached at.
 */
export function buildOpenApi(registry: Registry, version: string, release: string): OpenApiDocument {
  const paths: Record<string, PathItem> = rootPaths();
  for (const model of registry.models) Object.assign(paths, modelPaths(model));
  for (const path of APP_PATHS) Object.assign(paths, appPathItems(path));
  for (const item of Object.values(paths)) inlinePathParameters(item);
  return {
    openapi: "3.1.0",
    info: {
      title: "Inventory REST API",
      version: `${version} (inventory ${release})`,
      description: "A NetBox-compatible infrastructure inventory API. Authenticate with `Authorization: Token <key>`.",
    },
    servers: [{ url: "/" }],
    security: [{ tokenAuth: [] }, { cookieAuth: [] }],
    tags: [...APPS, "schema", "status"].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(registry.models),
      responses: ERROR_RESPONSES,
      securitySchemes: {
        tokenAuth: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "An API token, sent as `Token <key>` (the word Token, a space, then the 40-character key).",
        },
        cookieAuth: { type: "apiKey", in: "cookie", name: "sessionid", description: "The session of a login through the browsable API." },
      },
    },
  };
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/**
 * Moves a path item's own parameters (the object `id`) into each of its operations, first, as
 * NetBox's document has them: clients read an operation's `parameters` and nothing above it.
 */
function inlinePathParameters(item: PathItem): void {
  const shared = item.parameters as Parameter[] | undefined;
  if (!shared) return;
  delete item.parameters;
  for (const m of METHODS) {
    const op = item[m] as Operation | undefined;
    if (op) op.parameters = [...shared.map((p) => structuredClone(p)), ...(op.parameters ?? [])];
  }
}

/** Every operation of the paths, in document order. */
export function operationsOf(paths: Record<string, PathItem>): Operation[] {
  return Object.values(paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m] as Operation));
}

/** One serialised form of the document, with its entity tag. */
interface Rendition {
  readonly text: string;
  readonly etag: string;
}

interface Built {
  readonly document: OpenApiDocument;
  json?: Promise<Rendition>;
  yaml?: Promise<Rendition>;
}

let built: { key: string; value: Built } | null = null;

/** The document, built on first use and kept for as long as the service runs. */
function builtFor(registry: Registry, version: string, release: string): Built {
  const key = `${version} ${release}`;
  if (built?.key !== key) built = { key, value: { document: buildOpenApi(registry, version, release) } };
  return built.value;
}

async function rendition(text: string): Promise<Rendition> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return { text, etag: `"${toHex(digest.slice(0, 16))}"` };
}

/** JSON when the query or Accept asks for it (pynetbox sends `Accept: application/json`), else YAML as NetBox does. */
function wantsJson(ctx: RequestContext): boolean {
  const format = ctx.url.searchParams.get("format");
  if (format) return format === "json" || format === "openapi";
  const accept = ctx.request.headers.get("Accept") ?? "";
  return /application\/(vnd\.oai\.openapi\+)?json/.test(accept) && !/application\/(vnd\.oai\.openapi|yaml)(?![+\w])/.test(accept);
}

/** Which document `schemaResponse` serves: of the registry's API at a release, and in JSON whatever was asked (`forceJson`). */
export interface SchemaRequest {
  readonly registry: Registry;
  readonly release: string;
  readonly forceJson?: boolean;
}

/**
 * GET `/api/schema/` (and `/api/docs/?format=openapi`, JSON): the document, serialised once per
 * form, with an ETag; `If-None-Match` gets a 304. It answers anyone, as `/api/` does: it holds no
 * data, only what the API accepts.
 */
export async function schemaResponse(ctx: RequestContext, { registry, release, forceJson = false }: SchemaRequest): Promise<Response> {
  const b = builtFor(registry, ctx.config.API_VERSION, release);
  const json = forceJson || wantsJson(ctx);
  const r = await (json ? (b.json ??= rendition(JSON.stringify(b.document))) : (b.yaml ??= openApiYaml(b.document).then(rendition)));
  const asked = ctx.request.headers.get("Accept") ?? "";
  const type = json
    ? forceJson || /application\/json/.test(asked)
      ? "application/json"
      : "application/vnd.oai.openapi+json"
    : "application/vnd.oai.openapi";
  const headers = {
    ETag: r.etag,
    "Cache-Control": "public, max-age=300",
    Vary: "Accept",
  };
  const inm = ctx.request.headers.get("If-None-Match");
  if (inm?.split(",").some((t) => t.trim().replace(/^W\//, "") === r.etag)) return new Response(null, { status: 304, headers });
  return new Response(r.text, { status: 200, headers: { ...headers, "Content-Type": `${type}; charset=utf-8` } });
}

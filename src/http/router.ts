import type { Model, Registry } from "../schema/shapes.ts";
import type { Action } from "../schema/actor.ts";
import { StaleAuth } from "../engine/unit-of-work.ts";
import { Router, type IRequest } from "itty-router";
import { authenticate } from "../auth/authenticate.ts";
import { logout } from "../auth/sessions.ts";
import { authorize } from "../engine/permissions.ts";
import { asList, bulkIds, deleteObjects, listTexts, retrieveText, writeObjects } from "../engine/crud.ts";
import { describeEndpoint } from "../rest/options.ts";
import type { RequestContext } from "./context.ts";
import { ApiError, fromDatabaseError } from "../schema/errors.ts";
import { readJson } from "./body.ts";
import { listQueryOf, selectionOf } from "./list-query.ts";
import { paginated, paginatedParts } from "../lib/pagination.ts";
import { checkHost } from "./host.ts";
import { bodyOf, DETAIL_METHODS, json, jsonText, LIST_METHODS, noContent, READ_METHODS } from "../lib/responses.ts";
import { apiRoot, apiStatus, appRoot, userConfig } from "./roots.ts";
import { swaggerPage } from "../ui/swagger-page.ts";
import { graphiqlPage, wantsGraphiql } from "../ui/graphiql-page.ts";
import { deliveriesAdmin } from "../ui/admin-deliveries.ts";
import { browsable, wantsBrowsable } from "../ui/browsable.ts";
import { loginEndpoint, logoutPage } from "../ui/login-page.ts";
import { schemaResponse } from "../rest/openapi.ts";
import { objectUrl } from "../engine/serialize.ts";
import { exportList } from "../apps/extras/export-templates.ts";
import { APP_PATHS } from "../apps/index.ts";
import type { AppOperation, AppPath } from "../schema/shapes.ts";
import { mediaFile } from "./media.ts";
import { graphqlEndpoint } from "./graphql-endpoint.ts";

/** Settings the pipeline needs beyond the request. */
export interface PipelineOptions {
  readonly registry: Registry;
  readonly runtime: string;
  readonly release: string;
}

/**
 * The request pipeline, explicit and in one place: before (host, method, trailing slash,
 * authentication) -> handler (a registry model's endpoint) -> catch (the one error type to
 * NetBox's bodies) -> finally (API-Version and X-Request-ID on every response). Handlers return
 * data or throw.
 */
export function createRouter({ registry, runtime, release }: PipelineOptions) {
  const router = Router<IRequest, [RequestContext]>({
    // POST /login/ checks credentials itself: a stale session cookie must not stand in its way.
    before: [
      checkHost,
      refuseUnknownMethod,
      redirectToSlash,
      async (req, ctx) => void ((ctx.url.pathname === "/login/" && req.method === "POST") || (await authenticate(ctx))),
    ],
    catch: (error, _req, ctx) => errorResponse(error, ctx),
    finally: [(response, req, ctx) => finish(response, req, ctx, registry)],
  });

  const modelOf = (req: IRequest): Model => {
    const model = registry.byPath(req.params.app, req.params.path);
    if (!model) throw ApiError.notFound();
    return model;
  };

  router.all("/login/", (req, ctx) => only(req, ["GET", "HEAD", "POST"], () => loginEndpoint(ctx)));
  router.all("/logout/", (req, ctx) => only(req, ["GET", "HEAD", "POST"], () => (req.method === "POST" ? logout(ctx) : logoutPage(ctx))));
  router.all("/api/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(apiRoot(ctx))));
  router.all("/api/schema/swagger-ui/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => swaggerPage(ctx)));
  router.all(
    "/admin/webhook-deliveries/",
    fresh((req, ctx) => only(req, ["GET", "HEAD"], () => deliveriesAdmin(ctx, registry, null))),
  );
  router.all(
    "/admin/webhook-deliveries/:id/",
    fresh((req, ctx) => only(req, ["GET", "HEAD"], () => deliveriesAdmin(ctx, registry, req.params.id))),
  );
  router.all("/api/status/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(apiStatus(ctx, runtime, release))));
  router.all("/api/users/config/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(userConfig(ctx))));
  router.all("/api/schema/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => schemaResponse(ctx, { registry, release })));
  // pynetbox asks here for the document of servers older than NetBox 3.5; a browser goes to Swagger UI.
  router.all("/api/docs/", (req, ctx) =>
    only(req, ["GET", "HEAD", "OPTIONS"], () =>
      ctx.url.searchParams.get("format") === "openapi"
        ? schemaResponse(ctx, { registry, release, forceJson: true })
        : new Response(null, { status: 302, headers: { Location: `${ctx.origin}/api/schema/swagger-ui/` } }),
    ),
  );
  router.all(
    "/graphql/",
    // A browser's GET without a query gets GraphiQL, which POSTs its queries here.
    fresh((req, ctx) =>
      only(req, ["GET", "HEAD", "POST", "OPTIONS"], () => (wantsGraphiql(ctx) ? graphiqlPage(ctx) : graphqlEndpoint(ctx, registry))),
    ),
  );
  const isId = (raw: string) => /^\d{1,15}$/.test(raw);
  router.all("/media/:folder/:file", (req, ctx) =>
    only(req, ["GET", "HEAD"], () => mediaFile(ctx, `${req.params.folder}/${pathSegment(req.params.file)}`)),
  );
  for (const path of APP_PATHS) serveAppPath(router, path);
  router.all("/api/:app/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(appRoot(ctx, registry, req.params.app))));
  // Routes a model declares at its app's root (`/api/dcim/connected-device/`), by `app/name`.
  const rooted = new Map<string, Model>(
    registry.models.flatMap((m) => m.routes.filter((r) => r.atAppRoot).map((r) => [`${m.app}/${r.name}`, m] as const)),
  );
  router.all(
    "/api/:app/:path/",
    fresh((req, ctx) => {
      const owner = registry.byPath(req.params.app, req.params.path) ? undefined : rooted.get(`${req.params.app}/${req.params.path}`);
      if (owner) return routeEndpoint(req, ctx, { model: owner, name: req.params.path, id: null, atAppRoot: true });
      return listEndpoint(req, ctx, modelOf(req));
    }),
  );
  router.all(
    "/api/:app/:path/:id/",
    fresh((req, ctx) => {
      const model = modelOf(req);
      if (isId(req.params.id)) return detailEndpoint(req, ctx, model, Number(req.params.id));
      return routeEndpoint(req, ctx, { model, name: req.params.id, id: null });
    }),
  );
  router.all(
    "/api/:app/:path/:id/:action/",
    fresh((req, ctx) => {
      const model = modelOf(req);
      if (!isId(req.params.id)) throw ApiError.notFound();
      return routeEndpoint(req, ctx, { model, name: req.params.action, id: Number(req.params.id) });
    }),
  );
  // An object's `display_url` (NetBox's page for it, `/dcim/sites/7/`) leads a browser to the
  // object's browsable API page; anything else there is not found.
  const pages = new Map(registry.models.map((m) => [m.page, m]));
  router.all("/:app/:path/:id/", (req, ctx) => {
    const model = pages.get(`/${req.params.app}/${req.params.path}/`);
    if (!model || !isId(req.params.id)) return undefined;
    return only(
      req,
      ["GET", "HEAD"],
      () => new Response(null, { status: 302, headers: { Location: objectUrl(ctx, model, Number(req.params.id)) } }),
    );
  });
  return router;
}

type Handler = (req: IRequest, ctx: RequestContext) => Promise<Response>;

/** A path segment decoded; one that is not valid percent-encoded UTF-8 names nothing (404). */
function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw ApiError.notFound();
  }
}

/**
 * A path an app serves that no model backs: the path, its items by key (a numeric id unless the
 * path names its key) and POST actions on an item, through the same pipeline.
 */
function serveAppPath(router: ReturnType<typeof Router<IRequest, [RequestContext]>>, path: AppPath): void {
  const base = `/api/${path.app}/${path.path}/`;
  router.all(
    base,
    fresh((req, ctx) => appPathEndpoint(req, ctx, path, path.operations, { key: null })),
  );
  const item = path.item;
  if (!item) return;
  const keyOf = (raw: string) => {
    if (!item.key && !/^\d{1,15}$/.test(raw)) throw ApiError.notFound();
    return pathSegment(raw);
  };
  router.all(
    `${base}:key/`,
    fresh((req, ctx) => appPathEndpoint(req, ctx, path, item.operations, { key: keyOf(req.params.key) })),
  );
  router.all(
    `${base}:key/:action/`,
    fresh((req, ctx) => {
      const action = path.actions?.[req.params.action];
      if (!action) throw ApiError.notFound();
      return appPathEndpoint(req, ctx, path, { POST: action }, { key: keyOf(req.params.key), action: req.params.action });
    }),
  );
}

/**
 * Serves a model endpoint; when one of its batches shows that the cached authentication data
 * went out of date (`StaleAuth`), or the cached data refused the request (a permission granted
 * since it was read), authenticates again from the database and serves it once more.
 * Nothing was written by the first attempt: a write's transaction aborts on the same check.
 * The second attempt reads the body the first one read (`ctx.body()` is read once per request).
 */
function fresh(handler: Handler): Handler {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx);
    } catch (error) {
      // A refusal decided on cached permissions is confirmed against the database before it stands.
      const cachedRefusal = error instanceof ApiError && error.status === 403 && ctx.auth?.cached === true;
      if (!(error instanceof StaleAuth) && !cachedRefusal) throw error;
      ctx.user = null;
      ctx.token = null;
      ctx.auth = null;
      await authenticate(ctx, { useCache: false });
      return handler(req, ctx);
    }
  };
}

/** A call of a model's declared route: on the list (`id` null) or on one object. */
interface RouteCall {
  readonly model: Model;
  readonly name: string;
  readonly id: number | null;
  /** Called at the app's root (a route declared `atAppRoot`, served only there). */
  readonly atAppRoot?: boolean;
}

/** A declared route: its methods, its permission, then its handler, through the same pipeline. */
async function routeEndpoint(req: IRequest, ctx: RequestContext, { model, name, id, atAppRoot = false }: RouteCall): Promise<Response> {
  const route = model.routes.find((r) => r.name === name && r.detail === (id !== null) && Boolean(r.atAppRoot) === atAppRoot);
  if (!route) throw ApiError.notFound();
  const allow = { Allow: [...route.methods, "OPTIONS"].join(", ") };
  if (req.method === "OPTIONS") return new Response(null, { status: 200, headers: allow });
  if (!route.methods.includes(req.method)) throw ApiError.methodNotAllowed(req.method, [...route.methods, "OPTIONS"]);
  if (route.permission) authorize(ctx, model, route.permission(req.method));
  const response = await route.handler(ctx, model, id);
  response.headers.set("Allow", allow.Allow);
  return response;
}

/** An app's own path (`/api/extras/dashboard/`): its listed methods, then its handler, through the same pipeline. */
function appPathEndpoint(
  req: IRequest,
  ctx: RequestContext,
  path: AppPath,
  operations: Readonly<Record<string, AppOperation>>,
  at: { readonly key: string | null; readonly action?: string },
): Promise<Response> {
  const allowed = [...Object.keys(operations), ...("GET" in operations ? ["HEAD"] : []), "OPTIONS"];
  return only(req, allowed, () => path.handler(ctx, at), path.refusal);
}

/** Answers OPTIONS, refuses a method not in `methods` (405, with `refusal` as its detail when it has more to say), else the handler. */
async function only(req: IRequest, methods: string[], handler: () => Response | Promise<Response>, refusal?: string): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 200, headers: { Allow: methods.join(", ") } });
  if (!methods.includes(req.method)) {
    throw refusal
      ? ApiError.detail("method_not_allowed", refusal, { Allow: methods.join(", ") })
      : ApiError.methodNotAllowed(req.method, methods);
  }
  const response = await handler();
  // Every answer says what the endpoint allows, as the model endpoints' do (the browsable API shows it).
  if (!response.headers.has("Allow")) response.headers.set("Allow", methods.join(", "));
  return response;
}

/** Refuses writes to a model only the engine writes, with 405 and what is allowed. */
function refuseWriteToReadOnly(req: IRequest, model: Model): void {
  if (model.readOnly && !(READ_METHODS as readonly string[]).includes(req.method))
    throw ApiError.methodNotAllowed(req.method, READ_METHODS);
}

async function listEndpoint(req: IRequest, ctx: RequestContext, model: Model): Promise<Response> {
  refuseWriteToReadOnly(req, model);
  const allow = { Allow: (model.readOnly ? READ_METHODS : LIST_METHODS).join(", ") };
  const body = (action: Action) => authorizedBody(ctx, model, action);
  switch (req.method) {
    case "GET":
    case "HEAD": {
      // `?export=<name>`: the list rendered by the export template of that name (NetBox's).
      const exported = ctx.url.searchParams.get("export");
      if (exported !== null) {
        const params = new URLSearchParams(ctx.url.searchParams);
        params.delete("export");
        return exportList(ctx, model, exported, listQueryOf(ctx.config, params));
      }
      const query = listQueryOf(ctx.config, ctx.url.searchParams);
      const listed = await listTexts(ctx, model, query);
      return "texts" in listed
        ? jsonText(paginatedParts(ctx.url, query.page, listed.count, listed.texts), 200, allow)
        : json(paginated(ctx.url, query.page, listed.count, listed.results), 200, allow);
    }
    case "OPTIONS":
      return json(describeEndpoint(ctx, model, { detail: false }), 200, allow);
    case "POST": {
      const input = await body("add");
      const items = Array.isArray(input) ? input : [input];
      const out = await writeObjects(ctx, model, { inputs: items, mode: "create", ids: items.map(() => null), bulk: Array.isArray(input) });
      return json(Array.isArray(input) ? out : out[0], 201, allow);
    }
    case "PUT":
    case "PATCH": {
      const items = asList(await body("change"));
      const ids = bulkIds(ctx, items);
      return json(
        await writeObjects(ctx, model, { inputs: items, mode: req.method === "PUT" ? "put" : "patch", ids, bulk: true }),
        200,
        allow,
      );
    }
    case "DELETE": {
      await deleteObjects(ctx, model, { ids: bulkIds(ctx, asList(await body("delete"))), bulk: true });
      return noContent();
    }
  }
  throw ApiError.methodNotAllowed(req.method, LIST_METHODS);
}

async function detailEndpoint(req: IRequest, ctx: RequestContext, model: Model, id: number): Promise<Response> {
  refuseWriteToReadOnly(req, model);
  const allow = { Allow: (model.readOnly ? READ_METHODS : DETAIL_METHODS).join(", ") };
  switch (req.method) {
    case "GET":
    case "HEAD": {
      const object = await retrieveText(ctx, model, id, selectionOf(ctx.url.searchParams));
      return typeof object === "string" ? jsonText([object], 200, allow) : json(object, 200, allow);
    }
    case "OPTIONS":
      return json(describeEndpoint(ctx, model, { detail: true }), 200, allow);
    case "PUT":
    case "PATCH": {
      const input = await authorizedBody(ctx, model, "change");
      const [out] = await writeObjects(ctx, model, {
        inputs: [input ?? {}],
        mode: req.method === "PUT" ? "put" : "patch",
        ids: [id],
        bulk: false,
      });
      return json(out, 200, allow);
    }
    case "DELETE": {
      authorize(ctx, model, "delete");
      if ((await ctx.body()).trim() !== "") {
        throw ApiError.detail(
          "invalid",
          'A request body is not accepted when deleting a single object. To delete several objects, send a list of {"id": ...} to the list endpoint.',
        );
      }
      await deleteObjects(ctx, model, { ids: [id], bulk: false });
      return noContent();
    }
  }
  throw ApiError.methodNotAllowed(req.method, DETAIL_METHODS);
}

/**
 * The body of a write, read only once the requester may perform `action` on `model`, so an
 * anonymous or read-only client's upload is refused before any of it is read. The engine checks
 * again with the objects in hand.
 */
function authorizedBody(ctx: RequestContext, model: Model, action: Action): Promise<unknown> {
  authorize(ctx, model, action);
  return readJson(ctx);
}

/**
 * A method no endpoint answers (TRACE, CONNECT, anything unknown) is refused before it is
 * redirected, authenticated or routed; Allow lists every method the API answers.
 */
function refuseUnknownMethod(req: IRequest): void {
  if (!(LIST_METHODS as readonly string[]).includes(req.method)) throw ApiError.methodNotAllowed(req.method, LIST_METHODS);
}

/** A path without its trailing slash gets a 302 to the slashed path, query kept (SPEC.md 4). */
function redirectToSlash(_req: IRequest, ctx: RequestContext): Response | undefined {
  const path = ctx.url.pathname;
  if (path === "/") return new Response(null, { status: 302, headers: { Location: `${ctx.origin}/api/` } });
  if (path.endsWith("/") || /\.[a-z0-9]+$/i.test(path)) return undefined;
  return new Response(null, { status: 302, headers: { Location: `${ctx.origin}${path}/${ctx.url.search}` } });
}

/** The one place an error becomes a response; anything but ApiError is logged and masked. */
function errorResponse(thrown: unknown, ctx: RequestContext): Response {
  const error = fromDatabaseError(thrown);
  if (error instanceof ApiError) return json(error.body, error.status, error.headers);
  console.error(`[${ctx.requestId}] ${ctx.request.method} ${ctx.url.pathname}:`, error);
  return json({ detail: `Server error. Quote request id ${ctx.requestId} when reporting it.` }, 500);
}

/**
 * The last stage, for every response: API-Version and X-Request-ID; for a browser, the JSON an
 * endpoint produced (data or error) becomes the browsable API's page; HEAD loses its body.
 */
async function finish(response: Response | undefined, req: IRequest, ctx: RequestContext, registry: Registry): Promise<Response> {
  let out = response ?? json({ detail: "Not found." }, 404);
  out.headers.set("API-Version", ctx.config.API_VERSION);
  out.headers.set("X-Request-ID", ctx.requestId);
  // The same URL answers JSON or a page by Accept: caches must keep them apart.
  out.headers.append("Vary", "Accept");
  if (wantsBrowsable(ctx, out)) out = await browsable(ctx, registry, out);
  if (req.method === "HEAD") {
    // The length the GET would have, as NetBox gives it.
    const made = bodyOf(out);
    if (made !== undefined && !out.headers.has("Content-Length"))
      out.headers.set("Content-Length", String(typeof made === "string" ? utf8.encode(made).byteLength : made.byteLength));
    return new Response(null, { status: out.status, headers: out.headers });
  }
  return out;
}

const utf8 = new TextEncoder();

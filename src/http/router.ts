import { Router, type IRequest } from "itty-router";
import type { Registry } from "../models/registry.ts";
import type { Model } from "../models/model.ts";
import { authenticate } from "../auth/authenticate.ts";
import { authorize, type Action } from "../auth/permissions.ts";
import { provisionToken } from "../auth/provision.ts";
import { asList, bulkIds, deleteObjects, formOf, listObjects, retrieveObject, writeObjects } from "../rest/crud.ts";
import { describeEndpoint } from "../rest/options.ts";
import { represent } from "../rest/serialize.ts";
import type { RequestContext } from "./context.ts";
import { ApiError } from "./errors.ts";
import { readJson, readText } from "./body.ts";
import { checkHost } from "./host.ts";
import { DETAIL_METHODS, json, LIST_METHODS, noContent } from "./responses.ts";
import { apiRoot, apiStatus, appRoot } from "./roots.ts";
import { token as tokenModel } from "../models/users.ts";

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
    before: [checkHost, refuseUnknownMethod, redirectToSlash, async (_req, ctx) => void (await authenticate(ctx))],
    catch: (error, _req, ctx) => errorResponse(error, ctx),
    finally: [(response, req, ctx) => finish(response, req, ctx)],
  });

  const modelOf = (req: IRequest): Model => {
    const model = registry.byPath(req.params.app, req.params.path);
    if (!model) throw ApiError.notFound();
    return model;
  };

  router.all("/api/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(apiRoot(ctx))));
  router.all("/api/status/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(apiStatus(ctx, runtime, release))));
  router.all("/api/users/tokens/provision/", (req, ctx) =>
    only(req, ["POST", "OPTIONS"], async () => json(await represent(ctx, tokenModel, [await provisionToken(ctx, await readJson(req as unknown as Request, ctx.config.MAX_BODY_SIZE))], "full").then((x) => x[0]), 201)),
  );
  router.all("/api/:app/", (req, ctx) => only(req, ["GET", "HEAD", "OPTIONS"], () => json(appRoot(ctx, registry, req.params.app))));
  router.all("/api/:app/:path/", (req, ctx) => listEndpoint(req, ctx, modelOf(req)));
  router.all("/api/:app/:path/:id/", (req, ctx) => detailEndpoint(req, ctx, modelOf(req), req.params.id));
  return router;
}

async function only(req: IRequest, methods: string[], handler: () => Response | Promise<Response>): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 200, headers: { Allow: methods.join(", ") } });
  if (!methods.includes(req.method)) throw ApiError.methodNotAllowed(req.method, methods);
  return handler();
}

async function listEndpoint(req: IRequest, ctx: RequestContext, model: Model): Promise<Response> {
  const allow = { Allow: LIST_METHODS.join(", ") };
  const body = (action: Action) => authorizedBody(req, ctx, model, action);
  switch (req.method) {
    case "GET":
    case "HEAD":
      return json(await listObjects(ctx, model), 200, allow);
    case "OPTIONS":
      return json(describeEndpoint(ctx, model, false), 200, allow);
    case "POST": {
      const input = await body("add");
      const items = Array.isArray(input) ? input : [input];
      const rows = await writeObjects(ctx, model, items, "create", items.map(() => null), Array.isArray(input));
      const out = await represent(ctx, model, rows, "full");
      return json(Array.isArray(input) ? out : out[0], 201, allow);
    }
    case "PUT":
    case "PATCH": {
      const items = asList(await body("change"));
      const ids = bulkIds(items);
      const rows = await writeObjects(ctx, model, items, req.method === "PUT" ? "put" : "patch", ids, true);
      return json(await represent(ctx, model, rows, "full"), 200, allow);
    }
    case "DELETE": {
      await deleteObjects(ctx, model, bulkIds(asList(await body("delete"))), true);
      return noContent();
    }
  }
  throw ApiError.methodNotAllowed(req.method, LIST_METHODS);
}

async function detailEndpoint(req: IRequest, ctx: RequestContext, model: Model, rawId: string): Promise<Response> {
  if (!/^\d+$/.test(rawId)) throw ApiError.notFound();
  const id = Number(rawId);
  const allow = { Allow: DETAIL_METHODS.join(", ") };
  switch (req.method) {
    case "GET":
    case "HEAD":
      return json(await retrieveObject(ctx, model, id), 200, allow);
    case "OPTIONS":
      return json(describeEndpoint(ctx, model, true), 200, allow);
    case "PUT":
    case "PATCH": {
      const input = await authorizedBody(req, ctx, model, "change");
      const [row] = await writeObjects(ctx, model, [input ?? {}], req.method === "PUT" ? "put" : "patch", [id], false);
      return json((await represent(ctx, model, [row], formOf(ctx)))[0], 200, allow);
    }
    case "DELETE": {
      authorize(ctx, model, "delete");
      if ((await readText(req as unknown as Request, ctx.config.MAX_BODY_SIZE)).trim() !== "") {
        throw ApiError.detail("invalid", "A request body is not accepted when deleting a single object. To delete several objects, send a list of {\"id\": ...} to the list endpoint.");
      }
      await deleteObjects(ctx, model, [id], false);
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
function authorizedBody(req: IRequest, ctx: RequestContext, model: Model, action: Action): Promise<unknown> {
  authorize(ctx, model, action);
  return readJson(req as unknown as Request, ctx.config.MAX_BODY_SIZE);
}

/**
 * A method no endpoint answers (TRACE, CONNECT, anything unknown) is refused before it is
 * redirected, authenticated or routed; Allow lists every method the API answers.
 */
function refuseUnknownMethod(req: IRequest): void {
  if (!(LIST_METHODS as readonly string[]).includes(req.method)) throw ApiError.methodNotAllowed(req.method, LIST_METHODS);
}

/** A path without its trailing slash gets a 302 to the slashed path, query kept (SPEC.md 4). */
function redirectToSlash(req: IRequest, ctx: RequestContext): Response | undefined {
  const path = ctx.url.pathname;
  if (path === "/") return new Response(null, { status: 302, headers: { Location: `${ctx.origin}/api/` } });
  if (path.endsWith("/") || /\.[a-z0-9]+$/i.test(path)) return undefined;
  return new Response(null, { status: 302, headers: { Location: `${ctx.origin}${path}/${ctx.url.search}` } });
}

/** The one place an error becomes a response; anything but ApiError is logged and masked. */
function errorResponse(error: unknown, ctx: RequestContext): Response {
  if (error instanceof ApiError) return json(error.body, error.status, error.headers);
  console.error(`[${ctx.requestId}] ${ctx.request.method} ${ctx.url.pathname}:`, error);
  return json({ detail: `Server error. Quote request id ${ctx.requestId} when reporting it.` }, 500);
}

function finish(response: Response | undefined, req: IRequest, ctx: RequestContext): Response {
  const out = response ?? json({ detail: "Not found." }, 404);
  out.headers.set("API-Version", ctx.config.API_VERSION);
  out.headers.set("X-Request-ID", ctx.requestId);
  if (req.method === "HEAD") return new Response(null, { status: out.status, headers: out.headers });
  return out;
}

import type { Registry } from "../schema/shapes.ts";
import type { RequestContext } from "./context.ts";
import { ApiError } from "../schema/errors.ts";
import { executeGraphql, type GraphRequest } from "../graphql/execute.ts";
import { requireLogin } from "../engine/permissions.ts";
import { jsonText } from "../lib/responses.ts";

/**
 * `/graphql/`, GraphQL over HTTP: POST a JSON body `{query, variables, operationName}`, or GET
 * with `?query=` (and `variables` as JSON, `operationName`); the answer is `{data, errors}` as
 * JSON with status 200, errors in the query included, as NetBox answers. The requester is
 * authenticated as for REST and sees what REST would show them.
 */
export async function graphqlEndpoint(ctx: RequestContext, registry: Registry): Promise<Response> {
  requireLogin(ctx);
  const request = ctx.method === "POST" ? requestOfBody(await ctx.json()) : requestOfQuery(ctx.url.searchParams);
  const parts = await executeGraphql(registry, ctx, request);
  return ctx.method === "HEAD" ? new Response(null, { status: 200, headers: { "Content-Type": "application/json" } }) : jsonText(parts);
}

const refused = (message: string) => ApiError.invalid({ non_field_errors: [message] });

function requestOfBody(body: unknown): GraphRequest {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw refused("The body must be a JSON object with a query.");
  const { query, variables, operationName } = body as Record<string, unknown>;
  return checked(query, variables, operationName);
}

function requestOfQuery(params: URLSearchParams): GraphRequest {
  const variables = params.get("variables");
  let parsed: unknown = null;
  if (variables) {
    try {
      parsed = JSON.parse(variables);
    } catch {
      throw refused("Variables are invalid JSON.");
    }
  }
  return checked(params.get("query"), parsed, params.get("operationName"));
}

function checked(query: unknown, variables: unknown, operationName: unknown): GraphRequest {
  if (typeof query !== "string" || query.trim() === "") throw refused("Must provide query string.");
  if (variables !== null && variables !== undefined && (typeof variables !== "object" || Array.isArray(variables)))
    throw refused("Variables must be a JSON object.");
  if (operationName !== null && operationName !== undefined && typeof operationName !== "string")
    throw refused("operationName must be a string.");
  return {
    query,
    variables: (variables as Record<string, unknown> | null | undefined) ?? null,
    operationName: (operationName as string | null | undefined) || null,
  };
}

import type { Config } from "../config.ts";
import type { ListQuery, Selection } from "../engine/crud.ts";
import { RESERVED } from "../engine/filters.ts";
import { parsePage } from "../lib/pagination.ts";

/*
 * A request's query string as what the engine's reads take: the HTTP side of `listObjects` and
 * `retrieveObject`, which never see the URL themselves.
 */

/** A comma-separated parameter's non-empty items (its first value, as NetBox reads it). */
const items = (params: URLSearchParams, name: string): string[] =>
  (params.get(name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * What a read renders: `?fields=a,b` (only those; brief and omit are then ignored), `?brief=`
 * (any non-empty value, as NetBox), `?omit=a,b` (all but those; NetBox 4.6) and
 * `?exclude=config_context`.
 */
export function selectionOf(params: URLSearchParams): Selection {
  const omit = items(params, "omit");
  if ((params.get("exclude") ?? "").includes("config_context")) omit.push("config_context");
  return { fields: items(params, "fields"), brief: Boolean(params.get("brief")), omit };
}

/**
 * A list request's query string as a ListQuery: `limit`/`offset` (see `parsePage`), `ordering`,
 * the selection, and every other parameter as a filter (`format` and the others of RESERVED are
 * the API's own, never filters), refused when unknown under STRICT_FILTERING.
 */
export function listQueryOf(config: Config, params: URLSearchParams): ListQuery {
  return {
    filters: [...params].filter(([name]) => !RESERVED.has(name)),
    ordering: params.get("ordering"),
    page: parsePage(config, params),
    selection: selectionOf(params),
    strict: config.STRICT_FILTERING,
  };
}

import type { Config } from "../config.ts";
import type { JsonPart } from "./json-text.ts";

/** A page request: `limit` null means every match (only when MAX_PAGE_SIZE is 0). */
export interface Page {
  readonly limit: number | null;
  readonly offset: number;
}

/**
 * A non-negative integer parameter, or null when absent or invalid. Values beyond 2^53 (a client
 * sending 9223372036854775807) are clamped rather than passed on as floats SQLite refuses.
 */
const nonNegative = (raw: string | null): number | null =>
  raw !== null && /^\d+$/.test(raw.trim()) ? Math.min(Number(raw), Number.MAX_SAFE_INTEGER) : null;

/** The `limit` and `offset` a request asks for: null where absent or invalid. */
export interface PageRequest {
  readonly limit: number | null;
  readonly offset: number | null;
}

/**
 * The page NetBox serves for what was asked: a missing limit falls back to the default, a limit
 * above MAX_PAGE_SIZE is clamped, and `limit=0` means "all", which is itself capped at
 * MAX_PAGE_SIZE unless that is 0; a missing offset is 0.
 */
export function pageOf(config: Config, asked: PageRequest): Page {
  const max = config.MAX_PAGE_SIZE;
  const cap = (n: number) => (max > 0 ? Math.min(n, max) : n);
  const limit = asked.limit === null ? cap(config.PAGINATE_COUNT) : asked.limit === 0 ? (max > 0 ? max : null) : cap(asked.limit);
  return { limit, offset: asked.offset ?? 0 };
}

/** `limit` and `offset` as NetBox reads them from a query string (an invalid value counts as absent; see `pageOf`). */
export function parsePage(config: Config, params: URLSearchParams): Page {
  return pageOf(config, { limit: nonNegative(params.get("limit")), offset: nonNegative(params.get("offset")) });
}

/** `url` with `limit` and `offset` set (or offset dropped), other parameters kept, keys sorted as DRF does. */
function pageUrl(url: URL, limit: number, offset: number): string {
  const params = new URLSearchParams(url.search);
  params.set("limit", String(limit));
  if (offset > 0) params.set("offset", String(offset));
  else params.delete("offset");
  params.sort();
  return `${url.origin}${url.pathname}?${params.toString()}`;
}

/** The list envelope of SPEC.md 4.4: count, next, previous (absolute URLs) and results. */
export function paginated(url: URL, page: Page, count: number, results: unknown[]) {
  const { limit, offset } = page;
  if (limit === null) return { count, next: null, previous: null, results };
  return {
    count,
    next: offset + limit < count ? pageUrl(url, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(url, limit, Math.max(0, offset - limit)) : null,
    results,
  };
}

/**
 * `paginated` as the parts of its JSON text, the results given as the JSON text of each object
 * (written by SQLite: src/engine/final-json.ts) or as all of them joined by commas, in text or
 * UTF-8 bytes; joined, the parts are `JSON.stringify` of the envelope.
 */
export function paginatedParts(url: URL, page: Page, count: number, results: readonly string[] | string | Uint8Array): JsonPart[] {
  const head = JSON.stringify(paginated(url, page, count, []));
  const parts: JsonPart[] = [head.slice(0, -2)];
  if (typeof results === "string" || results instanceof Uint8Array) {
    if (results.length) parts.push(results);
  } else {
    // The comma apart: joined to a row's text it would make a new string of the row (its copy, once flattened to be written).
    results.forEach((text, i) => (i ? parts.push(",", text) : parts.push(text)));
  }
  parts.push("]}");
  return parts;
}

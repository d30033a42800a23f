import type { IRequest } from "itty-router";
import type { RequestContext } from "./context.ts";
import { ApiError, pythonRepr } from "../schema/errors.ts";

/**
 * Django's host_validation_re (a DNS name or a bracketed IPv6 address, then an optional port),
 * with `_` allowed in names because container service names use it.
 */
const HOST_SHAPE = /^([a-z0-9_.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::(\d{1,5}))?$/i;

/** The host the client addressed: the Host header, else the runtime's URL (HTTP/1.0, HTTP/2). */
function requestedHost(request: Request): string {
  return request.headers.get("Host") ?? new URL(request.url).host;
}

/**
 * Why `host` is refused, in Django's words (HttpRequest.get_host), or null when it is well-formed
 * and allowed. The name is matched without port and trailing dot, case-insensitively: `*`, the
 * exact name, or `.example.com` for example.com and its subdomains.
 */
export function hostProblem(host: string, allowed: readonly string[]): string | null {
  const match = HOST_SHAPE.exec(host);
  // The URL check catches names WHATWG URL refuses, such as 1.2.3.4.5 (read as a bad IPv4).
  if (!match || Number(match[2] ?? 0) > 65535 || !URL.canParse(`http://${host}/`)) {
    return `Invalid HTTP_HOST header: ${pythonRepr(host)}. The domain name provided is not valid according to RFC 1034/1035.`;
  }
  const name = match[1].toLowerCase().replace(/\.$/, "");
  const allows = (pattern: string) => {
    const p = pattern.toLowerCase();
    return p === "*" || p === name || (p.startsWith(".") && (name.endsWith(p) || name === p.slice(1)));
  };
  if (allowed.some(allows)) return null;
  return `Invalid HTTP_HOST header: ${pythonRepr(host)}. You may need to add ${pythonRepr(name)} to ALLOWED_HOSTS.`;
}

/**
 * The request URL as the client addressed it: the runtime's scheme, path and query on the
 * validated host, so `url`, `next`, `previous` and `Location` never carry a host that
 * ALLOWED_HOSTS refuses. A refused host keeps the runtime's URL; `checkHost`, the pipeline's
 * first stage, then answers 400 before anything is built from it.
 */
export function requestUrl(request: Request, allowed: readonly string[]): URL {
  const url = new URL(request.url);
  const host = requestedHost(request);
  if (hostProblem(host, allowed) !== null) return url;
  // Concatenated, not resolved against a base: a path such as //x must stay a path.
  return new URL(`${url.protocol}//${host}${url.pathname}${url.search}`);
}

/** Pipeline stage: 400 unless the request's host is well-formed and in ALLOWED_HOSTS. */
export function checkHost(_req: IRequest, ctx: RequestContext): void {
  const problem = hostProblem(requestedHost(ctx.request), ctx.config.ALLOWED_HOSTS);
  if (problem !== null) throw ApiError.detail("invalid", problem);
}

import { jsonParts, utf8Bytes } from "./json-text.ts";

/** The body each JSON response was made with, so an adapter that writes bytes need not read it back. */
const bodies = new WeakMap<Response, string | Uint8Array>();

/**
 * A JSON response. A long answer (a page of rows) is serialized in parts and encoded to UTF-8 as
 * it is (json-text.ts says why); a short one stays text.
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const parts = jsonParts(body);
  const payload = parts.length === 1 ? parts[0] : utf8Bytes(parts);
  const response = new Response(payload as BodyInit, { status, headers: { "Content-Type": "application/json", ...headers } });
  bodies.set(response, payload);
  return response;
}

/**
 * The text or bytes `json` made `response` with, while its body is unread; otherwise undefined.
 * Reading a body back through its stream cost node:http's adapter as much as building the answer
 * did. Bytes are the response's own: nothing else holds them.
 */
export const bodyOf = (response: Response): string | Uint8Array | undefined => (response.bodyUsed ? undefined : bodies.get(response));

/** 204 with an empty body. */
export const noContent = (): Response => new Response(null, { status: 204 });

export const LIST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export const DETAIL_METHODS = ["GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** The text each JSON response was made with, so an adapter that writes text need not read the body back. */
const texts = new WeakMap<Response, string>();

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { "Content-Type": "application/json", ...headers } });
  texts.set(response, text);
  return response;
}

/**
 * The text `json` made `response` with, while its body is unread; otherwise undefined. Reading a
 * body back through its stream cost node:http's adapter as much as building the answer did.
 */
export const textOf = (response: Response): string | undefined => (response.bodyUsed ? undefined : texts.get(response));

/** 204 with an empty body. */
export const noContent = (): Response => new Response(null, { status: 204 });

export const LIST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export const DETAIL_METHODS = ["GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

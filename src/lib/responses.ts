/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** 204 with an empty body. */
export const noContent = (): Response => new Response(null, { status: 204 });

export const LIST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export const DETAIL_METHODS = ["GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

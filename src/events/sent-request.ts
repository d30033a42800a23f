/**
 * What a delivery keeps of the request an attempt rendered, for the administrator and for API
 * clients to inspect: method, URL, headers and the start of the body. Nothing secret is kept:
 * values that may carry credentials are masked here, before anything is stored. The signing
 * secret never appears in a request; its signatures (`X-Hook-Signature`, `webhook-signature`)
 * prove nothing without it and stay visible, so a receiver's check can be compared with them.
 */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The part of the body kept. */
export const REQUEST_BODY_EXCERPT = 4096;

const MASK = "********";

/**
 * Header and query names whose values may carry credentials: `Authorization` and
 * `Proxy-Authorization` (by "auth"), `Cookie`, and any name mentioning a token, key, secret,
 * password, session or credential.
 */
const SECRET_NAME = /token|secret|key|password|passwd|auth|cookie|session|credential/i;

const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/** The URL with its user information and secret-looking query parameters masked; an unparsable URL is kept to its first 200 characters. */
function maskedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.slice(0, 200);
  }
  if (url.username) url.username = MASK;
  if (url.password) url.password = MASK;
  for (const name of [...new Set(url.searchParams.keys())]) if (isSecretName(name)) url.searchParams.set(name, MASK);
  return url.toString();
}

/** The record of one rendered request, masked and capped. */
export function sentRequest(method: string, url: string, headers: Headers, body: string): SentRequest {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) kept[name] = isSecretName(name) ? MASK : value;
  return { method, url: maskedUrl(url), headers: kept, body: method === "GET" ? "" : body.slice(0, REQUEST_BODY_EXCERPT) };
}

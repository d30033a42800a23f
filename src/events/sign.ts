/**
 * Signatures of an outgoing webhook: NetBox's `X-Hook-Signature` (hex HMAC-SHA512 of the exact
 * body, keyed by the secret) and the replay-safe Standard Webhooks headers (`webhook-id`, stable
 * across retries; `webhook-timestamp`; `webhook-signature`: `v1,` + base64 HMAC-SHA256 over
 * `id.timestamp.body`). A `whsec_`-prefixed secret is base64 key material, as Standard Webhooks
 * libraries read it; any other secret is used as its UTF-8 bytes.
 */
import { encoder, fromBase64, toBase64, toHex } from "../lib/crypto.ts";

async function hmac(hash: "SHA-256" | "SHA-512", key: Uint8Array, data: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(data)));
}

function standardKey(secret: string): Uint8Array {
  if (!secret.startsWith("whsec_")) return encoder.encode(secret);
  return fromBase64(secret.slice(6));
}

/** The signing headers of one attempt. */
export async function signatureHeaders(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { "webhook-id": messageId, "webhook-timestamp": String(timestamp) };
  if (!secret) return headers;
  headers["X-Hook-Signature"] = toHex(await hmac("SHA-512", encoder.encode(secret), body));
  headers["webhook-signature"] = `v1,${toBase64(await hmac("SHA-256", standardKey(secret), `${messageId}.${timestamp}.${body}`))}`;
  return headers;
}

import { jsonParts, utf8Bytes, type JsonPart } from "./json-text.ts";
import { freeBuffer, wholeBuffer } from "./buffers.ts";

/** The body each JSON response was made with, so an adapter that writes bytes need not read it back. */
const bodies = new WeakMap<Response, string | Uint8Array<ArrayBuffer>>();

/**
 * A JSON response. A long answer (a page of rows) is serialized in parts and encoded to UTF-8 as
 * it is (json-text.ts says why), then given to the response as a stream of that one chunk: a
 * `Response` copies bytes it is given (4-5 ms for a 1.3 MB page on Node, measured), and node:http's
 * adapter writes the bytes themselves (`bodyOf`). A short answer stays text (TEXT_CHARS).
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(jsonParts(body), status, headers);
}

/**
 * A JSON response of text already made, in parts that joined are the answer (GraphQL's, whose
 * parts SQLite wrote), kept and handed over as `json` keeps its own: never joined, a long one
 * encoded once into the bytes node:http writes. As `new Response(text)`, a 1.3 MB answer was
 * encoded by the Response and read back through its stream.
 */
export function jsonText(parts: readonly JsonPart[], status = 200, headers: Record<string, string> = {}): Response {
  const payload = jsonPayload(parts);
  const init = { status, headers: { "Content-Type": "application/json", ...headers } };
  const response = new Response(typeof payload === "string" ? payload : oneChunk(payload), init);
  bodies.set(response, payload);
  return response;
}

/**
 * Answers shorter than this many characters stay text; longer ones are encoded into bytes of their
 * own at once. node:http writes a text answer as its headers joined to the text, copied out of the
 * heap to be sent: past a few pages of text, a copy the heap collects later (the joined text) and
 * a buffer the write allocates anyway. Encoded here, the answer's bytes live outside the heap and
 * are freed as soon as they are written (node-http.ts), and the parts are never joined. Under 16
 * clients reading 50-site pages (42 KB) while app threads served, the HTTP thread ran a scavenge
 * every 4 ms and a full collection every 75 ms with text answers: 2,060-2,340 pages a second and
 * 690-790 us of CPU a page against 2,720-3,390 and 460-560 us as bytes (interleaved runs, wrk);
 * a site's detail (1 KB) or a brief page (6 KB) cost 10-20 % more as bytes, the buffer's own
 * price. Workers and Deno take either.
 */
export const TEXT_CHARS = 16 * 1024;

/**
 * JSON text in parts as an answer's body: one text when short, else its UTF-8 bytes (never
 * joined). Parts already in bytes (a long page, native-connection.ts) make the answer bytes, and
 * are used up: once copied into the answer their memory is released (ES2024's `transfer`), not
 * left for the collector. V8 counts such memory apart from its heap and collects for it only past
 * tens of megabytes: under 8 clients reading pages of 1,000 sites (850 KB) the service's peak
 * RSS was 298-301 MB with the pages' bytes left to it, against 228-229 with the pages as text.
 */
export function jsonPayload(parts: readonly JsonPart[]): string | Uint8Array<ArrayBuffer> {
  let chars = 0;
  let text = true;
  for (const part of parts) {
    chars += part.length;
    text &&= typeof part === "string";
  }
  if (chars < TEXT_CHARS && text) return parts.length === 1 ? (parts[0] as string) : parts.join("");
  const bytes = utf8Bytes(parts);
  for (const part of parts) {
    const whole = typeof part === "string" ? null : wholeBuffer(part);
    if (whole) freeBuffer(whole);
  }
  return bytes;
}

const oneChunk = (bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> =>
  new ReadableStream({
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

/**
 * The text or bytes `json` made `response` with, while its body is unread; otherwise undefined.
 * Reading a body back through its stream cost node:http's adapter as much as building the answer
 * did. Bytes are the response's own: nothing else holds them.
 */
export const bodyOf = (response: Response): string | Uint8Array<ArrayBuffer> | undefined =>
  response.bodyUsed ? undefined : bodies.get(response);

/**
 * The response as a runtime that writes web responses (Workers, Deno) should get it: a long JSON
 * answer with its bytes as the body, so it goes out with its Content-Length rather than chunked.
 */
export function withLength(response: Response): Response {
  const made = bodyOf(response);
  return made instanceof Uint8Array ? new Response(made, response) : response;
}

/** 204 with an empty body. */
export const noContent = (): Response => new Response(null, { status: 204 });

export const LIST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export const DETAIL_METHODS = ["GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
/** The methods a read-only model (change records, deliveries) answers on its list and detail paths. */
export const READ_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

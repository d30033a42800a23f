import { ApiError } from "../schema/errors.ts";
import type { RequestContext } from "./context.ts";

const JSON_TYPES = /^(application\/json|application\/[\w.+-]*\+json|application\/x-www-form-urlencoded|text\/json)\b/i;

const tooLarge = (maxBytes: number) => ApiError.detail("payload_too_large", `Request body is larger than ${maxBytes} bytes.`);

/**
 * The decoder for the charset the body declares (UTF-8 when it declares none). Django decodes a
 * declared charset it knows, so a body sent as `charset=iso-8859-1` or `utf-16` means what its
 * sender meant; one this runtime's TextDecoder does not know is refused with 415, not read as
 * UTF-8 into different text.
 */
function decoderFor(request: Request): TextDecoder {
  const type = request.headers.get("Content-Type") ?? "";
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type)?.[1];
  if (charset === undefined) return new TextDecoder();
  try {
    return new TextDecoder(charset);
  } catch {
    throw ApiError.detail("unsupported_media_type", `Unsupported media type "${type.trim()}" in request.`);
  }
}

/**
 * The request body as text, in its declared charset (decoderFor), refused with 413 once it is
 * larger than `maxBytes` (MAX_BODY_SIZE): from Content-Length before anything is read, then by counting bytes as the stream arrives, for
 * a body sent without Content-Length or with a wrong one, as Hono's bodyLimit does. Only what has
 * arrived is held, and reading stops at the limit, so a huge upload never sits in memory.
 */
async function readText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get("Content-Length")) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const decoder = decoderFor(request);
  const reader = request.body.getReader();
  let size = 0;
  let text = "";
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-upload: its fault, not the server's, so no 500 and no error log.
      throw ApiError.detail("malformed", "The request body was not received in full.");
    }
    if (chunk.done) return text + decoder.decode();
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      // Not awaited: the source may be slow to wind down, and the answer does not depend on it.
      void reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/**
 * The pipeline's reader of a request's body (`RequestContext.body`): the stream is read on the
 * first call, within `maxBytes`, and every later call answers what that one read (or its 413).
 * A request served again (stale cached credentials, a cached refusal re-checked) reads the same
 * body: a stream can be read only once, and a second read answered 500 "ReadableStream is locked".
 * Lazy, so a body is read only once authentication and permissions let the request that far.
 */
export function bodyOnce(request: Request, maxBytes: number): () => Promise<string> {
  let text: Promise<string> | undefined;
  return () => (text ??= readText(request, maxBytes));
}

/**
 * The request body as JSON (see bodyOnce). A body sent by `curl -d` without a Content-Type
 * (form-encoded) is still read as JSON, because that is what users of this API mean; other
 * types get 415. Returns undefined for an empty body.
 */
export async function readJson(ctx: RequestContext): Promise<unknown> {
  const text = await ctx.body();
  if (text.trim() === "") return undefined;
  const type = ctx.request.headers.get("Content-Type");
  if (type && !JSON_TYPES.test(type.trim())) {
    throw ApiError.detail("unsupported_media_type", `Unsupported media type "${type.split(";")[0].trim()}" in request.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw ApiError.detail("malformed", `JSON parse error - ${(error as Error).message}`);
  }
}

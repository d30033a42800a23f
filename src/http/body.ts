import { ApiError } from "../schema/errors.ts";
import type { Upload } from "../lib/file-store.ts";
import { readUpTo } from "../lib/read-bytes.ts";
import type { RequestContext } from "./context.ts";

const JSON_TYPES = /^(application\/json|application\/[\w.+-]*\+json|application\/x-www-form-urlencoded|text\/json)\b/i;
const MULTIPART = /^multipart\/form-data\b/i;

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
 * The request body's bytes, refused with 413 once it is larger than `maxBytes` (MAX_BODY_SIZE):
 * from Content-Length before anything is read, then by counting bytes as the stream arrives, for
 * a body sent without Content-Length or with a wrong one, as Hono's bodyLimit does. Reading stops
 * at the limit, so a huge upload never sits in memory.
 */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get("Content-Length")) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  let bytes: Uint8Array | null;
  try {
    bytes = await readUpTo(request.body, maxBytes);
  } catch {
    // The client went away mid-upload: its fault, not the server's, so no 500 and no error log.
    throw ApiError.detail("malformed", "The request body was not received in full.");
  }
  if (!bytes) throw tooLarge(maxBytes);
  return bytes;
}

/** What the pipeline reads of a request's body: its bytes (uploads), or its text in the declared charset. */
export interface BodyReader {
  readonly bytes: () => Promise<Uint8Array>;
  readonly text: () => Promise<string>;
}

/**
 * The pipeline's reader of a request's body (`RequestContext.body` and `.bytes`): the stream is
 * read on the first call, within `maxBytes`, and every later call answers what that one read (or
 * its 413). A request served again (stale cached credentials, a cached refusal re-checked) reads
 * the same body: a stream can be read only once, and a second read answered 500 "ReadableStream
 * is locked". Lazy, so a body is read only once authentication and permissions let the request
 * that far. The text is decoded in the charset the body declares (decoderFor).
 */
export function bodyOnce(request: Request, maxBytes: number): BodyReader {
  let bytes: Promise<Uint8Array> | undefined;
  let text: Promise<string> | undefined;
  const read = () => (bytes ??= readBytes(request, maxBytes));
  return {
    bytes: read,
    text: () =>
      (text ??= (async () => {
        const decoder = decoderFor(request);
        return decoder.decode(await read());
      })()),
  };
}

/**
 * The request body as JSON (see bodyOnce). A body sent by `curl -d` without a Content-Type
 * (form-encoded) is still read as JSON, because that is what users of this API mean; other
 * types get 415. Returns undefined for an empty body. A multipart/form-data body (how NetBox takes
 * image uploads) reads as an object of its fields (readForm).
 */
export async function readJson(ctx: RequestContext): Promise<unknown> {
  const type = ctx.request.headers.get("Content-Type");
  if (type && MULTIPART.test(type.trim())) return readForm(ctx, type);
  const text = await ctx.body();
  if (text.trim() === "") return undefined;
  if (type && !JSON_TYPES.test(type.trim())) {
    throw ApiError.detail("unsupported_media_type", `Unsupported media type "${type.split(";")[0].trim()}" in request.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw ApiError.detail("malformed", `JSON parse error - ${(error as Error).message}`);
  }
}

/**
 * A multipart/form-data body as the object a JSON body would give: each field's text, a field
 * sent more than once as a list, and each file as an `Upload` with its bytes (the whole body is
 * within MAX_BODY_SIZE). Parsed by the runtime's own `Response.formData()`, on every runtime.
 */
async function readForm(ctx: RequestContext, type: string): Promise<Record<string, unknown>> {
  const bytes = await ctx.bytes();
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "Content-Type": type } }).formData();
  } catch (error) {
    throw ApiError.detail("malformed", `Multipart form parse error - ${(error as Error).message}`);
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const key of new Set(form.keys())) {
    const values = await Promise.all(form.getAll(key).map(formValue));
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

async function formValue(value: FormDataEntryValue): Promise<string | Upload> {
  if (typeof value === "string") return value;
  return { upload: true, filename: value.name, contentType: value.type, data: new Uint8Array(await value.arrayBuffer()) };
}

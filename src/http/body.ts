import { ApiError } from "./errors.ts";

const JSON_TYPES = /^(application\/json|application\/[\w.+-]*\+json|application\/x-www-form-urlencoded|text\/json)\b/i;

/** Upper bound on a request body; a larger one is refused before it is parsed. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The request body as JSON. A body sent by `curl -d` without a Content-Type (form-encoded) is
 * still read as JSON, because that is what users of this API mean; other types get 415.
 * Returns undefined for an empty body.
 */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return undefined;
  if (text.length > MAX_BODY_BYTES) throw ApiError.detail("invalid", `Request body larger than ${MAX_BODY_BYTES} bytes.`);
  const type = request.headers.get("Content-Type");
  if (type && !JSON_TYPES.test(type.trim())) {
    throw ApiError.detail("unsupported_media_type", `Unsupported media type "${type.split(";")[0].trim()}" in request.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw ApiError.detail("malformed", `JSON parse error - ${(error as Error).message}`);
  }
}

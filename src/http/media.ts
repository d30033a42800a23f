import type { RequestContext } from "./context.ts";
import { ApiError } from "../schema/errors.ts";
import { isSafeFileName } from "../lib/file-store.ts";
import { requireLogin } from "../engine/permissions.ts";

/**
 * GET `/media/<folder>/<file>`: an uploaded file (an image attachment's or a device type's image),
 * as the URL in its object shows it. Signed-in requesters only while LOGIN_REQUIRED is on (a
 * browser's session cookie or a token), as NetBox's media files; served as an image that cannot
 * run anything (`nosniff`, a CSP that allows nothing).
 */
export async function mediaFile(ctx: RequestContext, name: string): Promise<Response> {
  requireLogin(ctx);
  const file = isSafeFileName(name) && ctx.files ? await ctx.files.get(name) : null;
  if (!file) throw ApiError.notFound();
  return new Response(file.data as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      // The name changes with the content (a new upload gets a new name).
      "Cache-Control": "private, max-age=86400",
    },
  });
}

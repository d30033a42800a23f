import { ADMIN_CSS } from "./static/admin-css.ts";
import { ADMIN_JS } from "./static/admin-js.ts";
import { APP_CSS } from "./static/app-css.ts";
import { APP_JS } from "./static/app-js.ts";
import { SWAGGER_INIT_JS } from "./static/swagger-init-js.ts";

/**
 * Reads one file of the `swagger-ui-dist` package: from the package directory on Node and Deno,
 * from Workers static assets (wrangler.toml `[assets]`) on Workers. Null when there is no such file.
 */
export type AssetSource = (file: string) => Promise<Response | null>;

/** The installed swagger-ui-dist; part of its asset URLs, so a new version is never served from a stale cache. */
export const SWAGGER_UI_VERSION = "5.35.0";

/** The swagger-ui-dist files a page may load; nothing else of the package (its demo page, source maps) is served. */
const SWAGGER_FILES = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"]);

/** This service's own scripts and styles. No inline code anywhere: the pages' CSP allows only files of this origin. */
const UI_FILES: Record<string, string> = {
  "app.css": APP_CSS,
  "app.js": APP_JS,
  "swagger-init.js": SWAGGER_INIT_JS,
  "admin.css": ADMIN_CSS,
  "admin.js": ADMIN_JS,
};

const CONTENT_TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  png: "image/png",
};

const IMMUTABLE = "public, max-age=31536000, immutable";

/** FNV-1a, enough to tell versions of a file apart in its URL. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

const fingerprints = new Map(Object.entries(UI_FILES).map(([name, text]) => [name, fingerprint(text)]));

/** The URL of one of this service's own files; it changes whenever the file does, so it may be cached for good. */
export function assetUrl(name: string): string {
  if (!fingerprints.has(name)) throw new Error(`no UI asset ${name}`);
  return `/static/ui/${fingerprints.get(name)}/${name}`;
}

/** The URL of a swagger-ui-dist file. */
export const swaggerAssetUrl = (file: string): string => `/static/swagger-ui/${SWAGGER_UI_VERSION}/${file}`;

const typeOf = (name: string) => CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";

function asset(body: BodyInit | null, name: string, request: Request): Response {
  const headers = { "Content-Type": typeOf(name), "Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff" };
  if (request.method === "HEAD") body = null;
  return new Response(body, { status: 200, headers });
}

const notFound = () =>
  new Response(JSON.stringify({ detail: "Not found." }), { status: 404, headers: { "Content-Type": "application/json" } });

/**
 * Serves `/static/...` before the API pipeline (no authentication, no database):
 * `/static/ui/<fingerprint>/<name>` and `/static/swagger-ui/<version>/<file>`, GET and HEAD only.
 * A URL of another fingerprint or version is not found rather than answered with other content
 * under a long-lived cache.
 */
export async function serveStatic(request: Request, url: URL, source: AssetSource | null): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(JSON.stringify({ detail: `Method "${request.method}" not allowed.` }), {
      status: 405,
      headers: { "Content-Type": "application/json", Allow: "GET, HEAD" },
    });
  }
  const [, , area, version, name, ...rest] = url.pathname.split("/");
  if (rest.length || !name) return notFound();
  if (area === "ui" && fingerprints.get(name) === version) return asset(UI_FILES[name], name, request);
  if (area === "swagger-ui" && version === SWAGGER_UI_VERSION && SWAGGER_FILES.has(name) && source) {
    const file = await source(name);
    if (file?.ok) return asset(file.body, name, request);
  }
  return notFound();
}

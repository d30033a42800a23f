import { ADMIN_CSS } from "./static/admin-css.ts";
import { ADMIN_JS } from "./static/admin-js.ts";
import { APP_CSS } from "./static/app-css.ts";
import { APP_JS } from "./static/app-js.ts";
import { GRAPHIQL_CSS } from "./static/graphiql-css.ts";
import { GRAPHIQL_INIT_JS } from "./static/graphiql-init-js.ts";
import { SWAGGER_INIT_JS } from "./static/swagger-init-js.ts";

/**
 * Reads one file of an installed package by its path there (`<package>/<path in the package>`):
 * from the package directory on Node and Deno, from Workers static assets (wrangler.toml
 * `[assets]`, a folder `scripts/worker-assets.ts` fills with the files of VENDOR_FILES) on
 * Workers. Null when there is no such file.
 */
export type AssetSource = (path: string) => Promise<Response | null>;

/** A package whose prebuilt browser files pages load, served as `/static/<area>/<version>/<file>`. */
export interface VendorFiles {
  /** The npm package the files come from. */
  readonly package: string;
  /** The installed version (package.json pins it exactly); part of the URLs, so a new version is never served from a stale cache. */
  readonly version: string;
  /** The files a page may load, by their name in the URL, with their path in the package. Nothing else of the package is served. */
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Other projects' browser files the pages load, by the area of their URLs: Swagger UI's, and
 * GraphiQL's (its UMD bundle, which needs React 18's UMD builds as the globals `React` and
 * `ReactDOM`). Their demo pages, source maps and package metadata are never served.
 */
export const VENDOR_FILES = {
  "swagger-ui": {
    package: "swagger-ui-dist",
    version: "5.35.0",
    files: {
      "swagger-ui.css": "swagger-ui.css",
      "swagger-ui-bundle.js": "swagger-ui-bundle.js",
      "favicon-32x32.png": "favicon-32x32.png",
      "favicon-16x16.png": "favicon-16x16.png",
    },
  },
  graphiql: {
    package: "graphiql",
    version: "4.1.2",
    files: { "graphiql.min.css": "graphiql.min.css", "graphiql.min.js": "graphiql.min.js" },
  },
  react: { package: "react", version: "18.3.1", files: { "react.production.min.js": "umd/react.production.min.js" } },
  "react-dom": { package: "react-dom", version: "18.3.1", files: { "react-dom.production.min.js": "umd/react-dom.production.min.js" } },
} as const satisfies Record<string, VendorFiles>;

type VendorArea = keyof typeof VENDOR_FILES;

/** This service's own scripts and styles. No inline code anywhere: the pages' CSP allows only files of this origin. */
const UI_FILES: Record<string, string> = {
  "app.css": APP_CSS,
  "app.js": APP_JS,
  "swagger-init.js": SWAGGER_INIT_JS,
  "admin.css": ADMIN_CSS,
  "admin.js": ADMIN_JS,
  "graphiql.css": GRAPHIQL_CSS,
  "graphiql-init.js": GRAPHIQL_INIT_JS,
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

/** The URL of one of another project's files (VENDOR_FILES), e.g. `vendorAssetUrl("graphiql", "graphiql.min.js")`. */
export function vendorAssetUrl<A extends VendorArea>(area: A, file: keyof (typeof VENDOR_FILES)[A]["files"] & string): string {
  return `/static/${area}/${VENDOR_FILES[area].version}/${file}`;
}

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
 * `/static/ui/<fingerprint>/<name>` and `/static/<area>/<version>/<file>` (VENDOR_FILES), GET and HEAD only.
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
  const vendor: VendorFiles | undefined = Object.hasOwn(VENDOR_FILES, area) ? VENDOR_FILES[area as VendorArea] : undefined;
  if (vendor && version === vendor.version && Object.hasOwn(vendor.files, name) && source) {
    const file = await source(`${vendor.package}/${vendor.files[name]}`);
    if (file?.ok) return asset(file.body, name, request);
  }
  return notFound();
}

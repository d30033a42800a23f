import { APPS, type AppName, type Registry } from "../schema/shapes.ts";
import type { RequestContext } from "./context.ts";
import { ApiError } from "../schema/errors.ts";
import { APP_PATHS } from "../apps/index.ts";
import { requireLogin, requireUser } from "../engine/permissions.ts";
import { byCodeUnits } from "../lib/code-order.ts";

/**
 * GET /api/: every application and the status endpoint, as absolute URLs, sorted. It answers
 * anyone, as the app roots do: it holds no data, and pynetbox before 7.3 (Debian's) and the
 * Ansible collection read `API-Version` from it without sending their token.
 */
export function apiRoot({ origin }: { readonly origin: string }) {
  return Object.fromEntries(ROOT_NAMES.map((name) => [name, `${origin}/api/${name}/`]));
}

/** What the API root lists, sorted once: it is the one answer every client asks for first. */
const ROOT_NAMES = [...APPS, "status"].sort(byCodeUnits);

/** Paths an app root lists that no model serves (NetBox's `users/config/`). */
const OWN_PATHS: readonly { app: AppName; path: string }[] = [
  { app: "users", path: "config" },
  ...APP_PATHS.map((p) => ({ app: p.app, path: p.path })),
];

/**
 * GET /api/<app>/: every list path the app serves, sorted, as absolute URLs: its models' and the
 * aliases other apps' models are also served under (`extras/object-changes`, NetBox 4.0's path of
 * core's change records), and `OWN_PATHS`, so a client that walks the root finds everything the app answers.
 */
export function appRoot(ctx: RequestContext, registry: Registry, app: string) {
  if (!(APPS as readonly string[]).includes(app)) throw ApiError.notFound();
  const rooted = registry.models.flatMap((m) => m.routes.filter((r) => r.atAppRoot).map((r) => ({ app: m.app, path: r.name })));
  const paths = [...registry.models.flatMap((m) => [{ app: m.app, path: m.path }, ...(m.aliases ?? [])]), ...rooted, ...OWN_PATHS]
    .filter((at) => at.app === (app as AppName))
    .map((at) => at.path)
    .sort(byCodeUnits);
  return Object.fromEntries(paths.map((path) => [path, `${ctx.origin}/api/${app}/${path}/`]));
}

/** GET /api/status/: the release this API is compatible with and what is installed. */
export function apiStatus(ctx: RequestContext, runtime: string, release: string) {
  requireLogin(ctx);
  return {
    "netbox-version": `${ctx.config.API_VERSION}.0`,
    "installed-apps": Object.fromEntries(APPS.filter((a) => a !== "plugins").map((a) => [a, release])),
    plugins: {},
    "rq-workers-running": 1,
    "inventory-version": release,
    runtime,
  };
}

/**
 * GET /api/users/config/: the requesting user's preferences, as NetBox keeps them for its web
 * pages. This service keeps none, so every user's is empty; anonymous requests are refused.
 */
export function userConfig(ctx: RequestContext): Record<string, never> {
  requireUser(ctx);
  return {};
}

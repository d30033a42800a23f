import type { AppPath, Registry } from "../schema/shapes.ts";
import { createRegistry } from "../schema/registry.ts";
import * as circuits from "./circuits/index.ts";
import * as core from "./core/index.ts";
import * as dcim from "./dcim/index.ts";
import * as extras from "./extras/index.ts";
import * as ipam from "./ipam/index.ts";
import * as tenancy from "./tenancy/index.ts";
import * as users from "./users/index.ts";
import * as virtualization from "./virtualization/index.ts";
import * as vpn from "./vpn/index.ts";
import * as wireless from "./wireless/index.ts";

/**
 * The apps this service serves: the one list. Adding an app is a folder with an index.ts
 * exporting its models (each carrying its rules and routes) and a line here.
 */
export const APP_MODULES = [circuits, core, dcim, extras, ipam, tenancy, users, virtualization, vpn, wireless] as const;

/** Every model of every app, once: what the adapters route, document and render. */
export const registry: Registry = createRegistry(APP_MODULES.flatMap((app) => app.models));

/** The paths apps serve that no model backs (extras' dashboard and scripts, core's background queues, workers and tasks): routed, listed and documented beside the models'. */
export const APP_PATHS: readonly AppPath[] = APP_MODULES.flatMap((app) => ("paths" in app ? app.paths : []));

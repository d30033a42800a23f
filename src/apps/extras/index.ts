import type { Model } from "../../schema/shapes.ts";
import { configContextModels } from "./config-contexts.ts";
import { eventModels } from "./events.ts";
import { extrasModels } from "./extras.ts";
import { journalModels } from "./journal.ts";

/** NetBox's extras app: tags, custom fields, config contexts, webhooks and event rules, journal entries. */
export const models: readonly Model[] = [...extrasModels, ...configContextModels, ...eventModels, ...journalModels];

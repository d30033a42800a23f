import type { Model } from "../../schema/shapes.ts";
import { configContextModels } from "./config-contexts.ts";
import { configTemplateModels } from "./config-templates.ts";
import { objectTypeModels } from "./object-types.ts";
import { eventModels } from "./events.ts";
import { extrasModels } from "./extras.ts";
import { journalModels } from "./journal.ts";
import { imageAttachmentModels } from "./image-attachments.ts";

/** NetBox's extras app: tags, custom fields, config contexts and templates, webhooks and event rules, journal entries. */
export const models: readonly Model[] = [
  ...extrasModels,
  ...configContextModels,
  ...configTemplateModels,
  ...objectTypeModels,
  ...eventModels,
  ...journalModels,
  ...imageAttachmentModels,
];

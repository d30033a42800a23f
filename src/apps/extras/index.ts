import type { AppPath, Model } from "../../schema/shapes.ts";
import { configContextModels } from "./config-contexts.ts";
import { configTemplateModels } from "./config-templates.ts";
import { objectTypeModels } from "./object-types.ts";
import { eventModels } from "./events.ts";
import { extrasModels } from "./extras.ts";
import { journalModels } from "./journal.ts";
import { bookmarkModels } from "./bookmarks.ts";
import { customLinkModels } from "./custom-links.ts";
import { exportTemplateModels } from "./export-templates.ts";
import { savedFilterModels } from "./saved-filters.ts";
import { notificationModels } from "./notifications.ts";
import { dashboardPath } from "./dashboard.ts";
import { scriptsPath } from "./scripts.ts";
import { imageAttachmentModels } from "./image-attachments.ts";

/**
 * NetBox's extras app: tags, custom fields, config contexts and templates, webhooks and event
 * rules, journal entries, bookmarks, custom links, export templates, saved filters, notifications.
 */
export const models: readonly Model[] = [
  ...extrasModels,
  ...configContextModels,
  ...configTemplateModels,
  ...objectTypeModels,
  ...eventModels,
  ...journalModels,
  ...bookmarkModels,
  ...customLinkModels,
  ...exportTemplateModels,
  ...savedFilterModels,
  ...notificationModels,
  ...imageAttachmentModels,
];

/** The endpoints of extras that no model serves: the requester's dashboard, and scripts (none here). */
export const paths: readonly AppPath[] = [dashboardPath, scriptsPath];

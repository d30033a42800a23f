import type { Model } from "../../schema/shapes.ts";
import { coreModels } from "./core.ts";
import { dataModels } from "./data.ts";
export { paths } from "./background.ts";

/** NetBox's core app: change records, data sources and their files, jobs; background queues, workers and tasks (`paths`). */
export const models: readonly Model[] = [...coreModels, ...dataModels];

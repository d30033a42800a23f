import type { Model } from "../../schema/shapes.ts";
import { coreModels } from "./core.ts";
import { dataModels } from "./data.ts";

/** NetBox's core app: change records, data sources and their files, jobs. */
export const models: readonly Model[] = [...coreModels, ...dataModels];

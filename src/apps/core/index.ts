import type { Model } from "../../schema/shapes.ts";
import { coreModels } from "./core.ts";

/** NetBox's core app: change records. */
export const models: readonly Model[] = coreModels;

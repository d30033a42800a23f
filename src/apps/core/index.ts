import type { Model } from "../../schema/model.ts";
import { coreModels } from "./core.ts";

/** NetBox's core app: change records. */
export const models: readonly Model[] = coreModels;

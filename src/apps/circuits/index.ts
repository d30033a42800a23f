import type { Model } from "../../schema/shapes.ts";
import { circuitsModels } from "./circuits.ts";

/** NetBox's circuits app: providers, their accounts and networks, circuits and their terminations, circuit groups. */
export const models: readonly Model[] = circuitsModels;

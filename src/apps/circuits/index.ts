import type { Model } from "../../schema/shapes.ts";
import { circuitsModels } from "./circuits.ts";
import { virtualCircuitModels } from "./virtual-circuits.ts";

/** NetBox's circuits app: providers, their accounts and networks, circuits and their terminations, circuit groups, virtual circuits and their terminations. */
export const models: readonly Model[] = [...circuitsModels, ...virtualCircuitModels];

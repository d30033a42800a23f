import type { Model } from "../../schema/shapes.ts";
import { virtualizationModels } from "./virtualization.ts";

/** NetBox's virtualization app: cluster types, groups and clusters, virtual machines, their interfaces and disks. */
export const models: readonly Model[] = virtualizationModels;

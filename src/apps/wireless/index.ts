import type { Model } from "../../schema/shapes.ts";
import { wirelessModels } from "./wireless.ts";

/** NetBox's wireless app: wireless LAN groups (a tree), wireless LANs and point-to-point wireless links. */
export const models: readonly Model[] = wirelessModels;

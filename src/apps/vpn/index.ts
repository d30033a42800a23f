import type { Model } from "../../schema/shapes.ts";
import { cryptoModels } from "./crypto.ts";
import { l2vpnModels } from "./l2vpns.ts";
import { tunnelModels } from "./tunnels.ts";

/** NetBox's vpn app: tunnels and their groups and terminations, IKE and IPSec crypto, L2VPNs and their terminations. */
export const models: readonly Model[] = [...tunnelModels, ...cryptoModels, ...l2vpnModels];

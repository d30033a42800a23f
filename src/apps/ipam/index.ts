import type { Model } from "../../schema/shapes.ts";
import { ipamModels } from "./addressing.ts";
import { serviceModels } from "./services.ts";
import { vlanModels } from "./vlans.ts";
import { vlanTranslationModels } from "./vlan-translation.ts";

/** NetBox's ipam app: RIRs, aggregates, ASNs, VRFs, prefixes, ranges, addresses, VLANs, services, FHRP groups. */
export const models: readonly Model[] = [...ipamModels, ...vlanModels, ...vlanTranslationModels, ...serviceModels];

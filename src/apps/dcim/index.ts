import type { Model } from "../../schema/shapes.ts";
import { cableModels } from "./cables.ts";
import { componentModels } from "./components.ts";
import { deviceModels } from "./devices.ts";
import { moduleModels } from "./modules.ts";
import { dcimModels } from "./organization.ts";
import { rackReservationModels } from "./rack-reservations.ts";
import { rackModels } from "./racks.ts";
import { templateModels } from "./templates.ts";
import { virtualDeviceContext } from "./virtual-device-contexts.ts";

/** NetBox's dcim app: sites and their organisation, racks, devices, modules, components and their templates, cables, power. */
export const models: readonly Model[] = [
  ...dcimModels,
  ...deviceModels,
  ...componentModels,
  ...rackModels,
  ...rackReservationModels,
  ...cableModels,
  ...moduleModels,
  ...templateModels,
  virtualDeviceContext,
];

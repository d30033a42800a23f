import type { Model } from "../../schema/shapes.ts";
import { contactModels } from "./contacts.ts";
import { tenancyModels } from "./tenancy.ts";

/** NetBox's tenancy app: tenants and their groups, contacts and their assignments. */
export const models: readonly Model[] = [...tenancyModels, ...contactModels];

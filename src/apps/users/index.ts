import type { Model } from "../../schema/shapes.ts";
import { usersModels } from "./users.ts";

/** NetBox's users app: users, groups, tokens, object permissions. */
export const models: readonly Model[] = usersModels;

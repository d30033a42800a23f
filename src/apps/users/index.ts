import type { Model } from "../../schema/model.ts";
import { usersModels } from "./users.ts";

/** NetBox's users app: users, groups, tokens, object permissions. */
export const models: readonly Model[] = usersModels;

import type { ModelHooks } from "../models/hooks.ts";
import { hashPassword } from "./passwords.ts";

/** A user's password is stored only as a PBKDF2 hash and never read back. */
export const userHooks: ModelHooks = {
  async prepareWrite(_ctx, items) {
    await Promise.all(items.map(async ({ values, columns }) => {
      if (typeof values.password === "string") columns.password = await hashPassword(values.password);
    }));
  },
};

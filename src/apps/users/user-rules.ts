import type { Config } from "../../config.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { hashPassword } from "../../lib/passwords.ts";

const CLASSES: Record<string, { test: RegExp; message: string }> = {
  upper: { test: /[A-Z]/, message: "This password must contain at least one upper-case letter." },
  lower: { test: /[a-z]/, message: "This password must contain at least one lower-case letter." },
  digit: { test: /[0-9]/, message: "This password must contain at least one digit." },
  symbol: { test: /[^A-Za-z0-9]/, message: "This password must contain at least one symbol." },
};

/**
 * What is wrong with a password set through the API, NetBox 4.x's rules by default (at least 12
 * characters, an upper-case letter, a lower-case letter and a digit); PASSWORD_MIN_LENGTH and
 * PASSWORD_CHARACTER_CLASSES change them. The SUPERUSER_* bootstrap takes what the operator set.
 */
export function passwordProblems(config: Config, password: string): string[] {
  const problems: string[] = [];
  const min = config.PASSWORD_MIN_LENGTH;
  if (password.length < min) problems.push(`This password is too short. It must contain at least ${min} characters.`);
  for (const name of config.PASSWORD_CHARACTER_CLASSES) {
    const rule = CLASSES[name];
    if (rule && !rule.test.test(password)) problems.push(rule.message);
  }
  return problems;
}

/** A user's password is checked, stored only as a PBKDF2 hash, and never read back. */
export const userHooks: ModelHooks = {
  async prepareWrite(ctx, items) {
    await Promise.all(
      items.map(async ({ values, columns, errors }) => {
        if (typeof values.password !== "string") return;
        const problems = passwordProblems(ctx.config, values.password);
        if (problems.length) errors.password = problems;
        else columns.password = await hashPassword(values.password);
      }),
    );
  },
};

import type { Config } from "../../config.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { hashPassword } from "../../lib/passwords.ts";

/** The character classes, in the order NetBox checks them (it names the first one missing). */
const CLASSES: Record<string, { test: RegExp; message: string }> = {
  digit: { test: /[0-9]/, message: "Password must have at least one numeral." },
  upper: { test: /[A-Z]/, message: "Password must have at least one uppercase letter." },
  lower: { test: /[a-z]/, message: "Password must have at least one lowercase letter." },
  symbol: { test: /[^A-Za-z0-9]/, message: "Password must have at least one symbol." },
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
  const missing = Object.entries(CLASSES).find(
    ([name, rule]) => config.PASSWORD_CHARACTER_CLASSES.includes(name) && !rule.test.test(password),
  );
  if (missing) problems.push(missing[1].message);
  return problems;
}

/** A user's password is checked, stored only as a PBKDF2 hash, and never read back. */
export const userHooks: ModelHooks = {
  async prepareWrite(ctx, items) {
    await Promise.all(
      items.map(async ({ values, columns, errors }) => {
        if (typeof values.password !== "string") return;
        const problems = passwordProblems(ctx.config, values.password);
        // NetBox gives a password's problems as the whole form's.
        if (problems.length) errors.non_field_errors = problems;
        else columns.password = await hashPassword(values.password);
      }),
    );
  },
};

import type { FilterDeclaration } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { valueSet, whether } from "../../schema/filter-sql.ts";
import { ApiError } from "../../schema/errors.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { randomHex } from "../../lib/crypto.ts";
import { hasPermission, holdsGrant } from "../../engine/permissions.ts";

/** The filters whose values are token keys, turned into digests before they are compared (`keyFilters`). */
const KEY_FILTERS = new Set(["key", "key__n", "key__ie", "key__nie"]);

/**
 * NetBox's `key` filter and the lookups a digest can answer: equal (`key`, `key__ie`) or not
 * (`key__n`, `key__nie`), and `key__empty` (a key is never empty). Substring lookups (`__ic`,
 * `__isw`, `__iew`) cannot be answered from a digest and are not offered: a list asked for them
 * refuses them as unknown rather than answer wrongly.
 */
export const keyFilters = (): Record<string, FilterDeclaration> => {
  const equal: FilterDeclaration = { sql: (values, t) => sql`${sql.ref(`${t}.key_digest`)} IN ${valueSet(values)}` };
  const unequal: FilterDeclaration = { sql: (values, t) => sql`${sql.ref(`${t}.key_digest`)} NOT IN ${valueSet(values)}` };
  return { key: equal, key__ie: equal, key__n: unequal, key__nie: unequal, key__empty: whether(() => sql`0`) };
};

const OTHERS_REFUSED = "This user does not have permission to create tokens for other users.";

/** A new token key: 160 bits from the CSPRNG as 40 hex characters (SPEC.md 5.4). */
export const generateTokenKey = (): string => randomHex(20);

/** What `display` shows of a key: never the key, only enough to tell tokens apart. */
export const maskTokenKey = (last6: string): string => "*".repeat(34) + last6;

/**
 * Token keys are never stored in the clear: a keyed digest authenticates, and an AES-GCM copy is
 * kept only while ALLOW_TOKEN_RETRIEVAL is on, so GET can show the key. Off, the key appears once,
 * in the response that created it.
 */
export const tokenHooks: ModelHooks = {
  /**
   * Naming another user by id needs `users.grant_token`, decided before that user is looked up, so
   * the refusal is the same whether the user exists or not (attributes resolve only to the
   * requester; an update's `user` is checked below).
   */
  writeProbes(ctx, items) {
    if (hasPermission(ctx, "users.grant_token")) return [];
    const named = (item: (typeof items)[number]) => item.values.user;
    const other = items.some((item) => {
      const user = named(item);
      return item.id === null && isRef(user) && user.ref === "id" && user.id !== ctx.user!.id;
    });
    if (other) throw ApiError.forbidden(OTHERS_REFUSED);
    return [];
  },

  /** A token names its owner: the requester themselves, or anyone for holders of `users.grant_token`, whatever they may view of users. */
  referable(ctx, field, table) {
    if (field !== "user") return null;
    return hasPermission(ctx, "users.grant_token") ? sql`1` : sql`${sql.ref(`${table}.id`)} = ${ctx.user!.id}`;
  },

  async prepareWrite(ctx, items) {
    const requester = ctx.user!;
    await Promise.all(
      items.map(async ({ values, current, errors, columns }) => {
        if (current && !holdsGrant(ctx, "users.token", "change")) {
          // Who a token acts for and what it may do are fixed at creation for its owner; only a
          // permission beyond the default one changes them.
          const stored: Record<string, unknown> = {
            user: current.user_id,
            write_enabled: Boolean(current.write_enabled),
            allowed_ips: JSON.parse(String(current.allowed_ips ?? "[]")),
          };
          for (const name of ["user", "write_enabled", "allowed_ips"]) {
            if (values[name] !== undefined && JSON.stringify(values[name]) !== JSON.stringify(stored[name])) {
              errors[name] = ["This field cannot be changed after the token is created."];
            }
          }
          if (Object.keys(errors).length) return;
        }
        if (values.user === undefined && !current) values.user = requester.id;
        const owner = values.user ?? current?.user_id;
        if (owner !== requester.id && !hasPermission(ctx, "users.grant_token")) {
          throw ApiError.forbidden(OTHERS_REFUSED);
        }
        if (!current && typeof values.expires === "string" && Date.parse(values.expires) <= ctx.now.getTime()) {
          errors.expires = [`Expiration time must be in the future. Current server time is ${ctx.now.toISOString()} (UTC).`];
          return;
        }
        if (current && values.key === undefined) return;
        const key = String(values.key ?? generateTokenKey()).toLowerCase();
        const digest = await ctx.secrets.tokenDigest(key);
        ctx.revealedKeys.set(digest, key);
        columns.key_digest = digest;
        columns.key_last6 = key.slice(-6);
        columns.key_ciphertext = ctx.config.ALLOW_TOKEN_RETRIEVAL ? await ctx.secrets.encrypt(key) : null;
      }),
    );
  },

  /**
   * A key is never stored, so the `key` filters compare keyed digests: each value given becomes
   * the digest of the key it names (keys are hex, compared case-insensitively), found by the
   * digest index. Nothing about a stored key can be learnt from timing: without SECRET_KEY, the
   * digest of a guess says nothing of any key's characters.
   */
  async prepareFilters(ctx, filters) {
    return Promise.all(
      filters.map(
        async ([name, value]): Promise<readonly [string, string]> =>
          KEY_FILTERS.has(name) && value !== "" ? [name, await ctx.secrets.tokenDigest(value.trim().toLowerCase())] : [name, value],
      ),
    );
  },

  // The key is shown when created, and afterwards only where it may be retrieved.
  representShape: { mayOmit: ["key"] },

  async represent(ctx, rows, outs) {
    await Promise.all(
      rows.map(async (row, i) => {
        const out = outs[i];
        if (!("key" in out)) return;
        // A key sealed under another SECRET_KEY cannot be opened: it is not shown, as if not retrievable.
        const key =
          ctx.revealedKeys.get(String(row.key_digest)) ??
          (ctx.config.ALLOW_TOKEN_RETRIEVAL && row.key_ciphertext
            ? await ctx.secrets.decrypt(String(row.key_ciphertext)).catch(() => null)
            : null);
        if (key === null) delete out.key;
        else out.key = key;
      }),
    );
  },

  // SPEC.md 5.8: whoever may grant tokens creates them for anyone, and reads what they created.
  widenScope: (ctx, action) => action === "add" && hasPermission(ctx, "users.grant_token"),
};

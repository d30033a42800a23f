import type { Actor } from "./actor.ts";
import type { RawBuilder } from "kysely";
import type { Row, Statement, StatementResult } from "../db/database.ts";
import type { Network } from "../lib/network.ts";
import type { FieldErrors } from "./errors.ts";

type Sql = RawBuilder<unknown>;

/** Validated input of one object: field name to value (fk as id, m2m as id list). */
export type Values = Record<string, unknown>;

/** One object of a write, as the set-wise hooks see it. */
export interface WriteItem {
  /** The object's id for an update, null for a create. */
  readonly id: number | null;
  /** Validated values, related references resolved to ids. */
  readonly values: Values;
  /** Errors found so far, in NetBox's shape; a hook adds its own. */
  readonly errors: FieldErrors;
  /** The stored row before the change (its full selection), or null for a create. */
  readonly current: Row | null;
  /** Stored columns to write besides the fields' own (a token's digest). */
  readonly columns: Record<string, unknown>;
  /** Rows a model's probes read for this item (the rear port a front port maps to), by name. */
  readonly probed: Record<string, Row>;
}

/** A read a write depends on, with what to do with its result. */
export interface Probe {
  readonly statement: Statement;
  readonly settle: (result: StatementResult) => void;
}

/**
 * What an allocation request (`POST .../available-ips/`) tells the writes it makes: per created
 * item, stored columns given as SQL that picks the first still-free candidate inside the write's
 * own transaction (so concurrent allocations never hand out the same space), and the places in
 * the prefix hierarchy those candidates lie in.
 */
export interface AllocationPlan {
  readonly columns: readonly Record<string, Sql>[];
  readonly positions: readonly { vrf: number | null; network: Network }[];
}

/** What the caller of a write says of it besides its items, for the hooks' `initial`. */
export interface WriteIntent {
  /** The free space an allocation endpoint (`available-ips`, ...) fills, or null for a plain write. */
  readonly allocation: AllocationPlan | null;
}

/**
 * Special behaviour a model hangs off its declaration, so the generic handlers stay generic.
 * Every hook is set-wise: it sees the whole page or every item of a write at once and adds
 * statements to the same batch, never a query per row. Every hook is optional.
 *
 * A write runs its hooks in phases (probes, then prepare, then statements), and what an earlier
 * phase learns (the rows its probes read) a later one judges: that is the hook set's `State`,
 * made by `initial` once per write and handed to each of that write's phases, so nothing is kept
 * between phases outside the write itself.
 */
export interface ModelHooks<State = unknown> {
  /** A fresh state for one write; without it, the write phases receive undefined. */
  initial?(write: WriteIntent): State;
  /** Reads the write needs, added to its first round trip (the read batch). */
  writeProbes?(ctx: Actor, items: readonly WriteItem[], state: State): Probe[];
  /** After validation and reference resolution: fills defaults, refuses, adds stored columns. */
  prepareWrite?(ctx: Actor, items: readonly WriteItem[], state: State): Promise<void> | void;
  /** Statements added to the write transaction after the objects' own (component creation). */
  writeStatements?(ctx: Actor, items: readonly WriteItem[], state: State): Statement[];
  /**
   * Statements added to a delete's transaction after the rows are gone, given the rows deleted (`id`,
   * `__snapshot`, and every stored column: a prefix's ancestors and descendants recount their depth and children).
   */
  deleteStatements?(ctx: Actor, rows: readonly Row[]): Statement[];
  /**
   * Rewrites a list's filter values before they are planned, for what only async work can
   * compare (a token key is found by its keyed digest); filters are pairs of name and value.
   */
  prepareFilters?(ctx: Actor, filters: readonly (readonly [string, string])[]): Promise<readonly (readonly [string, string])[]>;
  /** Adjusts the output of a whole page of stored rows (full and brief forms). */
  represent?(ctx: Actor, rows: readonly Row[], outs: Record<string, unknown>[]): Promise<void> | void;
  /**
   * What `represent` does to the output's keys, for the OpenAPI document: keys it adds, each shaped
   * like the field named and present when that field is (NetBox's `primary_ip`, like
   * `primary_ip4`), and keys it may leave out (a token's key, once shown).
   */
  readonly representShape?: RepresentShape;
  /**
   * What `represent` does, as SQL over the final JSON's members (final-json.ts): given the value of
   * each key written, the members to add after them. Without it, a model with a `represent` hook
   * is shaped in JavaScript.
   */
  representFinal?(written: ReadonlyMap<string, RawBuilder<unknown>>): readonly (readonly [string, RawBuilder<unknown>])[];
  /**
   * True when the requester may `action` every object of the model whatever their permissions'
   * constraints say (holders of `users.grant_token` create tokens for anyone).
   */
  widenScope?(ctx: Actor, action: string): boolean;
  /**
   * Rows of the target of relation `field` (under `table`) a writer may name besides those they
   * may view, as a condition; null for none (a token's owner names themselves).
   */
  referable?(ctx: Actor, field: string, table: string): RawBuilder<unknown> | null;
}

/** Hooks whose write phases share a state: `initial` is then required, so the state is never missing. */
export interface StatefulHooks<State> extends ModelHooks<State> {
  initial(write: WriteIntent): State;
}

export interface RepresentShape {
  readonly adds?: Readonly<Record<string, string>>;
  readonly mayOmit?: readonly string[];
}

/**
 * Several concerns' hooks on one model (a device's placement, cluster and component rules), as
 * one: probes and statements concatenated in the order given, the other hooks run in turn. The
 * combined state is the list of the parts' states, each part receiving its own.
 */
export function combineHooks(...all: readonly ModelHooks[]): ModelHooks<readonly unknown[] | undefined> {
  const having = <K extends keyof ModelHooks>(k: K) => all.filter((h) => h[k]).map((h) => h[k]!) as NonNullable<ModelHooks[K]>[];
  const has = (k: keyof ModelHooks) => all.some((h) => h[k]);
  const represents = having("represent");
  const widens = having("widenScope");
  const referables = having("referable");
  const shapes = having("representShape");
  const finals = having("representFinal");
  return {
    ...(has("initial") && { initial: (write) => all.map((h) => h.initial?.(write)) }),
    ...(has("writeProbes") && {
      writeProbes: (ctx, items, states) => all.flatMap((h, i) => h.writeProbes?.(ctx, items, states?.[i]) ?? []),
    }),
    ...(has("prepareWrite") && {
      prepareWrite: async (ctx, items, states) => {
        for (const [i, h] of all.entries()) await h.prepareWrite?.(ctx, items, states?.[i]);
      },
    }),
    ...(has("writeStatements") && {
      writeStatements: (ctx, items, states) => all.flatMap((h, i) => h.writeStatements?.(ctx, items, states?.[i]) ?? []),
    }),
    ...(has("prepareFilters") && {
      prepareFilters: async (ctx, filters) => {
        let out = filters;
        for (const h of all) if (h.prepareFilters) out = await h.prepareFilters(ctx, out);
        return out;
      },
    }),
    ...(represents.length && {
      represent: async (ctx, rows, outs) => {
        for (const r of represents) await r(ctx, rows, outs);
      },
    }),
    // As SQL only when every hook that represents can say what it does so.
    ...(represents.length && finals.length === represents.length && { representFinal: (written) => finals.flatMap((f) => f(written)) }),
    ...(widens.length && { widenScope: (ctx, action) => widens.some((w) => w(ctx, action)) }),
    ...(referables.length && {
      referable: (ctx, field, table) => referables.map((r) => r(ctx, field, table)).find((x) => x !== null) ?? null,
    }),
    ...(shapes.length && {
      representShape: { adds: Object.assign({}, ...shapes.map((x) => x.adds)), mayOmit: shapes.flatMap((x) => x.mayOmit ?? []) },
    }),
  };
}

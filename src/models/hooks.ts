import type { Row, Statement } from "../db/database.ts";
import type { FieldErrors } from "../http/errors.ts";
import type { RequestContext } from "../http/context.ts";
import type { Probe } from "../rest/probes.ts";

/** Validated input of one object: field name to value (fk as id, m2m as id list). */
export type Values = Record<string, unknown>;

/** One object of a write, as the set-wise hooks see it. */
export interface WriteItem {
  /** Validated values, related references resolved to ids. */
  readonly values: Values;
  /** Errors found so far, in NetBox's shape; a hook adds its own. */
  readonly errors: FieldErrors;
  /** The stored row before the change (its full selection), or null for a create. */
  readonly current: Row | null;
  /** Stored columns to write besides the fields' own (a token's digest). */
  readonly columns: Record<string, unknown>;
}

/**
 * Special behaviour a model hangs off its declaration, so the generic handlers stay generic.
 * Every hook is set-wise: it sees the whole page or every item of a write at once and adds
 * statements to the same batch, never a query per row. Every hook is optional.
 */
export interface ModelHooks {
  /** Reads the write needs, added to its first round trip (the read batch). */
  writeProbes?(ctx: RequestContext, items: readonly WriteItem[], ids: readonly (number | null)[]): Probe[];
  /** After validation and reference resolution: fills defaults, refuses, adds stored columns. */
  prepareWrite?(ctx: RequestContext, items: readonly WriteItem[]): Promise<void> | void;
  /** Statements added to the write transaction after the objects' own (component creation). */
  writeStatements?(ctx: RequestContext, items: readonly WriteItem[]): Statement[];
  /**
   * Statements added to a delete's transaction after the rows are gone, given their stored rows
   * (a prefix's ancestors and descendants recount their depth and children).
   */
  deleteStatements?(ctx: RequestContext, rows: readonly Row[]): Statement[];
  /** Adjusts the output of a whole page of stored rows (full and brief forms). */
  represent?(ctx: RequestContext, rows: readonly Row[], outs: Record<string, unknown>[]): Promise<void> | void;
  /**
   * True when the requester may `action` every object of the model whatever their permissions'
   * constraints say (holders of `users.grant_token` create tokens for anyone).
   */
  widenScope?(ctx: RequestContext, action: string): boolean;
}

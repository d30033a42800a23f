import type { Row } from "../db/database.ts";
import type { FieldErrors } from "../http/errors.ts";
import type { RequestContext } from "../http/context.ts";

/** Validated input of one object: field name to value (fk as id, m2m as id list). */
export type Values = Record<string, unknown>;

/**
 * Special behaviour a model hangs off its declaration, so the generic handlers stay generic
 * (a token's key, a user's password). Every hook is optional.
 */
export interface ModelHooks {
  /**
   * Runs after field validation and reference resolution, before statements are built. May fill
   * defaults from the request, refuse with field errors, or return extra stored columns.
   */
  prepareWrite?(
    ctx: RequestContext,
    values: Values,
    current: Row | null,
  ): Promise<{ errors?: FieldErrors; columns?: Record<string, unknown> } | void>;
  /** Adjusts the full and brief output of one stored row. */
  represent?(ctx: RequestContext, row: Row, out: Record<string, unknown>): Promise<void> | void;
  /** Limits the rows the requester may see or change: a column that must equal a value. */
  scope?(ctx: RequestContext): { column: string; value: unknown } | null;
}

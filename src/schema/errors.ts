import { DatabaseBusyError } from "../db/database.ts";

/** The error codes the API answers with, and the status of each. */
const STATUS = {
  invalid: 400,
  malformed: 400,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  throttled: 429,
  service_unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof STATUS;

/** Field errors in NetBox's shape: `{"name": ["This field is required."]}`. */
export type FieldErrors = Record<string, unknown>;

/**
 * The one error type. Handlers throw it; the pipeline turns it into a response. The body is in
 * NetBox's shapes: `{"detail": "..."}`, a field-error object, or a list aligned with a bulk input.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === "object" && body && "detail" in body ? String((body as { detail: unknown }).detail) : code);
    this.code = code;
    this.body = body;
    this.headers = headers;
  }

  get status(): number {
    return STATUS[this.code];
  }

  /** 400 with field errors (an object) or aligned per-item errors (a list). */
  static invalid(errors: FieldErrors | FieldErrors[]): ApiError {
    return new ApiError("invalid", errors);
  }

  static detail(code: ErrorCode, detail: string, headers?: Record<string, string>): ApiError {
    return new ApiError(code, { detail }, headers);
  }

  static notFound(className?: string): ApiError {
    return ApiError.detail("not_found", className ? `No ${className} matches the given query.` : "Not found.");
  }

  static forbidden(detail = "You do not have permission to perform this action."): ApiError {
    return ApiError.detail("forbidden", detail);
  }

  static methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
    return ApiError.detail("method_not_allowed", `Method "${method}" not allowed.`, { Allow: allowed.join(", ") });
  }
}

/**
 * The database's lock could not be had in time (another process holds it): 503 with Retry-After,
 * since nothing was changed and the same request will likely succeed shortly. Other errors pass.
 */
export function fromDatabaseError(error: unknown): unknown {
  if (!(error instanceof DatabaseBusyError)) return error;
  return ApiError.detail(
    "service_unavailable",
    "The database is busy (another process holds its lock); nothing was changed. Please try again.",
    { "Retry-After": "1" },
  );
}

/** Renders a value as Python would print it, because NetBox's related-object messages do. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

import type { Kysely } from "kysely";

/** The schema type of ad-hoc Kysely queries: they name tables the types do not describe. */
// biome-ignore lint/suspicious/noExplicitAny: the one place ad-hoc queries are untyped
export type Schemaless = any;

/** A row as returned by the database: column name to value. */
export type Row = Record<string, unknown>;

/**
 * The column of a statement that reads a whole list page as one JSON text: its objects' texts
 * joined by commas, NULL for an empty page (src/engine/read-statements.ts). A driver may hand the
 * value over as the text's UTF-8 bytes (a `Uint8Array`) instead of a string: the Node runtime does
 * so for long pages, whose bytes then cross to the thread that writes them without a copy
 * (src/runtime/native-connection.ts).
 */
export const PAGE_TEXT = "__page";

/** One SQL statement with its positional parameters (a Kysely `CompiledQuery` fits). */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** The rows and the number of changed rows of one statement. */
export interface StatementResult {
  readonly rows: Row[];
  readonly rowsAffected: number;
}

/** Counters every driver keeps, so tests can pin statements and round trips per request. */
export interface DatabaseStats {
  statements: number;
  roundTrips: number;
  /**
   * Read statements whose SQL text had not been sent to this database before (among the last few
   * thousand texts): a driver prepares those, and finds the others prepared by their text.
   * Writes are not looked at: remembering every text a bulk write sends cost it 4 %.
   */
  newTexts: number;
}

/** Texts `batchCounter` remembers; the native connections keep fewer prepared, the server none. */
const TEXTS_REMEMBERED = 5000;

/** The counters of one database, and how a batch of it counts: one round trip, its statements, its new texts. */
export function batchCounter(): { readonly stats: DatabaseStats; count(statements: readonly Statement[], mode: "read" | "write"): void } {
  const stats: DatabaseStats = { statements: 0, roundTrips: 0, newTexts: 0 };
  const seen = new Set<string>();
  return {
    stats,
    count(statements, mode) {
      stats.statements += statements.length;
      stats.roundTrips += 1;
      if (mode === "write") return;
      for (const { sql } of statements) {
        if (seen.has(sql)) continue;
        if (seen.size >= TEXTS_REMEMBERED) seen.clear();
        seen.add(sql);
        stats.newTexts += 1;
      }
    },
  };
}

/**
 * The database port. The unit of cost is the round trip: on Turso every call to `batch` is one
 * HTTP request, whatever the number of statements in it, so the engine groups its queries.
 */
export interface Database {
  /** Runs the statements in one round trip; "write" runs them in one transaction, all or none. */
  batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]>;
  /** Runs a script of several `;`-separated statements (migrations) in one transaction. */
  executeScript(sql: string): Promise<void>;
  /** A Kysely instance bound to this database, for ad-hoc queries in scripts and tests. */
  readonly kysely: Kysely<Schemaless>;
  readonly stats: DatabaseStats;
  close(): void;
}

/** Why a statement was refused by a constraint, parsed from the driver's message. */
export class ConstraintError extends Error {
  readonly kind: "unique" | "foreign_key" | "not_null" | "check";
  /** `table.column` names the constraint reported, for a UNIQUE or NOT NULL failure. */
  readonly columns: string[];

  constructor(kind: ConstraintError["kind"], columns: string[], message: string) {
    super(message);
    this.kind = kind;
    this.columns = columns;
  }
}

/**
 * The database could not be had in time: another connection or program (a backup, `sqlite3`, a
 * second instance, a migration) held its lock past the busy timeout. The batch changed nothing
 * (a write batch is one transaction), so the request may simply be sent again; the API answers 503
 * with Retry-After. Every driver's SQLITE_BUSY becomes this.
 */
export class DatabaseBusyError extends Error {}

const CONSTRAINT_MESSAGE = /(UNIQUE|FOREIGN KEY|NOT NULL|CHECK) constraint failed(?::\s*([^\n]*))?/;

/** SQLITE_BUSY as the drivers report it: the native addon's and @libsql/client's `code`, or the message. */
const BUSY_MESSAGE = /\bdatabase is locked\b|\bSQLITE_BUSY\b/i;

/**
 * Turns a driver's constraint failure into a ConstraintError and a lock that could not be had
 * into a DatabaseBusyError; other errors pass through.
 */
export function normalizeDatabaseError(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if ((typeof code === "string" && code.startsWith("SQLITE_BUSY")) || BUSY_MESSAGE.test(message)) {
    return new DatabaseBusyError(`database is locked: ${message}`, { cause: error });
  }
  const match = CONSTRAINT_MESSAGE.exec(message);
  if (!match) return error;
  const kinds = { UNIQUE: "unique", "FOREIGN KEY": "foreign_key", "NOT NULL": "not_null", CHECK: "check" } as const;
  const columns = (match[2] ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  return new ConstraintError(kinds[match[1] as keyof typeof kinds], columns, match[0]);
}

/** Splits a migration script into statements; our migrations keep `;` out of string literals. */
export function splitScript(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter(Boolean);
}

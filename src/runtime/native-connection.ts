import NativeDatabase from "libsql";
import { PAGE_TEXT, type Row } from "../db/database.ts";
import { TEXT_CHARS } from "../lib/responses.ts";
import {
  isFlattened,
  ONE_ROW_SQL_CHARS,
  oneRowSql,
  PAGE_MARK,
  pageBytesSql,
  rowsOfOneRow,
  rowsOfSeparated,
  separatedSql,
  type PlanLine,
  type Separated,
} from "./one-row-read.ts";
import { readCache, type ReadCache } from "./read-cache.ts";

/** The part of a native prepared statement a connection uses (the addon's own types are generic). */
interface Prepared {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  columns(): readonly { readonly name: string }[];
}

/**
 * A read's one-row forms (one-row-read.ts): for a long read, the separated one, the JSON one for
 * rows it cannot carry (prepared at the first such read), and the columns they split into; for a
 * whole page's read, the form that gives a long page as bytes.
 */
type OneRow =
  | {
      readonly separated: Prepared;
      readonly jsonSql: string;
      json: Prepared | null;
      readonly names: readonly string[];
    }
  | { readonly page: Prepared };

/** One statement as it travels between threads: SQL text and positional parameters. */
export type WireStatement = readonly [sql: string, parameters: readonly unknown[]];

/** One statement's outcome as it travels back: rows and changed-row count. */
export type WireResult = readonly [rows: Row[], rowsAffected: number];

/** What a connection is for: "writer" takes write batches, "reader" only reads, "both" (`:memory:`) everything. */
export type ConnectionRole = "writer" | "reader" | "both";

/** How a connection keeps what it read (read-cache.ts): characters of rows (READ_CACHE_MB), and whether its caller gets the rows themselves. */
export interface ReadCacheOptions {
  readonly chars: number;
  /** The rows go to the caller on this thread (an app thread's reader), not copied to another. */
  readonly shared: boolean;
}

/**
 * What a reader keeps where READ_CACHE_MB is 0: results of at most `largest` characters, `chars`
 * in all (about 1 MB of heap at most). They are a list's count, the lookups of the slugs and names
 * a filter gives, a token's row: statements that repeat across the pages of one listing and
 * whose cost grows with the table, not the page. A count of a tenant's devices took 82 us of
 * SQLite with 1,000 devices and 259 us with 10,000; kept, it costs a lookup. In-process, a page of
 * a tenant's devices cost 3.36-3.86 ms of CPU against 3.52-4.04 without (interleaved rounds).
 */
const SMALL_RESULTS = { chars: 128 * 1024, largest: 512 };

/**
 * One synchronous SQLite connection through the native `libsql` addon, with its own cache of
 * prepared statements. It runs on a database thread (database-thread.ts), never on the thread
 * that answers HTTP, so its blocking calls, a wait for the write lock included, stall no request
 * but those queued behind it on this connection. A reader keeps the rows it read while the
 * database does not change (`keep`, read-cache.ts); a writer, or `:memory:`'s one connection,
 * whose own commits SQLite does not count as changes it sees, keeps none.
 */
export function nativeConnection(path: string, role: ConnectionRole, busyTimeoutMs: number, keep?: ReadCacheOptions) {
  const db = new NativeDatabase(path);
  // Opening waits for the lock like any statement: the threads of one database open at once.
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  // WAL (kept in the file once set) lets readers read while a writer, here or elsewhere, holds the lock.
  if (role === "writer") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
  // The writer waits for the lock in `begin`, with each batch's own deadline, so its connection
  // never waits on its own (a wait there would not know how long the batch has already queued).
  // Readers rarely meet a lock in WAL mode (recovery, a checkpoint restarting the log): they wait.
  if (role === "writer") db.exec("PRAGMA busy_timeout = 0");
  // A reader is read-only, so a write sent as a read fails loudly instead of escaping the writer's
  // transaction and lock order.
  if (role === "reader") db.exec("PRAGMA query_only = ON");

  const cache = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql) as unknown as Prepared;
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };

  /** The plan of `sql`, read to its end and reset: an exhausted EXPLAIN left unreset keeps its read transaction (`run`). */
  const planOf = (sql: string): PlanLine[] => {
    const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`) as unknown as Prepared;
    const plan = explain.all() as PlanLine[];
    explain.get();
    return plan;
  };

  /**
   * Long reads' and whole pages' one-row forms by their SQL. A read's own statement leaves the cache
   * once its form is made (a prepared 100 KB statement holds about 1 MB), so a text found here is
   * never prepared again; `plain` holds the reads looked at that have no form (a write's RETURNING,
   * a short text that only named the page's column) and keep theirs.
   */
  const oneRows = new Map<string, OneRow>();
  const plain = new Set<string>();
  /** A long read's separated and JSON forms; null for one a SELECT cannot read from (INSERT ... RETURNING), which keeps `all()`. */
  const separatedForms = (sql: string, names: readonly string[]): OneRow | null => {
    try {
      const unwrapped = separatedSql(sql, names, false);
      const flattened = unwrapped !== null && isFlattened(planOf(unwrapped));
      const separated = flattened ? separatedSql(sql, names, true) : unwrapped;
      const jsonSql = oneRowSql(sql, names, flattened);
      return separated && jsonSql ? { separated: db.prepare(separated) as unknown as Prepared, jsonSql, json: null, names } : null;
    } catch {
      return null;
    }
  };
  const oneRowOf = (sql: string): OneRow | null => {
    const known = oneRows.get(sql);
    if (known || (sql.length < ONE_ROW_SQL_CHARS && !sql.includes(PAGE_MARK)) || !QUERY.test(sql) || plain.has(sql)) return known ?? null;
    const stmt = prepare(sql);
    if (!stmt.reader) return null;
    const names = stmt.columns().map((c) => c.name);
    const one: OneRow | null =
      names.length === 1 && names[0] === PAGE_TEXT
        ? { page: db.prepare(pageBytesSql(sql, TEXT_CHARS)) as unknown as Prepared }
        : sql.length >= ONE_ROW_SQL_CHARS
          ? separatedForms(sql, names)
          : null;
    if (oneRows.size + plain.size > 500) {
      oneRows.clear();
      plain.clear();
    }
    if (!one) plain.add(sql);
    else {
      oneRows.set(sql, one);
      cache.delete(sql);
    }
    return one;
  };

  const run = ([sql, parameters]: WireStatement): WireResult => {
    const args = parameters.map(toArg);
    const one = oneRowOf(sql);
    // A row of its own: the addon's carries its timing too.
    if (one && "page" in one) return [[{ [PAGE_TEXT]: (one.page.get(...args) as Row)[PAGE_TEXT] }], 0];
    if (one) {
      const rows = rowsOfSeparated(one.separated.get(...args) as Separated, one.names);
      if (rows) return [rows, 0];
      one.json ??= db.prepare(one.jsonSql) as unknown as Prepared;
      return [rowsOfOneRow((one.json.get(...args) as { r: string }).r, one.names), 0];
    }
    const stmt = prepare(sql);
    if (stmt.reader) {
      const rows = stmt.all(...args) as Row[];
      // An exhausted EXPLAIN still counts as running until reset, which the addon does only in
      // `get`: until then the connection kept its read transaction, and every later read on it
      // saw the database as it was then (a reader missed every commit after a query plan).
      if (EXPLAIN.test(sql)) stmt.get(...args);
      return [rows, 0];
    }
    return [[], Number(stmt.run(...args).changes)];
  };

  const kept: ReadCache | null =
    role === "reader" && keep
      ? keep.chars > 0
        ? readCache(keep.chars, { copy: keep.shared })
        : readCache(SMALL_RESULTS.chars, { copy: keep.shared, largest: SMALL_RESULTS.largest })
      : null;
  const version = kept && (db.prepare("PRAGMA data_version") as unknown as { get(): { data_version: number } });
  /** Tells the cache which state of the file the batch reads: the first statement of its read transaction. */
  const mark = kept && version ? () => kept.at(version.get().data_version) : () => {};
  const readOne: (statement: WireStatement) => WireResult = kept
    ? (statement) => [kept.rows(statement[0], statement[1], () => run(statement)[0]), 0]
    : run;

  /**
   * BEGIN IMMEDIATE, waiting for the write lock at most until `deadline` (ms since the epoch, set
   * when the batch was sent, so time spent queued behind other writes counts). The first attempt
   * does not wait: that is the common case and costs no extra statement.
   */
  const begin = (deadline: number) => {
    try {
      db.exec("BEGIN IMMEDIATE");
      return;
    } catch (error) {
      const left = Math.floor(deadline - Date.now());
      if (!isBusy(error) || left <= 0 || role !== "writer") throw error;
      db.exec(`PRAGMA busy_timeout = ${left}`);
      try {
        db.exec("BEGIN IMMEDIATE");
      } finally {
        db.exec("PRAGMA busy_timeout = 0");
      }
    }
  };

  const inTransaction = <T>(deadline: number, fn: () => T): T => {
    begin(deadline);
    try {
      const result = fn();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };

  return {
    /**
     * A read batch sees one snapshot (a deferred transaction) when it has several statements, and
     * the cache's number names that snapshot. One statement reads on its own after the number: a
     * commit in between gives it newer rows under an older number, which the next batch's number
     * empties away unused.
     */
    read(statements: readonly WireStatement[]): WireResult[] {
      // A `:memory:` connection serves writes on the same thread, so nothing can commit in between.
      if (statements.length === 1 || role === "both") {
        mark();
        return statements.map(readOne);
      }
      db.exec("BEGIN");
      try {
        mark();
        return statements.map(readOne);
      } finally {
        if (db.inTransaction) db.exec("COMMIT");
      }
    },
    /** A write batch is one `BEGIN IMMEDIATE ... COMMIT`: all or none. */
    write(statements: readonly WireStatement[], deadline: number): WireResult[] {
      return inTransaction(deadline, () => statements.map(run));
    },
    /** A migration script: several `;`-separated statements in one transaction. */
    script(sql: string, deadline: number): void {
      inTransaction(deadline, () => db.exec(sql));
    },
    /** What the read cache answered and ran (null without one). */
    cacheStats: () => (kept ? { ...kept.stats } : null),
    close: () => db.close(),
  };
}

export type NativeConnection = ReturnType<typeof nativeConnection>;

const EXPLAIN = /^\s*EXPLAIN\b/i;

/** What may be a query: a write (a bulk INSERT's long text among them) is never looked at for a one-row form. */
const QUERY = /^\s*(?:SELECT|WITH)\b/i;

/** SQLITE_BUSY from the addon ("database is locked"). */
function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === "SQLITE_BUSY" || /database is locked/i.test(String(e?.message ?? ""));
}

function toArg(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

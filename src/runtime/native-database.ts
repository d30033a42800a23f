import NativeDatabase from "libsql";
import { Kysely, SqliteDialect } from "kysely";
import {
  normalizeDatabaseError,
  type Database,
  type Statement,
  type StatementResult,
} from "../db/database.ts";

/** The part of a native prepared statement the port uses (the addon's own types are generic). */
interface Prepared {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint };
}

/**
 * The database port over the native `libsql` addon, for an embedded file or `:memory:`.
 * Statements run synchronously in-process (6-8x cheaper than the async client, STACK.md), so a
 * "round trip" here is one call; a write batch is one `BEGIN IMMEDIATE ... COMMIT`.
 */
export function nativeDatabase(path: string): Database {
  const db = new NativeDatabase(path);
  if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL");
  const cache = new Map<string, Prepared>();
  const stats = { statements: 0, roundTrips: 0 };

  const prepare = (sql: string): Prepared => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql) as unknown as Prepared;
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };

  const run = (s: Statement): StatementResult => {
    const stmt = prepare(s.sql);
    const args = s.parameters.map(toArg) as any[];
    if (stmt.reader) return { rows: stmt.all(...args) as any[], rowsAffected: 0 };
    const info = stmt.run(...args);
    return { rows: [], rowsAffected: Number(info.changes) };
  };

  const inTransaction = <T>(fn: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };

  return {
    stats,
    kysely: new Kysely<any>({ dialect: new SqliteDialect({ database: db as any }) }),
    async batch(statements, mode) {
      if (statements.length === 0) return [];
      stats.statements += statements.length;
      stats.roundTrips += 1;
      try {
        return mode === "write" ? inTransaction(() => statements.map(run)) : statements.map(run);
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    async executeScript(sql) {
      stats.roundTrips += 1;
      try {
        inTransaction(() => db.exec(sql));
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    close: () => db.close(),
  };
}

function toArg(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

import type { Client, InStatement, InValue, ResultSet } from "@libsql/client";
import { Kysely } from "kysely";
import { LibsqlDialect } from "@libsql/kysely-libsql";
import {
  batchCounter,
  normalizeDatabaseError,
  splitScript,
  type Database,
  type Row,
  type Schemaless,
  type Statement,
  type StatementResult,
} from "./database.ts";

/**
 * The database port over `@libsql/client`: Turso over HTTP, the worker, Deno, and any `libsql:`
 * URL. The caller creates the client (web or node build) so this file stays runtime-neutral.
 */
export function libsqlClientDatabase(client: Client): Database {
  const { stats, count } = batchCounter();
  const toIn = (s: Statement): InStatement => ({ sql: s.sql, args: s.parameters.map(toArg) as InValue[] });

  return {
    stats,
    kysely: new Kysely<Schemaless>({ dialect: new LibsqlDialect({ client }) }),
    async batch(statements, mode) {
      if (statements.length === 0) return [];
      count(statements, mode);
      try {
        const results =
          statements.length === 1 && mode === "read"
            ? [await client.execute(toIn(statements[0]))]
            : await client.batch(statements.map(toIn), mode);
        return results.map(toResult);
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    async executeScript(sql) {
      stats.roundTrips += 1;
      const parts = splitScript(sql);
      stats.statements += parts.length;
      try {
        await client.batch(parts, "write");
      } catch (error) {
        throw normalizeDatabaseError(error);
      }
    },
    close: () => client.close(),
  };
}

function toArg(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1n : 0n;
  // The web client sends every JS number as a float; integers must travel as integers so that
  // LIMIT, ids in TEXT-affinity contexts and JSON keep their type.
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  return value;
}

function toResult(rs: ResultSet): StatementResult {
  const rows: Row[] = rs.rows.map((r) => {
    const out: Row = {};
    rs.columns.forEach((c, i) => (out[c] = r[i]));
    return out;
  });
  return { rows, rowsAffected: rs.rowsAffected };
}

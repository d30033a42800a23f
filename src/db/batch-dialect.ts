import {
  type CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from "kysely";
import type { Statement, StatementResult } from "./database.ts";

/** Runs statements in one round trip, as `Database.batch` does (without counting them). */
export type SendBatch = (statements: readonly Statement[], mode: "read" | "write") => Promise<StatementResult[]>;

/**
 * A Kysely SQLite dialect that sends each query as a one-statement batch, for the `kysely`
 * property of a port whose connections live elsewhere (database threads): scripts and tests use
 * it for ad-hoc queries. A SELECT goes as a read; anything else as a write (its own transaction).
 * Interactive transactions cannot span a batch, so `transaction()` is refused: the engine writes
 * through `Database.batch(..., "write")`, which is one transaction.
 */
export function batchDialect(send: SendBatch): Dialect {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const mode = query.query.kind === "SelectQueryNode" ? "read" : "write";
      const [result] = await send([{ sql: query.sql, parameters: query.parameters }], mode);
      return { rows: result.rows as R[], numAffectedRows: BigInt(result.rowsAffected) };
    },
    streamQuery(): AsyncIterableIterator<never> {
      throw new Error("streaming is not supported by this database port; use a LIMIT");
    },
  };
  const refuse = async () => {
    throw new Error('interactive transactions are not supported by this database port; send one Database.batch(..., "write")');
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: refuse,
    commitTransaction: refuse,
    rollbackTransaction: refuse,
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
} from "kysely";

/**
 * A Kysely instance that only compiles. The engine builds every query with it and sends the
 * compiled statements through `Database.batch`, because Kysely executes one statement per call
 * and a Turso round trip per statement is the cost we must avoid.
 */
const compileOnly: Dialect = {
  createAdapter: () => new SqliteAdapter(),
  createDriver: () => new DummyDriver(),
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new SqliteQueryCompiler(),
};

export const qb = new Kysely<any>({ dialect: compileOnly });

import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, type Dialect, type RawBuilder } from "kysely";
import type { Schemaless } from "./database.ts";

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

export const qb = new Kysely<Schemaless>({ dialect: compileOnly });

/** Stands for a parameter in `frozen`'s compilation: a text no SQL we build contains. */
const MARK = "\u0001param\u0001";

/** Compiles as SQLite does, but marks where each parameter goes, so the text can be split there. */
class MarkingCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return MARK;
  }
}

const marking = new Kysely<Schemaless>({ dialect: { ...compileOnly, createQueryCompiler: () => new MarkingCompiler() } });

/**
 * The same SQL and parameters as `builder`, compiled once: a fragment that depends only on the
 * frozen registry (a model's select, with its nested related objects) is reused as text with its
 * parameters, so embedding it in a request's query costs almost nothing to compile again.
 */
export function frozen<T>(builder: RawBuilder<T>): RawBuilder<T> {
  const compiled = builder.compile(marking);
  const fragments = compiled.sql.split(MARK);
  return sql<T>(Object.assign([...fragments], { raw: fragments }) as unknown as TemplateStringsArray, ...compiled.parameters);
}

import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Dialect,
  type RawBuilder,
  type RootOperationNode,
} from "kysely";
import type { Schemaless, Statement } from "./database.ts";
import { remembered } from "../lib/memo.ts";

/**
 * How many statements (or fragments) this process or isolate has compiled from query builders.
 * The engine builds each request shape's SQL once and binds values per request (`template`), so a
 * repeated shape adds nothing here; tests pin that.
 */
export const compileStats = { compilations: 0 };

/** SQLite's compiler, counting its compilations in `compileStats`. */
class CountingCompiler extends SqliteQueryCompiler {
  override compileQuery(node: RootOperationNode, queryId: Parameters<SqliteQueryCompiler["compileQuery"]>[1]) {
    compileStats.compilations++;
    return super.compileQuery(node, queryId);
  }
}

/**
 * A Kysely instance that only compiles. The engine builds every query with it and sends the
 * compiled statements through `Database.batch`, because Kysely executes one statement per call
 * and a Turso round trip per statement is the cost we must avoid.
 */
const compileOnly: Dialect = {
  createAdapter: () => new SqliteAdapter(),
  createDriver: () => new DummyDriver(),
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new CountingCompiler(),
};

export const qb = new Kysely<Schemaless>({ dialect: compileOnly });

/** Stands for a parameter in `frozen`'s and `template`'s compilation: a text no SQL we build contains. */
const MARK = "\u0001param\u0001";

/** Compiles as SQLite does, but marks where each parameter goes, so the text can be split there. */
class MarkingCompiler extends CountingCompiler {
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

/** A value a template leaves open, given per execution by name (`Template.bind`). */
export class Slot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** Around a fragment's name in a template's compilation. */
const FRAGMENT = "\u0002";

/** A place in a template for SQL given per execution (a request's filter conditions), as a compiled Statement. */
export const fragment = (name: string): RawBuilder<unknown> => sql.raw(`${FRAGMENT}${name}${FRAGMENT}`);

const PIECES = new RegExp(`${MARK}|${FRAGMENT}([a-z_]+)${FRAGMENT}`);

/**
 * Distinct texts one template keeps, by its fragments' texts: filter shapes come from query
 * strings. Beyond them a text is joined again per request (the driver still finds its prepared
 * statement, having hashed the new string), so memory stays bounded whatever the query strings.
 */
const TEXTS_PER_TEMPLATE = 16;

/**
 * A statement compiled once, bound per execution: its values in `Slot`s, its variable SQL in
 * `fragment`s. A request of a shape already seen compiles nothing, and its SQL text is the very
 * string sent before (for fragments, when theirs were), so the driver's prepared statement is
 * found by its text without being prepared again.
 */
export class Template {
  /** Text between the places; one more than `places`. */
  private readonly texts: string[] = [];
  /** Each place: a parameter (a value, or a Slot) or a fragment's name. */
  private readonly places: ({ readonly value: unknown } | { readonly fragment: string })[] = [];
  private readonly built = new Map<string, string>();
  private readonly plain: string | null;

  constructor(builder: RawBuilder<unknown>) {
    const compiled = builder.compile(marking);
    const parts = compiled.sql.split(PIECES);
    // split() with one capturing group: text, name-or-undefined, text, ...
    let parameter = 0;
    for (let i = 0; i < parts.length; i += 2) {
      this.texts.push(parts[i]);
      if (i + 1 >= parts.length) break;
      const name = parts[i + 1];
      this.places.push(name === undefined ? { value: compiled.parameters[parameter++] } : { fragment: name });
    }
    this.plain = this.places.some((p) => "fragment" in p) ? null : this.join(() => "");
  }

  private join(fragmentSql: (name: string) => string): string {
    let out = this.texts[0];
    this.places.forEach((place, i) => {
      out += ("fragment" in place ? fragmentSql(place.fragment) : "?") + this.texts[i + 1];
    });
    return out;
  }

  /** The statement with these values in its slots and these statements in its fragments. */
  bind(values: Readonly<Record<string, unknown>>, fragments: Readonly<Record<string, Statement>> = {}): Statement {
    const parameters: unknown[] = [];
    for (const place of this.places) {
      if ("fragment" in place) parameters.push(...fragments[place.fragment].parameters);
      else parameters.push(place.value instanceof Slot ? (values[place.value.name] ?? null) : place.value);
    }
    if (this.plain !== null) return { sql: this.plain, parameters };
    const key = this.places.map((p) => ("fragment" in p ? fragments[p.fragment].sql : "")).join("\u0000");
    const text = remembered(this.built, key, () => this.join((name) => fragments[name].sql), TEXTS_PER_TEMPLATE);
    return { sql: text, parameters };
  }
}

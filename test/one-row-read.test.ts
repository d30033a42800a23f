import { afterAll, describe, expect, it } from "vitest";
import Database from "libsql";
import { nativeConnection } from "../src/runtime/native-connection.ts";
import { isFlattened, ONE_ROW_SQL_CHARS, type PlanLine, separatedSql } from "../src/runtime/one-row-read.ts";
import { PAGE_TEXT } from "../src/db/database.ts";
import { TEXT_CHARS } from "../src/lib/responses.ts";
import { tempDirs } from "./support/processes.ts";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** `sql` made long enough to be read as one row, by a comment SQLite skips. */
const long = (sql: string) => `${sql} /* ${"x".repeat(ONE_ROW_SQL_CHARS)} */`;

function database() {
  const file = `${dirs.make()}/one-row.db`;
  const writer = nativeConnection(file, "writer", 1000);
  writer.script(
    `CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, f REAL, label TEXT, doc TEXT, bin BLOB);
     INSERT INTO t VALUES (1, 7, 0.30000000000000004, 'one', '{"a":[1,2]}', x'00ff10');
     INSERT INTO t VALUES (2, NULL, 40.712776123456789, 'two' || char(30) || char(31) || '"é"', NULL, NULL);
     INSERT INTO t VALUES (3, -9007199254740991, -1.5e300, '', '[]', x'')`,
    Date.now() + 1000,
  );
  const reader = nativeConnection(file, "reader", 1000, { chars: 0, shared: true });
  return { file, writer, reader, read: (sql: string, p: unknown[] = []) => reader.read([[sql, p]])[0][0] };
}

describe("long reads, asked for as one row (one-row-read.ts)", () => {
  it("give the rows `all()` gives: every type, JSON text as text, in the statement's order", () => {
    const { file, read } = database();
    const sql =
      "SELECT id, n, f, label, doc, json(doc) AS parsed, json_object('id', id, 'label', label) AS obj, bin FROM t WHERE id >= ? ORDER BY id DESC";
    const direct = new Database(file, { readonly: true });
    const expected = direct.prepare(sql).all(1);
    direct.close();
    const rows = read(long(sql), [1]);
    expect(rows).toEqual(expected);
    expect(rows.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(rows[2].f).toBe(0.30000000000000004);
    expect(rows[1].label).toBe('two\x1e\x1f"é"');
    expect(rows[2].obj).toBe('{"id":1,"label":"one"}');
    expect(new Uint8Array(rows[2].bin as ArrayBuffer)).toEqual(new Uint8Array([0, 255, 16]));
    expect(read(long("SELECT id FROM t WHERE id > 10"))).toEqual([]);
  });

  it("give the rows `all()` gives through the separated form, and through the JSON form where a text holds a separator", () => {
    const { file, read } = database();
    const direct = new Database(file, { readonly: true });
    const cases = [
      // text, integers and NULL only: the separated form carries them
      "SELECT id, n, label, doc, json_object('id', id, 'doc', json(doc)) AS obj FROM t WHERE id <> 2 ORDER BY id",
      "SELECT json_object('id', id, 'label', label) AS only FROM t ORDER BY id DESC",
      // a row's text holds both separators: counted, and read through the JSON form
      "SELECT id, label FROM t ORDER BY id",
      "SELECT label FROM t ORDER BY id",
      "SELECT label || char(30) AS a, 'x' AS b FROM t WHERE id = 1",
      // a separator followed by what looks like a tagged cell: one row more than were read
      "SELECT * FROM (SELECT 'a' || char(30) || 'tb' AS v UNION ALL SELECT 'c' AS v)",
      "SELECT count(*) AS c, NULL AS z FROM t WHERE id > 10",
    ];
    for (const sql of cases) expect(read(long(sql)), sql).toEqual(direct.prepare(sql).all());
    direct.close();
  });

  it("keep all() where two columns share a name, which a SELECT over them cannot tell apart", () => {
    const { read } = database();
    expect(read(long("SELECT id, label AS x, n AS x FROM t WHERE id = 1"))).toEqual([{ id: 1, x: 7 }]);
  });

  it("leave a write with RETURNING, which no SELECT can read from, to all()", () => {
    const { writer } = database();
    const [[rows]] = writer.write([[long("INSERT INTO t (id, label) VALUES (?, ?) RETURNING id, label"), [9, "nine"]]], Date.now() + 1000);
    expect(rows).toEqual([{ id: 9, label: "nine" }]);
  });

  it("read a statement SQLite would flatten through a subquery it cannot, and an ordered one as it is", () => {
    const { file, read } = database();
    const direct = new Database(file, { readonly: true });
    const plan = (sql: string) => direct.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as PlanLine[];
    const names = ["obj"];
    // One object's read: flattened into the form, its json_object would be computed once for each
    // reference the form makes to its column.
    const single = "SELECT json_object('id', id, 'label', label, 'doc', json(doc)) AS obj FROM t WHERE id = 1";
    const ordered = "SELECT json_object('id', id, 'label', label) AS obj FROM t ORDER BY id DESC";
    expect(isFlattened(plan(separatedSql(single, names, false)!))).toBe(true);
    expect(isFlattened(plan(separatedSql(single, names, true)!))).toBe(false);
    expect(isFlattened(plan(separatedSql(ordered, names, false)!))).toBe(false);
    for (const sql of [single, ordered]) expect(read(long(sql)), sql).toEqual(direct.prepare(sql).all());
    direct.close();
  });

  it("give a whole page's text as its UTF-8 bytes once it is long, as text while it is short, NULL when empty", () => {
    const { file, read } = database();
    const page = (n: number, extra = "") =>
      `SELECT group_concat(v, ',') AS "${PAGE_TEXT}" FROM (SELECT json_object('i', value, 'l', 'é' || char(30) || printf('%.200c', 'x')) AS v FROM generate_series(1, ${n}) ORDER BY value DESC)${extra}`;
    const direct = new Database(file, { readonly: true });
    const text = (sql: string) => (direct.prepare(sql).get() as Record<string, unknown>)[PAGE_TEXT] as string | null;
    for (const sql of [page(200), page(200, ` /* ${"x".repeat(ONE_ROW_SQL_CHARS)} */`)]) {
      const [row] = read(sql);
      const bytes = row[PAGE_TEXT];
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(new TextDecoder().decode(bytes as Uint8Array)).toBe(text(sql));
      expect((bytes as Uint8Array).byteLength).toBeGreaterThanOrEqual(TEXT_CHARS);
      expect(
        JSON.parse(`[${text(sql)}]`)
          .map((o: { i: number }) => o.i)
          .slice(0, 3),
      ).toEqual([200, 199, 198]);
    }
    const short = page(3);
    expect(read(short)).toEqual([{ [PAGE_TEXT]: text(short) }]);
    expect(typeof read(short)[0][PAGE_TEXT]).toBe("string");
    expect(read(`${page(3)} WHERE 0`)).toEqual([{ [PAGE_TEXT]: null }]);
    direct.close();
  });
});

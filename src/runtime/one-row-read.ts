import { PAGE_TEXT, type Row } from "../db/database.ts";

/**
 * Long reads through the native addon as one row. The addon's `all()` steps a native `Rows`
 * object that keeps a copy of its statement (about its SQL text's size) until V8 collects the
 * object's wrapper, and V8, not knowing that memory, collects it at its leisure: the wrapper lives
 * through young collections and goes only with a full one, after a thousand requests or more.
 * Under the large benchmark's interfaces-by-device load the service grew to 449 MB, 234 MB of it
 * malloc's, with the 32 KB bound this once had; under 8 clients reading a tenant's devices (a
 * 27 KB statement) malloc's part grew from 30 to 80 MB and stayed. `get()` drops its rows before
 * it returns. So a read whose SQL is long is asked for as one row, every row within one text, and
 * split here: the tenant's devices left malloc at 33 MB and the service's peak at 222 MB against
 * 270 (alternating runs). In-process the one-row form costs what `all()` does, or less: a page of
 * 50 devices 546-553 us against 556-566, of 50 sites 221-224 against 232-235, a device 109-117
 * against 118-121; a page of 1,000 interfaces 8.6-9.0 ms against 8.0-8.9. Shorter statements,
 * whose copy is small (a token's row, a count), keep `all()`.
 */
export const ONE_ROW_SQL_CHARS = 4 * 1024;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What a whole page's read (one row, one column `PAGE_TEXT`) has in its SQL, whatever its length. */
export const PAGE_MARK = quoted(PAGE_TEXT);

/**
 * A whole page's read (`PAGE_TEXT`) with its text as UTF-8 bytes from `fromBytes` bytes on. SQLite
 * gives a blob as its bytes, which the addon copies once into a buffer this thread can move to
 * the thread that writes the answer; a text is decoded into a string, copied into the other
 * thread's heap by the move, and encoded there once more. Under 16 clients reading pages of 50
 * sites (42 KB) the HTTP thread's collector promoted the copies it got, 0.5 MB a scavenge, and
 * ran a full collection every 80 ms, once it had fallen into doing so (about one start in three).
 * Shorter texts stay text: a string costs less to copy than a buffer to make.
 */
export const pageBytesSql = (sql: string, fromBytes: number): string =>
  `SELECT CASE WHEN octet_length(${PAGE_MARK}) >= ${fromBytes} THEN CAST(${PAGE_MARK} AS BLOB) ELSE ${PAGE_MARK} END AS ${PAGE_MARK} FROM (${sql})`;

/**
 * `sql` as the one-row form's FROM. SQLite flattens a subquery into the query around it where it
 * can (one without ORDER BY: a single object's read), and each reference the form makes to a
 * column (its type, then its text) then computes the column's expression again: a device, whose
 * column is one large json_object, took 306-316 us against 109-117 read through a subquery that
 * cannot be flattened (an OFFSET). A page's statement, ordered, is read as a co-routine anyway,
 * and the extra subquery would copy every row once more (a page of 1,000 interfaces 10.7-11.3 ms
 * against 8.6-9.0): `flattened` says which the statement is (`isFlattened`).
 */
const source = (sql: string, flattened: boolean) => (flattened ? `(SELECT * FROM (${sql}) LIMIT -1 OFFSET 0)` : `(${sql})`);

/** One line of `EXPLAIN QUERY PLAN`. */
export interface PlanLine {
  readonly parent: number;
  readonly detail: string;
}

/**
 * Whether SQLite flattened a one-row form's subquery, from the form's plan (made with `flattened`
 * false): a subquery read as it is shows at the top of the plan as a co-routine or a
 * materialization. A plan that says neither counts as flattened, whose form is right either way.
 */
export const isFlattened = (plan: readonly PlanLine[]): boolean =>
  !plan.some((line) => line.parent === 0 && /^(CO-ROUTINE|MATERIALIZE)\b/.test(line.detail));

/**
 * One value as JSON its type survives: text as a string (`|| ''` drops a JSON subtype, so a column
 * of JSON text stays text), an integer or NULL as itself, a real as its 17 significant digits (JSON
 * text would round it to 15) and a blob as hex, each in an object of its own.
 */
const cell = (column: string) =>
  `CASE typeof(${column}) WHEN 'text' THEN ${column} || '' WHEN 'real' THEN json_object('r', printf('%!.17g', ${column})) ` +
  `WHEN 'blob' THEN json_object('b', hex(${column})) ELSE ${column} END`;

/**
 * The statement that reads what `sql`, with the result columns `names`, reads as one row of one
 * column `r`, every row as a JSON array within one JSON array, in the same order (an aggregate over
 * a subquery with ORDER BY reads it in that order); null where the columns cannot be told apart by
 * name. It takes every type; `separatedSql` is the faster form where it applies.
 */
export function oneRowSql(sql: string, names: readonly string[], flattened: boolean): string | null {
  if (new Set(names).size !== names.length) return null;
  return `SELECT json_group_array(json_array(${names.map((n) => cell(quoted(n))).join(", ")})) AS r FROM ${source(sql, flattened)}`;
}

/** A cell as tagged text: `t` and the text, `i` and the integer, `n` for NULL; NULL (spoiling its row) for a real or a blob. */
const tagged = (column: string) =>
  `CASE typeof(${column}) WHEN 'text' THEN 't' || ${column} WHEN 'integer' THEN 'i' || ${column} WHEN 'null' THEN 'n' END`;

/**
 * The statement that reads what `sql` reads as one row: `n` the rows, `x` the cells of a type the
 * text cannot carry (real, blob), and `r` every row's cells as tagged text, cells and rows
 * separated by control characters. A page's rows are JSON text that SQLite writes with every
 * control character escaped, so nothing in them needs escaping here, where the JSON form escapes
 * every quote of every row for JSON.parse to read back: a page of 1,000 interfaces took SQLite
 * 4.9 ms this way against 8.0, and splitting it 0.1 ms against parsing 1.3. A real, a blob or a
 * separator within a text (counted by `rowsOfSeparated`) sends the read to the JSON form.
 */
export function separatedSql(sql: string, names: readonly string[], flattened: boolean): string | null {
  if (new Set(names).size !== names.length) return null;
  const columns = names.map(quoted);
  const cells = columns.map(tagged).join(" || char(31) || ");
  const spoiled = columns.map((c) => `(typeof(${c}) IN ('real', 'blob'))`).join(" + ");
  return `SELECT count(*) AS n, total(${spoiled}) AS x, group_concat(${cells}, char(30)) AS r FROM ${source(sql, flattened)}`;
}

/** What `separatedSql` reads. */
export interface Separated {
  readonly n: number;
  readonly x: number;
  readonly r: string | null;
}

/**
 * The rows `separatedSql`'s answer holds, as the addon's `all()` gives them; null where it cannot
 * tell them (a real or a blob, or a separator within a text: more rows or cells than were read).
 */
export function rowsOfSeparated({ n, x, r }: Separated, names: readonly string[]): Row[] | null {
  if (x > 0) return null;
  if (n === 0) return [];
  if (r === null) return null;
  const lines = r.split(ROW_CHAR);
  if (lines.length !== n) return null;
  const rows: Row[] = new Array(n);
  for (let at = 0; at < n; at++) {
    const cells = lines[at].split(CELL_CHAR);
    if (cells.length !== names.length) return null;
    const row: Row = {};
    for (let i = 0; i < names.length; i++) {
      const c = cells[i];
      const tag = c.charCodeAt(0);
      if (tag === TEXT) row[names[i]] = c.slice(1);
      else if (tag === INTEGER) row[names[i]] = Number(c.slice(1));
      else if (tag === NULL && c.length === 1) row[names[i]] = null;
      else return null;
    }
    rows[at] = row;
  }
  return rows;
}

const ROW_CHAR = String.fromCharCode(0x1e);
const CELL_CHAR = String.fromCharCode(0x1f);
const TEXT = "t".charCodeAt(0);
const INTEGER = "i".charCodeAt(0);
const NULL = "n".charCodeAt(0);

type Cell = string | number | null | { readonly r: string } | { readonly b: string };

/** The rows `oneRowSql`'s answer holds, as the addon's `all()` gives them. */
export function rowsOfOneRow(text: string, names: readonly string[]): Row[] {
  return (JSON.parse(text) as Cell[][]).map((cells) => {
    const row: Row = {};
    for (let i = 0; i < names.length; i++) {
      const c = cells[i];
      row[names[i]] = c === null || typeof c !== "object" ? c : "r" in c ? Number(c.r) : bytes(c.b);
    }
    return row;
  });
}

/** A blob as the addon gives it: an ArrayBuffer. */
function bytes(hex: string): ArrayBuffer {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out.buffer;
}

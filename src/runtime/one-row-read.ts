import type { Row } from "../db/database.ts";

/**
 * Long reads through the native addon as one row. The addon's `all()` steps a native `Rows`
 * object that keeps a copy of its statement (about its SQL text's size: 96 KB retained per call
 * of a 100 KB statement) until V8 collects the object's wrapper, and V8, not knowing that memory,
 * collects it at its leisure: under the large benchmark's interfaces-by-device load the service
 * grew to 449 MB, 234 MB of it malloc's. `get()` drops its rows before it returns. So a read whose
 * SQL is long is asked for as one row, every row as a JSON array within one JSON array, and split
 * here: the same load stayed at 254 MB, at the same throughput (in-process, a 1,000-interface page
 * costs the same either way). Short statements, whose copy is small, keep `all()`: the JSON text
 * cost a page of 50 devices 5-10 % more.
 */
export const ONE_ROW_SQL_CHARS = 32 * 1024;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

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
 * column `r`, in the same order (an aggregate over a subquery with ORDER BY reads it in that order);
 * null where the columns cannot be told apart by name.
 */
export function oneRowSql(sql: string, names: readonly string[]): string | null {
  if (new Set(names).size !== names.length) return null;
  return `SELECT json_group_array(json_array(${names.map((n) => cell(quoted(n))).join(", ")})) AS r FROM (${sql})`;
}

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

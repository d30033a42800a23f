import type { Database } from "./database.ts";

/*
 * SQLite's query planner chooses indexes by the statistics ANALYZE leaves in `sqlite_stat1`;
 * without them it assumes every indexed value matches about ten rows. A list of one tenant's
 * devices, 10,000 of them, then walked the tenant's index and sorted every row for a page of 50
 * (3.5 ms, measured) where the name index, in order, reads 50 (0.13 ms). The planner statistics
 * are kept here: a table is analyzed once it holds enough rows to matter, and again each time it
 * has doubled since. Other connections take the new statistics at their next statement.
 */

/** Rows a table holds before its statistics are worth gathering. */
const MIN_ROWS = 200;

/** Rows ANALYZE samples per index: enough for the planner, bounded on a table of millions (about 2 s for all, measured on 1.2 GB). */
const ANALYSIS_LIMIT = 1000;

/** Whether the database holds planner statistics at all (a row when it does). */
export const STATISTICS_KEPT = { sql: "SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'", parameters: [] } as const;

/** Keeps planner statistics current; `refresh` analyzes what has grown. */
export function plannerStatistics() {
  // Each table's size when this process last analyzed it, so rows deleted since (a size taken
  // from the highest rowid overstates them) cannot make it look stale again and again.
  const analyzedAt = new Map<string, number>();
  return {
    async refresh(db: Database): Promise<void> {
      const [tables, stats] = await db.batch(
        [
          {
            // Tables with an index, the only ones whose statistics the planner reads.
            sql: `SELECT t.name, t.sql LIKE '%WITHOUT ROWID%' AS keyed FROM sqlite_master t
              WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                AND EXISTS (SELECT 1 FROM sqlite_master i WHERE i.type = 'index' AND i.tbl_name = t.name)`,
            parameters: [],
          },
          STATISTICS_KEPT,
        ],
        "read",
      );
      if (!tables.rows.length) return;
      const analyzed = new Map<string, number>();
      if (stats.rows.length) {
        // A row's `stat` starts with the table's row count when it was analyzed.
        const [rows] = await db.batch(
          [{ sql: "SELECT tbl, max(CAST(stat AS INTEGER)) AS n FROM sqlite_stat1 GROUP BY tbl", parameters: [] }],
          "read",
        );
        for (const r of rows.rows) analyzed.set(String(r.tbl), Number(r.n));
      }
      // The highest rowid is read from the end of the table's B-tree, whatever its size.
      const sizes = tables.rows.map(
        (t) =>
          `SELECT ${literal(String(t.name))} AS name, (SELECT ${Number(t.keyed) ? "count(*)" : "max(rowid)"} FROM ${quoted(String(t.name))}) AS n`,
      );
      // In statements of at most 200 terms: SQLite caps a compound SELECT at 500.
      const chunks = Array.from({ length: Math.ceil(sizes.length / 200) }, (_, i) => sizes.slice(i * 200, i * 200 + 200));
      const sized = await db.batch(
        chunks.map((chunk) => ({ sql: chunk.join(" UNION ALL "), parameters: [] })),
        "read",
      );
      const stale = sized
        .flatMap((result) => result.rows)
        .map((r) => ({ name: String(r.name), size: Number(r.n ?? 0) }))
        .filter(({ name, size }) => {
          if (size < MIN_ROWS) return false;
          const known = analyzedAt.get(name) ?? analyzed.get(name);
          return known === undefined || size > 2 * known;
        });
      // One table at a time, so the writes waiting behind it wait for one table's sample only.
      for (const { name, size } of stale) {
        await db.executeScript(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}; ANALYZE ${quoted(name)}`);
        await withoutNulls(db, name);
        analyzedAt.set(name, size);
      }
    },
  };
}

/**
 * ANALYZE counts the rows that hold NULL in an index's first column as rows of one value, but no
 * `column = ?` ever matches them. A foreign key that most rows leave empty (a prefix's site) then
 * looked as if each value matched most of the table, and the planner counted a site's prefixes by
 * scanning the whole index instead of searching it (the 50-site page: 0.85 -> 1.8 ms). Each such
 * index's estimate becomes the rows per value among the rows that hold one; then the planner
 * reloads the statistics (`ANALYZE sqlite_schema`).
 */
async function withoutNulls(db: Database, table: string): Promise<void> {
  const [indexes, stats] = await db.batch(
    [
      {
        // Indexes whose first column is a column that may be NULL (not an expression).
        sql: `SELECT l.name AS idx, i.name AS col FROM pragma_index_list(?1) l
          JOIN pragma_index_info(l.name) i ON i.seqno = 0
          JOIN pragma_table_info(?1) c ON c.name = i.name AND c."notnull" = 0 AND c.pk = 0`,
        parameters: [table],
      },
      { sql: "SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?", parameters: [table] },
    ],
    "read",
  );
  const stat = new Map(stats.rows.map((r) => [String(r.idx), String(r.stat)]));
  const nullable = indexes.rows.filter((r) => stat.has(String(r.idx)));
  if (!nullable.length) return;
  const counts = await db.batch(
    nullable.map((r) => ({
      sql: `SELECT count(${quoted(String(r.col))}) AS held, count(DISTINCT ${quoted(String(r.col))}) AS "values" FROM ${quoted(table)}`,
      parameters: [],
    })),
    "read",
  );
  const updates = nullable.flatMap((r, i) => {
    const { held, values } = counts[i].rows[0] as { held: number; values: number };
    const [rows, ...rest] = stat.get(String(r.idx))!.split(" ");
    const perValue = Math.max(1, Math.ceil(Number(held) / Math.max(1, Number(values))));
    // Each later column narrows what the first matched: none of its estimates may exceed the first's.
    const fixed = rest.map((x) => (/^\d+$/.test(x) ? String(Math.min(Number(x), perValue)) : x));
    const line = [rows, ...fixed].join(" ");
    return line === stat.get(String(r.idx))
      ? []
      : [`UPDATE sqlite_stat1 SET stat = ${literal(line)} WHERE tbl = ${literal(table)} AND idx = ${literal(String(r.idx))}`];
  });
  if (updates.length) await db.executeScript(`${updates.join("; ")}; ANALYZE sqlite_schema`);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

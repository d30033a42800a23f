import type { Row } from "../db/database.ts";

/**
 * The rows a reader connection's statements gave, for as long as the database has not changed.
 *
 * SQLite numbers each state of a database file as one connection sees it (`PRAGMA data_version`,
 * read inside the batch's read transaction, so it names that transaction's snapshot): the number
 * changes with every commit by any other connection, this process's writer thread, a second
 * instance or `sqlite3` alike. A reader never writes, so within one number the same SQL with the
 * same parameters gives the same rows, and a statement read again is answered from here instead
 * of run. A new number empties the cache; so does outgrowing its budget (it then refills with what
 * is read next, rather than keeping an order of use on every hit).
 *
 * A read's rows are kept from its second sight under one number on, so reads that never repeat
 * cost a remembered hash, not a copy of their rows. Statements whose rows depend on more than the
 * data (the clock, randomness) are never kept. A page of 50 sites cost the reader 350-600 us of
 * SQLite to write and costs a lookup read again.
 *
 * By default (READ_CACHE_MB=0) a reader keeps only small results (native-connection.ts): at 4 MB the large benchmark's peak RSS was 349-376 MB against
 * 317 MB without it (at 2 MB, 376); 326 MB with it on the HTTP thread's reader alone, 336 MB on
 * the app threads' alone. A kept megabyte costs more than one: its keys (counted since), its row
 * objects, and the old generation V8 grows around what stays alive.
 */

/** SQL whose rows depend on more than the database's contents and the parameters. */
const VOLATILE = /\bnow\b|random|\bcurrent_(?:time|date|timestamp)\b|unixepoch\s*\(\s*\)|changes\s*\(|last_insert_rowid|sqlite_version/i;

/** A result larger than this share of the budget is not kept, so one big page cannot empty the cache. */
const LARGEST_SHARE = 8;

/** SQL texts looked at before the cache starts over (the client's filters choose them). */
const TEXTS_KEPT = 2000;

/** Reads seen once that are remembered (as their parameters only) before the cache starts over. */
const SEEN_KEPT = 4096;

/** What one SQL text's results are kept under, and whether that text may be kept at all. */
interface TextEntry {
  readonly keep: boolean;
  readonly results: Map<string, Row[]>;
  /** Parameters read once under this number, as a hash: their rows are kept when they are read again. */
  readonly seen: Set<number>;
}

export interface ReadCacheStats {
  hits: number;
  misses: number;
}

/**
 * A cache of at most about `budget` characters of row values. `copy`: rows are handed to the
 * caller itself, not copied across threads, so each side gets rows of its own. `largest`: the
 * characters of the largest result kept (an eighth of the budget unless given).
 */
export function readCache(
  budget: number,
  { copy, largest = budget / LARGEST_SHARE }: { readonly copy: boolean; readonly largest?: number },
) {
  const texts = new Map<string, TextEntry>();
  const stats: ReadCacheStats = { hits: 0, misses: 0 };
  let version: number | null = null;
  let size = 0;
  let seen = 0;

  const clear = () => {
    texts.clear();
    size = 0;
    seen = 0;
  };

  /** Starts over from `text` alone, emptied, so that what the budget counts is all that is kept. */
  const restart = (sql: string, text: TextEntry) => {
    clear();
    text.results.clear();
    text.seen.clear();
    texts.set(sql, text);
  };

  return {
    stats,
    /** The database's state for the batch about to be read (its `data_version`): a new one empties the cache. */
    at(dataVersion: number): void {
      if (dataVersion !== version) clear();
      version = dataVersion;
    },
    /** The kept rows of `sql` with `parameters`, else what `run` gives (kept when small and plain). */
    rows(sql: string, parameters: readonly unknown[], run: () => Row[]): Row[] {
      let text = texts.get(sql);
      if (!text) {
        if (texts.size >= TEXTS_KEPT) clear();
        texts.set(sql, (text = { keep: !VOLATILE.test(sql), results: new Map(), seen: new Set() }));
      }
      const key = text.keep ? parametersKey(parameters) : null;
      if (key === null) return run();
      const kept = text.results.get(key);
      if (kept) {
        stats.hits++;
        return copy ? kept.map(copyRow) : kept;
      }
      stats.misses++;
      const rows = run();
      const hash = hashOf(key);
      if (!text.seen.has(hash)) {
        // Kept from the second read on: reads that never repeat (paging through a large table)
        // would only fill and empty the cache, their rows outliving their requests as garbage
        // for the old generation.
        if (seen >= SEEN_KEPT) restart(sql, text);
        text.seen.add(hash);
        seen++;
        return rows;
      }
      const rowChars = sizeOf(rows);
      // The key is kept too: a site's detail holds as many characters of parameters as of rows.
      const chars = rowChars === null ? null : rowChars + key.length;
      if (chars === null || chars > largest) return rows;
      if (size + chars > budget) restart(sql, text);
      text.results.set(key, copy ? rows.map(copyRow) : rows);
      size += chars;
      return rows;
    },
  };
}

export type ReadCache = ReturnType<typeof readCache>;

/** The budget of READ_CACHE_MB in characters: row text is mostly ASCII, a byte a character in V8. */
export const megabytesOfText = (mb: number): number => mb * 1024 * 1024;

/** The parameters as a key, or null where one is not a plain value (bytes: their rows are not kept). */
function parametersKey(parameters: readonly unknown[]): string | null {
  let key = "";
  for (const p of parameters) {
    if (typeof p === "string") key += `s${p.length}:${p}`;
    else if (typeof p === "number" || typeof p === "boolean") key += `n${p};`;
    else if (p === null || p === undefined) key += "z;";
    else return null;
  }
  return key;
}

/** About how many characters the rows hold, or null when a value is not plain (bytes): those are not kept. */
function sizeOf(rows: readonly Row[]): number | null {
  let chars = 0;
  for (const row of rows) {
    chars += 16;
    for (const key in row) {
      const value = row[key];
      if (typeof value === "string") chars += value.length + 8;
      else if (value === null || typeof value === "number") chars += 8;
      else return null;
    }
  }
  return chars;
}

const copyRow = (row: Row): Row => ({ ...row });

/**
 * FNV-1a of the key: what a read seen once is remembered by (its key holds the request's origin
 * and every parameter, hundreds of characters). Two keys of one hash only keep a read's rows
 * from its second sight of either; rows are found by the whole key.
 */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

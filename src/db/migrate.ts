import type { Database } from "./database.ts";
import { qb } from "./query-builder.ts";
import { byCodeUnits } from "../lib/code-order.ts";

/** A migration: its file name (which orders it) and its SQL. */
export interface Migration {
  readonly name: string;
  readonly sql: string;
}

/**
 * Applies, in name order, each migration not yet recorded in `schema_migrations`, each in its own
 * transaction together with its record. Safe to run at every start and from several processes.
 */
export async function applyMigrations(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  await db.batch(
    [{ sql: "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)", parameters: [] }],
    "write",
  );
  const [done] = await db.batch([qb.selectFrom("schema_migrations").select("name").compile()], "read");
  const applied = new Set(done.rows.map((r) => String(r.name)));
  const pending = [...migrations].sort((a, b) => byCodeUnits(a.name, b.name)).filter((m) => !applied.has(m.name));
  for (const m of pending) {
    const record = `INSERT OR IGNORE INTO schema_migrations (name, applied) VALUES ('${m.name.replace(/'/g, "''")}', '${new Date().toISOString()}');`;
    await db.executeScript(`${m.sql.trim().replace(/;?$/, ";")}\n${record}`);
  }
  return pending.map((m) => m.name);
}

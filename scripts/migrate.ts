/**
 * Applies pending migrations to LIBSQL_URL (a local file or Turso) and exits:
 *   LIBSQL_URL=libsql://inventory-org.turso.io LIBSQL_AUTH_TOKEN=... npm run migrate
 */
import { applyMigrations } from "../src/db/migrate.ts";
import { parseConfig } from "../src/config.ts";
import { openDatabase } from "../src/runtime/node-database.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";

const config = parseConfig(process.env);
const db = openDatabase(config);
const applied = await applyMigrations(db, loadMigrations());
console.log(applied.length ? `Applied ${applied.join(", ")} to ${config.LIBSQL_URL}` : `${config.LIBSQL_URL} is up to date`);
db.close();

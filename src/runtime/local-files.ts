import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.ts";
import type { Migration } from "../db/migrate.ts";
import { randomHex } from "../lib/crypto.ts";
import { localPath } from "./local-path.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

/** Every migration file, by name. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), "utf8") }));
}

/**
 * SECRET_KEY when set; otherwise a key generated at first start and kept in `secret_key` beside
 * the database file (mode 0600), so restarts keep every token valid. An in-memory or remote
 * database without SECRET_KEY gets a key for this process only.
 */
export function resolveSecretKey(config: Config): { key: string; generated: string | null } {
  if (config.SECRET_KEY) return { key: config.SECRET_KEY, generated: null };
  const path = localPath(config.LIBSQL_URL);
  if (path === null || path === ":memory:") return { key: randomHex(32), generated: null };
  const file = join(dirname(path), "secret_key");
  if (existsSync(file)) return { key: readFileSync(file, "utf8").trim(), generated: null };
  mkdirSync(dirname(file), { recursive: true });
  const key = randomHex(32);
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, generated: file };
}

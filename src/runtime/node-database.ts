import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createClient } from "@libsql/client";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { libsqlClientDatabase } from "../db/libsql-client.ts";
import { nativeDatabase, type NativeDatabaseOptions } from "./native-database.ts";
import { localPath } from "./local-path.ts";

/**
 * Opens LIBSQL_URL: a local file through the native driver (the fast path for the embedded
 * default, its connections on database threads), anything else (Turso, a libsql server) through
 * @libsql/client.
 */
export function openDatabase(config: Config, options: Pick<NativeDatabaseOptions, "readers"> = {}): Database {
  const path = localPath(config.LIBSQL_URL);
  if (path === null) {
    return libsqlClientDatabase(createClient({ url: config.LIBSQL_URL, authToken: config.LIBSQL_AUTH_TOKEN, intMode: "number" }));
  }
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return nativeDatabase(path, { ...options, busyTimeoutMs: config.DATABASE_BUSY_TIMEOUT, readCacheMb: config.READ_CACHE_MB });
}

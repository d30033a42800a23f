/**
 * Runs in Node before the workerd pool starts: a local libSQL (Hrana over HTTP) server on a fresh
 * SQLite file, on 127.0.0.1 and a free port. Its URL reaches the worker as the LIBSQL_URL binding
 * (vitest.workerd.config.ts reads it with `inject("libsqlUrl")`). The worker applies the migrations
 * and creates the superuser itself, on its first request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startLibsqlServer } from "../../scripts/libsql-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    libsqlUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "inventory-workerd-"));
  const server = await startLibsqlServer({ path: join(dir, "inventory.db"), host: "127.0.0.1", port: 0 });
  project.provide("libsqlUrl", server.url);
  return async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

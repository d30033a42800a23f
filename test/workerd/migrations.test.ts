/**
 * src/worker.ts bundles its migrations by name, so a new file in migrations/ must be added there.
 * workerd cannot read the project's files, but Vite expands `import.meta.glob` on the host when it
 * transforms this file, so the listing below is the real directory.
 */
import { expect, it } from "vitest";
import { MIGRATIONS } from "../../src/worker.ts";

const files = import.meta.glob<string>("../../migrations/*.sql", { query: "?raw", import: "default", eager: true });

it("MIGRATIONS names every file in migrations/, in order, with its text", () => {
  const onDisk = Object.entries(files)
    .map(([path, sql]) => ({ name: path.slice(path.lastIndexOf("/") + 1), sql }))
    .sort((a, b) => a.name.localeCompare(b.name));
  expect(onDisk.length).toBeGreaterThan(0);
  expect(MIGRATIONS.map((m) => m.name)).toEqual(onDisk.map((m) => m.name));
  // Bundled through wrangler.toml's Text rule: the file's text, not a path or an empty module.
  expect(MIGRATIONS.map((m) => m.sql)).toEqual(onDisk.map((m) => m.sql));
  expect(MIGRATIONS[0].sql).toMatch(/CREATE TABLE/i);
});

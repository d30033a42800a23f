import { registry } from "../src/apps/index.ts";
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "../src/db/migrate.ts";
import { nativeDatabase } from "../src/runtime/native-database.ts";
import { migrationList } from "../scripts/list-migrations.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";

const columnsOf = async (db: ReturnType<typeof nativeDatabase>, table: string) => {
  const [result] = await db.batch([{ sql: `PRAGMA table_info(${table})`, parameters: [] }], "read");
  return new Map(result.rows.map((r) => [String(r.name), r]));
};

describe("migrations", () => {
  it("give every registered field its column, and every m2m its link table", async () => {
    const db = nativeDatabase(":memory:");
    await applyMigrations(db, loadMigrations());
    for (const model of registry.models) {
      const columns = await columnsOf(db, model.table);
      expect(columns.size, `table ${model.table}`).toBeGreaterThan(0);
      for (const field of model.fields) {
        if (field.column) {
          expect(columns.has(field.column), `${model.objectType}.${field.name} -> ${model.table}.${field.column}`).toBe(true);
          expect(columns.get(field.column)!.notnull === 1, `${model.table}.${field.column} nullability`).toBe(
            !field.nullable && field.kind !== "datetime",
          );
        }
        if (field.kind === "m2m") {
          const link = await columnsOf(db, field.through!.table);
          expect(
            [field.through!.source, field.through!.target].every((c) => link.has(c)),
            field.through!.table,
          ).toBe(true);
        }
      }
      for (const column of Object.keys(model.storage ?? {})) expect(columns.has(column), `${model.table}.${column}`).toBe(true);
    }
    db.close();
  });

  it("are applied once, in order, and recorded", async () => {
    const db = nativeDatabase(":memory:");
    const all = loadMigrations();
    expect(await applyMigrations(db, all)).toEqual(all.map((m) => m.name));
    expect(await applyMigrations(db, all)).toEqual([]);
    const [rows] = await db.batch([{ sql: "SELECT name FROM schema_migrations ORDER BY name", parameters: [] }], "read");
    expect(rows.rows.map((r) => r.name)).toEqual(all.map((m) => m.name));
    db.close();
  });

  it("roll back a failing migration whole, leaving no record", async () => {
    const db = nativeDatabase(":memory:");
    await expect(
      applyMigrations(db, [{ name: "0001_bad.sql", sql: "CREATE TABLE ok_table (id INTEGER);\nCREATE TABLE broken (" }]),
    ).rejects.toThrow();
    const [tables] = await db.batch([{ sql: "SELECT name FROM sqlite_master WHERE name IN ('ok_table')", parameters: [] }], "read");
    expect(tables.rows).toEqual([]);
    db.close();
  });

  it("are named NNNN_name.sql and listed, as generated, for the worker entry to bundle", () => {
    const files = readdirSync("migrations").filter((f) => f.endsWith(".sql"));
    for (const f of files) expect(f).toMatch(/^\d{4}_[a-z0-9_]+\.sql$/);
    expect(readFileSync("src/db/migration-files.ts", "utf8"), "run npm run list-migrations").toBe(migrationList());
  });
});

describe("portability", () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });

  it("keeps src/ free of node: imports outside the entries and src/runtime/", () => {
    const portable = walk("src").filter(
      (p) => p.endsWith(".ts") && !p.startsWith("src/runtime/") && !["src/node.ts", "src/deno.ts"].includes(p),
    );
    for (const path of portable) {
      const text = readFileSync(path, "utf8");
      expect(text.match(/from\s+["']node:[^"']+["']|import\(["']node:/g), path).toBeNull();
      expect(text.match(/(?<![.\w])(process|Buffer|__dirname|require)\s*[.(]/g), path).toBeNull();
    }
  });
});

describe("model declarations", () => {
  it("fail at definition when brief, search or ordering names an unknown field", async () => {
    const { defineModel } = await import("../src/schema/model.ts");
    const base = { app: "dcim", name: "thing" } as const;
    expect(() => defineModel({ ...base, fields: {}, brief: ["nmae"] })).toThrow(/dcim\.thing: unknown field\(s\) nmae/);
    expect(() => defineModel({ ...base, fields: {}, brief: [], ordering: ["-created"] })).not.toThrow();
  });
});

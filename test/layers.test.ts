import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, LAYERS, layerOf, upwardImports } from "./support/imports.ts";

/*
 * The architecture as a test: src/ is layered (lib, schema, engine, apps, services, adapters,
 * the app, the entries; see LAYERS and README's "Working on it"), and imports point down only.
 */

/** The part of src/ a file belongs to: its top folder, or its app (`apps/dcim`). */
const partOf = (path: string) =>
  path
    .split("/")
    .slice(0, path.startsWith("apps/") ? 2 : 1)
    .join("/");

/** Cycles that break the rules: any among runtime imports; among type-only ones, any spanning two parts of src/. */
function forbiddenCycles(root: string): string[][] {
  const runtime = importCycles(importGraph(root, { types: false }));
  const typed = importCycles(importGraph(root)).filter((cycle) => new Set(cycle.map(partOf)).size > 1);
  return [...runtime, ...typed];
}

describe("the layers of src/", () => {
  const graph = importGraph("src");

  it("place every file in a layer", () => {
    for (const file of graph.keys()) expect(() => layerOf(file), file).not.toThrow();
  });

  it("have no import that points up, type imports included", () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it("have no import cycle (types may refer to each other within one top folder or app: a model has fields, a field points at a model)", () => {
    expect(forbiddenCycles("src")).toEqual([]);
  });

  it("let apps import only what lies below them and each other", () => {
    const apps = LAYERS.findIndex((layer) => layer.includes("apps/"));
    for (const [file, targets] of graph) {
      if (!file.startsWith("apps/")) continue;
      for (const target of targets) expect(layerOf(target) <= apps, `${file} -> ${target}`).toBe(true);
    }
  });
});

describe("the layer check itself", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(root, "src-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it("finds an upward import, also a type-only one", () => {
    const dir = tree({
      "schema/model.ts": 'import type { Actor } from "../engine/actor.ts";\nexport const a = 1;\n',
      "engine/actor.ts": 'import { a } from "../schema/model.ts";\nexport type Actor = typeof a;\n',
      "engine/crud.ts": 'export const run = () => import("../http/router.ts");\n',
      "http/router.ts": "export {};\n",
    });
    expect(upwardImports(importGraph(dir)).sort()).toEqual(["engine/crud.ts -> http/router.ts", "schema/model.ts -> engine/actor.ts"]);
  });

  it("finds a runtime cycle inside a folder and a type cycle across folders, and lets a type cycle inside a folder be", () => {
    const dir = tree({
      "apps/dcim/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "apps/dcim/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      "schema/fields.ts": 'import type { Model } from "./model.ts";\nexport type Field = { target: Model };\n',
      "schema/model.ts": 'import { type Field } from "./fields.ts";\nexport type Model = { fields: Field[] };\n',
      "apps/ipam/x.ts": 'import type { Y } from "../tenancy/y.ts";\nexport type X = Y[];\n',
      "apps/tenancy/y.ts": 'import type { X } from "../ipam/x.ts";\nexport type Y = X | null;\n',
    });
    expect(forbiddenCycles(dir)).toEqual([
      ["apps/dcim/a.ts", "apps/dcim/b.ts"],
      ["apps/ipam/x.ts", "apps/tenancy/y.ts"],
    ]);
  });

  it("refuses a file in no layer", () => {
    expect(() => layerOf("misc/helper.ts")).toThrow(/in no layer/);
  });
});

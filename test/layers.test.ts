import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, LAYERS, layerOf, upwardImports } from "./support/imports.ts";

/*
 * The architecture as a test: src/ is layered (lib, schema, engine, apps, services, adapters,
 * the app, the entries; see LAYERS and README's "Working on it"), and imports point down only.
 */

describe("the layers of src/", () => {
  const graph = importGraph("src");

  it("place every file in a layer", () => {
    for (const file of graph.keys()) expect(() => layerOf(file), file).not.toThrow();
  });

  it("have no import that points up, type imports included", () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it("have no import cycle, type imports included", () => {
    expect(importCycles(graph)).toEqual([]);
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

  it("finds a cycle of runtime imports, and one of type-only imports", () => {
    const dir = tree({
      "apps/dcim/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "apps/dcim/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      "schema/fields.ts": 'import type { Model } from "./model.ts";\nexport type Field = { target: Model };\n',
      "schema/model.ts": 'import { type Field } from "./fields.ts";\nexport type Model = { fields: Field[] };\n',
      "schema/registry.ts": 'import type { Model } from "./model.ts";\nexport type Registry = Model[];\n',
    });
    expect(importCycles(importGraph(dir))).toEqual([
      ["apps/dcim/a.ts", "apps/dcim/b.ts"],
      ["schema/fields.ts", "schema/model.ts"],
    ]);
    expect(importCycles(importGraph(dir, { types: false }))).toEqual([["apps/dcim/a.ts", "apps/dcim/b.ts"]]);
  });

  it("refuses a file in no layer", () => {
    expect(() => layerOf("misc/helper.ts")).toThrow(/in no layer/);
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layers of src/, bottom first: a file may import its own layer and those below, never one
 * above. The first prefix a path starts with names its layer.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["lib/", "db/", "config.ts", "sql.d.ts"],
  ["schema/"],
  ["engine/"],
  ["apps/"],
  ["events/"],
  ["http/", "auth/", "rest/", "graphql/", "ui/"],
  ["app.ts"],
  ["runtime/", "worker.ts", "node.ts", "deno.ts"],
];

export const layerOf = (path: string): number => {
  const i = LAYERS.findIndex((prefixes) => prefixes.some((p) => path === p || path.startsWith(p)));
  if (i < 0) throw new Error(`src/${path} is in no layer: add its folder to LAYERS`);
  return i;
};

/** Every .ts file under `root`, as paths relative to it. */
function sources(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(root, path);
    return path.endsWith(".ts") ? [relative(root, path)] : [];
  });
}

/** An import that only names types (`import type`, or every name marked `type`): erased when the code runs. */
const typeOnly = (statement: string): boolean => {
  if (/^\s*(import|export)\s+type\b/.test(statement)) return true;
  const names = /\{([^}]*)\}/.exec(statement)?.[1];
  // A default or namespace import beside the braces is a runtime import.
  if (!names || /^\s*import\s+[\w*]/.test(statement)) return false;
  const list = names
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((n) => n.startsWith("type "));
};

/**
 * What each file of src/ imports of src/, by path relative to src/: static and dynamic imports,
 * and with `types` also those that only name types.
 */
export function importGraph(root: string, { types = true }: { readonly types?: boolean } = {}): Map<string, string[]> {
  const files = sources(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)|(?:^|\n)\s*import\s+"(\.[^"]+)"/g,
    )) {
      if (!types && typeOnly(m[0])) continue;
      const target = relative(root, resolve(dirname(join(root, file)), m[1] ?? m[2] ?? m[3]));
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Imports that point up the layers, as "importer -> imported". */
export const upwardImports = (graph: ReadonlyMap<string, readonly string[]>): string[] =>
  [...graph].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`));

/** The strongly connected components of more than one file (Tarjan), each sorted. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

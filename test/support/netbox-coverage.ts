/**
 * How much of NetBox 4.2's REST API our OpenAPI document describes, per NetBox app: paths, the
 * response properties of the models both serve, and the filter names of their lists. Pure
 * functions over two parsed documents; `test/netbox-coverage.test.ts` prints and pins the figures.
 */

/** The parts of an OpenAPI document (3.0 or 3.1) the comparison reads. */
export interface OpenApiLike {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, any> };
}

/** NetBox 4.2's apps below /api/, in the order the table prints them. */
export const NETBOX_APPS = ["circuits", "core", "dcim", "extras", "ipam", "tenancy", "users", "virtualization", "vpn", "wireless"] as const;
/** The row of NetBox's paths outside its apps (`/api/status/`, `/api/schema/`). */
const ROOT_ROW = "(root)";

/** NetBox paths, fields and filters counted as covered although we do not serve them, each for a reason. */
export interface CoverageExemptions {
  /** NetBox paths, as in its document (`/api/extras/scripts/{id}/`). */
  paths: ReadonlySet<string>;
  /** `<list path> <field>`: a response property of that list's model. */
  fields: ReadonlySet<string>;
  /** `<list path> <query parameter>`. */
  filters: ReadonlySet<string>;
}

/** One figure: how many of NetBox's are covered, and which are not. */
export interface Figure {
  covered: number;
  total: number;
  /** Covered by a deliberate difference rather than served. */
  deliberate: number;
  missing: string[];
}

/** One app's row of the table. */
export interface AppCoverage {
  app: string;
  paths: Figure;
  /** Models (list paths) both documents serve, and NetBox's list paths. */
  models: { shared: number; total: number };
  fields: Figure;
  filters: Figure;
}

const figure = (): Figure => ({ covered: 0, total: 0, deliberate: 0, missing: [] });

function count(f: Figure, served: boolean, exempt: boolean, name: string) {
  f.total++;
  if (served) f.covered++;
  else if (exempt) f.covered++, f.deliberate++;
  else f.missing.push(name);
}

const appOf = (path: string) => {
  const app = /^\/api\/([^/]+)\//.exec(path)?.[1] ?? "";
  return (NETBOX_APPS as readonly string[]).includes(app) ? app : ROOT_ROW;
};

/** Follows `$ref`s, merges `allOf`, and of `anyOf`/`oneOf` takes the full form (a variant not named Brief*). */
export function resolveSchema(doc: OpenApiLike, schema: any, seen = 0): any {
  if (!schema || seen > 20) return schema;
  if (schema.$ref) {
    const name = String(schema.$ref).split("/").pop()!;
    return resolveSchema(doc, doc.components?.schemas?.[name], seen + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s: any) => resolveSchema(doc, s, seen + 1));
    return { ...schema, properties: Object.assign({}, ...parts.map((p: any) => p?.properties ?? {})) };
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length) {
    const full = variants.find((v: any) => !/\/Brief[A-Z]/.test(String(v.$ref ?? ""))) ?? variants[0];
    return resolveSchema(doc, full, seen + 1);
  }
  return schema;
}

/** The properties of the objects a list path's GET returns (its `results` items), or null if the path is no model list. */
export function listModelProperties(doc: OpenApiLike, path: string): string[] | null {
  const get = doc.paths[path]?.get;
  const schema = get?.responses?.["200"]?.content?.["application/json"]?.schema;
  const page = resolveSchema(doc, schema);
  const results = page?.properties?.results;
  if (!results) return null;
  const item = resolveSchema(doc, results.items);
  return item?.properties ? Object.keys(item.properties) : null;
}

/** The query parameter names a path's GET declares (`$ref`'d parameters resolved). */
export function queryParameters(doc: OpenApiLike, path: string): string[] {
  const params: any[] = doc.paths[path]?.get?.parameters ?? [];
  const names: string[] = [];
  for (let p of params) {
    if (p.$ref) p = (doc.components as any)?.parameters?.[String(p.$ref).split("/").pop()!] ?? p;
    if (p.in === "query" && p.name) names.push(p.name);
  }
  return names;
}

/** NetBox's document against ours, per NetBox app. */
export function measureCoverage(netbox: OpenApiLike, ours: OpenApiLike, exempt: CoverageExemptions): AppCoverage[] {
  const rows = new Map<string, AppCoverage>(
    [...NETBOX_APPS, ROOT_ROW].map((app) => [
      app,
      { app, paths: figure(), models: { shared: 0, total: 0 }, fields: figure(), filters: figure() },
    ]),
  );
  for (const path of Object.keys(netbox.paths).sort()) {
    const row = rows.get(appOf(path))!;
    const served = path in ours.paths;
    count(row.paths, served, exempt.paths.has(path), path);
    const theirs = listModelProperties(netbox, path);
    if (!theirs) continue;
    row.models.total++;
    const mine = served ? listModelProperties(ours, path) : null;
    if (!mine) continue;
    row.models.shared++;
    const have = new Set(mine);
    for (const field of theirs) count(row.fields, have.has(field), exempt.fields.has(`${path} ${field}`), `${path} ${field}`);
    const accepted = new Set(queryParameters(ours, path));
    for (const filter of queryParameters(netbox, path))
      count(row.filters, accepted.has(filter), exempt.filters.has(`${path} ${filter}`), `${path} ${filter}`);
  }
  return [...rows.values()];
}

const percent = (f: { covered: number; total: number }) => (f.total ? `${((100 * f.covered) / f.total).toFixed(1)} %` : "-");

/** The coverage as a fixed-width text table, one line per app and a total. */
export function coverageTable(rows: AppCoverage[]): string {
  const total: AppCoverage = { app: "all", paths: figure(), models: { shared: 0, total: 0 }, fields: figure(), filters: figure() };
  for (const r of rows)
    for (const k of ["paths", "fields", "filters"] as const) {
      total[k].covered += r[k].covered;
      total[k].total += r[k].total;
    }
  for (const r of rows) (total.models.shared += r.models.shared), (total.models.total += r.models.total);
  const cell = (f: Figure) => `${`${f.covered}/${f.total}`.padStart(11)} ${percent(f).padStart(7)}`;
  const head = `${"app".padEnd(15)}${"paths".padStart(19)}${"models".padStart(9)}${"fields".padStart(20)}${"filters".padStart(20)}`;
  const line = (r: AppCoverage) =>
    `${r.app.padEnd(15)}${cell(r.paths)}${`${r.models.shared}/${r.models.total}`.padStart(9)} ${cell(r.fields)} ${cell(r.filters)}`;
  return [head, ...rows.map(line), line(total)].join("\n");
}

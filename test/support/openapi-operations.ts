/** A JSON Schema (or OpenAPI parameter) as the served document writes it, `$ref`s unresolved. */
export type Schema = Record<string, any>;

/** One operation of the served OpenAPI document: what a client may send to it. */
export interface Operation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path template, `/api/dcim/sites/{id}/`. */
  readonly path: string;
  /** Query parameters it declares, `$ref`s resolved. */
  readonly query: readonly { name: string; schema: Schema }[];
  /** The JSON request body's schema, `$ref`s resolved at the top (properties may still hold refs), or null. */
  readonly body: Schema | null;
}

/** A `$ref` inside the document (`#/components/parameters/limit`) resolved, or the value itself. */
export function resolve(document: Schema, value: Schema): Schema {
  let out = value;
  for (let hops = 0; out && typeof out.$ref === "string"; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${value.$ref}`);
    out = out.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((at: any, key: string) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
    if (!out) throw new Error(`unresolved $ref ${value.$ref}`);
  }
  return out;
}

/**
 * The properties an object schema accepts, through `$ref`, `allOf` (merged) and the object
 * branch of `oneOf`/`anyOf` (a list endpoint's "one object or a list of them").
 */
export function propertiesOf(document: Schema, schema: Schema, depth = 0): Record<string, Schema> {
  const s = resolve(document, schema);
  if (depth > 8) return {};
  const out: Record<string, Schema> = { ...(s.properties ?? {}) };
  for (const part of s.allOf ?? []) Object.assign(out, propertiesOf(document, part, depth + 1));
  for (const part of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
    const branch = resolve(document, part);
    if (branch.type !== "array") Object.assign(out, propertiesOf(document, branch, depth + 1));
  }
  if (s.type === "array" && s.items) Object.assign(out, propertiesOf(document, s.items, depth + 1));
  return out;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * Every operation of the document, parameters resolved whether they are written inline or as
 * `$ref`s to `components.parameters` (the document is moving from the one to the other).
 */
export function operationsOf(document: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths)) {
    const shared = (item.parameters ?? []).map((p: Schema) => resolve(document, p));
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...shared, ...(op.parameters ?? []).map((p: Schema) => resolve(document, p))];
      const query = parameters
        .filter((p) => p.in === "query")
        .map((p) => ({ name: String(p.name), schema: resolve(document, p.schema ?? {}) }));
      const content = op.requestBody ? resolve(document, op.requestBody).content : undefined;
      const body = content?.["application/json"]?.schema ? resolve(document, content["application/json"].schema) : null;
      out.push({ method: method.toUpperCase() as Operation["method"], path, query, body });
    }
  }
  return out;
}

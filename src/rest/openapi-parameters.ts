import type { JsonSchema, Model } from "../schema/shapes.ts";
import { KINDS } from "../schema/kinds/index.ts";
import { BUILTIN_FILTERS, filterParameters, type FilterParameter } from "../engine/filters.ts";

/** An OpenAPI parameter object. */
export type Parameter = Record<string, unknown>;

/** How each lookup reads, for the parameter's description. */
const OPS: Record<string, string> = {
  exact: "is one of",
  icontains: "contains",
  istartswith: "starts with",
  iendswith: "ends with",
  iexact: "equals (any case)",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  empty: "is empty",
  isnull: "is unset",
};

const list = (items: JsonSchema): JsonSchema => ({ type: "array", items });

/** The schema of one value of a filter with its lookup, as the compiler parses it. */
function valueSchema(p: FilterParameter): JsonSchema {
  if (p.op === "empty" || p.op === "isnull") return { type: "boolean" };
  const v = p.value;
  if ("sql" in v) return list({ type: v.integer ? "integer" : "string" });
  if ("relation" in v) return list(v.byId ? { type: "integer" } : { type: "string" });
  const field = v.field;
  if (v.family === "boolean") return list({ type: "boolean" });
  if (v.family === "choice" && p.op === "exact" && field !== "id") {
    return list({ enum: [...new Set(field.choices!.flatMap((c) => [c.value, ...(c.accepts ?? [])]))] });
  }
  if (v.family !== "number") return list({ type: "string" });
  if (field === "id") return list({ type: "integer" });
  return list(KINDS[field.kind].filter?.numberSchema ?? { type: "number" });
}

function describe(p: FilterParameter): string {
  const v = p.value;
  const what = "relation" in v ? `${v.relation.verboseName} (${v.byId ? "id" : v.relation.naturalKey})` : p.filter;
  const nulls = "relation" in v && p.op === "exact" ? "; `null` matches none" : "";
  return `${what} ${p.negate ? "is not" : ""}${p.negate && p.op === "exact" ? " one of" : p.negate ? ` ${OPS[p.op]}` : OPS[p.op]}${nulls}`.replace(
    /\s+/g,
    " ",
  );
}

/** The filter parameters of a model's list endpoint: every filter with every lookup it takes. */
export function filterParametersOf(model: Model): Parameter[] {
  return filterParameters(model).map((p) => query(p.name, describe(p), valueSchema(p)));
}

/**
 * A query parameter, written whole as NetBox writes it: a list value repeats the parameter
 * (`name=a&name=b`), which OpenAPI says with `explode` and `style: form`.
 */
function query(name: string, description: string, schema: JsonSchema): Parameter {
  const p: Parameter = { in: "query", name, description, schema };
  if (schema.type === "array") Object.assign(p, { explode: true, style: "form" });
  return p;
}

/** Parameters every list and detail endpoint shares, by name. */
const COMMON_PARAMETERS: Record<string, Parameter> = {
  limit: query("limit", "Objects per page (0: as many as the server allows).", { type: "integer", minimum: 0 }),
  offset: query("offset", "Objects to skip.", { type: "integer", minimum: 0 }),
  ordering: query("ordering", "Fields to sort by, comma-separated; a leading `-` sorts descending.", { type: "string" }),
  brief: query("brief", "Any value: the brief form of each object.", { type: "string" }),
  fields: query(
    "fields",
    "Only these fields of each object, comma-separated. The objects then hold a subset of the keys the response schema lists.",
    { type: "string" },
  ),
  omit: query("omit", "Every field but these, comma-separated. The objects then lack those keys of the response schema.", {
    type: "string",
  }),
  exclude: query("exclude", "`config_context` leaves out the rendered configuration context (and its key).", { type: "string" }),
  q: query("q", "Search: objects whose searched fields contain the text.", { type: "string" }),
  created_by_request: query(
    "created_by_request",
    "Objects created or updated by these requests (X-Request-ID).",
    list({ type: "string", format: "uuid" }),
  ),
  updated_by_request: query(
    "updated_by_request",
    "Objects updated by these requests (X-Request-ID).",
    list({ type: "string", format: "uuid" }),
  ),
  modified_by_request: query(
    "modified_by_request",
    "Objects created or updated by these requests (X-Request-ID).",
    list({ type: "string", format: "uuid" }),
  ),
  objectId: { in: "path", name: "id", required: true, description: "The object's id.", schema: { type: "integer" } },
};

/**
 * A shared parameter, written inline in each operation: NetBox's clients read `name` of every
 * entry of an operation's `parameters` (Ansible's inventory plugin learns the device filters so)
 * and resolve no `$ref` there. A fresh copy each time, so YAML writes no anchors and aliases.
 */
const param = (name: string): Parameter => structuredClone(COMMON_PARAMETERS[name]);

/** The parameters of a list GET: filters, then what shapes and pages the list. */
export const listParameters = (model: Model): Parameter[] => [
  ...filterParametersOf(model),
  ...BUILTIN_FILTERS.map(param),
  ...["ordering", "limit", "offset", "brief", "fields", "omit", "exclude"].map(param),
];

/** The parameters of a detail GET. */
export const detailParameters = (): Parameter[] => ["brief", "fields", "omit", "exclude"].map(param);

export const objectIdParameter = (): Parameter => param("objectId");

import type { Model } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { GraphQLError } from "graphql";
import { sql, type RawBuilder } from "kysely";
import { planFilters } from "../engine/filters.ts";
import { scopeSql } from "../engine/scope.ts";
import type { FilterSpec, GraphSchema } from "./schema.ts";
import { filterName } from "./names.ts";

type Sql = RawBuilder<unknown>;

/*
 * A filter input (`{name: {starts_with: "dc"}, site: ["ams1"], OR: {...}}`) as one SQL condition
 * on the row under `alias`: lookups compare the value's SQL; the other fields are the REST
 * filters of the same name, planned by the engine as a query string would be; AND, OR and NOT
 * combine inputs as their names say.
 */

const numeric = new Set(["ID", "Int", "Float", "Decimal"]);

/** How deep AND, OR and NOT may nest in one filter input: each level nests the SQL, which SQLite's parser bounds. */
const MAX_FILTER_NESTING = 8;

export function filterCondition(gs: GraphSchema, ctx: Actor, model: Model, input: Record<string, unknown>, alias: string, depth = 0): Sql {
  if (depth > MAX_FILTER_NESTING) throw new GraphQLError(`A filter may nest AND, OR and NOT at most ${MAX_FILTER_NESTING} deep.`);
  const specs = gs.filters.get(filterName(model))!;
  const parts: Sql[] = [];
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null || key === "AND" || key === "OR" || key === "NOT" || key === "DISTINCT") continue;
    const spec = specs.get(key);
    if (!spec) continue;
    if (spec.kind === "lookup") parts.push(...lookupConditions(spec, value as Record<string, unknown>, alias));
    else for (const v of Array.isArray(value) ? value : [value]) params.append(spec.name, String(v));
  }
  if ([...params.keys()].length) {
    const plan = planFilters(model, params, { table: alias, visible: (related) => scopeSql(ctx, related, "view") });
    // A value REST would refuse (a choice that is none) matches nothing, as NetBox's GraphQL answers it.
    parts.push(...plan.conditions, ...(Object.keys(plan.errors).length ? [sql`0`] : []));
  }
  let condition = parts.length ? sql`(${sql.join(parts, sql` AND `)})` : sql`1`;
  const nested = (key: string) => filterCondition(gs, ctx, model, input[key] as Record<string, unknown>, alias, depth + 1);
  if (input.AND) condition = sql`(${condition} AND ${nested("AND")})`;
  if (input.OR) condition = sql`(${condition} OR ${nested("OR")})`;
  if (input.NOT) condition = sql`(${condition} AND NOT coalesce(${nested("NOT")}, 0))`;
  return condition;
}

/** The conditions of one lookup input on the value `spec` names. */
function lookupConditions(spec: Extract<FilterSpec, { kind: "lookup" }>, lookup: Record<string, unknown>, alias: string): Sql[] {
  const column = spec.column(alias);
  const cast = (v: unknown): unknown => {
    if (!numeric.has(spec.type)) return v;
    const n = Number(v);
    if (v === "" || !Number.isFinite(n)) throw new GraphQLError(`'${String(v)}' is not a number.`);
    return n;
  };
  const out: Sql[] = [];
  const lower = (x: unknown) => sql`lower(${x})`;
  for (const [op, raw] of Object.entries(lookup)) {
    if (raw === undefined || raw === null) continue;
    const v = Array.isArray(raw) ? raw : cast(raw);
    switch (op) {
      case "exact":
        out.push(sql`${column} = ${v}`);
        break;
      case "i_exact":
        out.push(sql`${lower(column)} = ${lower(v)}`);
        break;
      case "contains":
        out.push(sql`instr(${column}, ${v}) > 0`);
        break;
      case "i_contains":
        out.push(sql`instr(${lower(column)}, ${lower(v)}) > 0`);
        break;
      case "starts_with":
        out.push(sql`substr(${column}, 1, length(${v})) = ${v}`);
        break;
      case "i_starts_with":
        out.push(sql`${lower(sql`substr(${column}, 1, length(${v}))`)} = ${lower(v)}`);
        break;
      case "ends_with":
        out.push(sql`substr(${column}, -length(${v})) = ${v}`);
        break;
      case "i_ends_with":
        out.push(sql`${lower(sql`substr(${column}, -length(${v}))`)} = ${lower(v)}`);
        break;
      case "gt":
        out.push(sql`${column} > ${v}`);
        break;
      case "gte":
        out.push(sql`${column} >= ${v}`);
        break;
      case "lt":
        out.push(sql`${column} < ${v}`);
        break;
      case "lte":
        out.push(sql`${column} <= ${v}`);
        break;
      case "in_list":
        out.push(sql`${column} IN (SELECT value FROM json_each(${JSON.stringify((raw as unknown[]).map(cast))}))`);
        break;
      case "range": {
        const [from, to] = (raw as unknown[]).map(cast);
        if (from === undefined || to === undefined) throw new GraphQLError("A range takes two values.");
        out.push(sql`${column} BETWEEN ${from} AND ${to}`);
        break;
      }
      case "is_null":
        out.push(raw ? sql`${column} IS NULL` : sql`${column} IS NOT NULL`);
        break;
      case "regex":
        out.push(sql`regexp(${String(raw)}, ${column})`);
        break;
      case "i_regex":
        // SQLite's regexp has no case-insensitive flag: the pattern's letters (not its escapes, as \D) and the value, lower-cased.
        out.push(sql`regexp(${String(raw).replace(/\\.|[A-Z]/g, (m) => (m.length === 2 ? m : m.toLowerCase()))}, lower(${column}))`);
        break;
    }
  }
  return out;
}

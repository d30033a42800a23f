import type { JsonSchema, RouteDeclaration } from "../../schema/shapes.ts";
import type { AllocationPlan } from "../../schema/hooks.ts";
import { sql, type RawBuilder } from "kysely";
import type { WriteIntent } from "../../schema/hooks.ts";
import { ref } from "../../schema/json-schema.ts";
import { closedObject, oneOrMany } from "../../schema/routes.ts";

type Sql = RawBuilder<unknown>;

/**
 * `initial` for the hooks of a model an allocation creates: their state is the write's plan, so
 * their probes stand aside and `prepareWrite` hands each item its picking columns.
 */
export const allocationState = (write: WriteIntent): AllocationPlan | null => write.allocation;

/**
 * SQL picking `path` of the first candidate (a JSON list of objects, in preference order) for
 * which `free` holds, evaluated when the statement runs. NULL when none is left: the insert
 * triggers of migration 0015 then abort the transaction as `guard_exhausted`.
 */
export function pickSql(candidates: readonly Record<string, unknown>[], path: string, free: (c: Sql) => Sql): Sql {
  const c = (key: string) => sql`json_extract(c.value, ${`$.${key}`})`;
  return sql`(SELECT ${c(path)} FROM json_each(${JSON.stringify(candidates)}) c WHERE ${free(sql`c.value`)} ORDER BY c.key LIMIT 1)`;
}

/** A candidate's member, for `free` conditions. */
export const member = (candidate: Sql, key: string): Sql => sql`json_extract(${candidate}, ${`$.${key}`})`;

/** Gives each item of an allocation its picking columns (items in request order). */
export function applyAllocation(plan: AllocationPlan | null, items: readonly { columns: Record<string, unknown> }[]): void {
  if (plan) items.forEach((item, i) => Object.assign(item.columns, plan.columns[i]));
}

/** What differs between the allocation endpoints. */
interface AllocationRouteOptions {
  readonly name: string;
  readonly summary: string;
  /** The keys of one item of the GET list of free space. */
  readonly free: Record<string, JsonSchema>;
  /** What one item of a POST may say (the allocation fills in the rest). */
  readonly takes: JsonSchema;
  /** The component name of the objects a POST creates. */
  readonly creates: string;
  readonly handler: RouteDeclaration["handler"];
}

/**
 * An allocation endpoint below a parent (`available-ips`, `-prefixes`, `-vlans`, `-asns`): GET
 * lists free space, POST takes one item or a list and creates objects there (201). Viewing the
 * parent is enough to reach it; creating needs the permission to add the objects, which the
 * write itself checks.
 */
export function allocationRoute(o: AllocationRouteOptions): RouteDeclaration {
  return {
    name: o.name,
    detail: true,
    summary: o.summary,
    lists: true,
    creates: true,
    methods: ["GET", "POST"],
    bodies: {
      GET: { response: { type: "array", items: closedObject(o.free) } },
      POST: { request: oneOrMany(o.takes), response: oneOrMany(ref(o.creates)) },
    },
    permission: () => "view",
    handler: o.handler,
  };
}

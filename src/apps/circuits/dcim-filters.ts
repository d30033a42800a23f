import type { RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";

/** The interface filters by the virtual circuit an interface terminates, and by that termination. */
export function interfaceVirtualCircuitFilters(): Record<string, RelatedFilter> {
  const of = (column: string) => (t: string) =>
    sql`SELECT ${sql.ref(`v.${column}`)} AS id FROM circuits_virtualcircuittermination v WHERE v.interface_id = ${sql.ref(`${t}.id`)}`;
  return {
    virtual_circuit_id: { target: "circuits.virtualcircuit", byId: true, related: of("virtual_circuit_id") },
    virtual_circuit_termination_id: { target: "circuits.virtualcircuittermination", byId: true, related: of("id") },
  };
}

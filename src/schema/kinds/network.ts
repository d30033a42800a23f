import { formatNetwork, firstOf, keyOf, lastOf, type Network } from "../../lib/network.ts";
import type { KindDescriptor } from "./descriptor.ts";
import { networkSchema, nullable } from "./inputs.ts";
import { columnFinal, info, readValue, ref, scalarApi, scalarSnapshot } from "./outputs.ts";

/** The network kind: an IP address or prefix (parsed and keyed by src/lib/network.ts). */

/** A network's stored columns: its sortable start and end keys, mask length and text. */
const networkColumns = (name: string) => ({ start: `${name}_start`, end: `${name}_end`, length: `${name}_length` });

export const networkKind: KindDescriptor = {
  storage: {
    sqlType: "TEXT",
    // The start key leads, so the index the schema derives serves range scans.
    columns: (field) => {
      const c = networkColumns(field.name);
      return [
        [c.start, "TEXT"],
        [c.end, "TEXT"],
        [c.length, "INTEGER"],
        [field.name, "TEXT"],
      ];
    },
  },
  input: {
    inputs: (field) => ({ [field.name]: nullable(field, networkSchema(field)) }),
    store: (field, value, columns) => {
      const c = networkColumns(field.name);
      const n = value as Network | null;
      const [first, last] = n === null ? [null, null] : field.network === "prefix" ? [firstOf(n), lastOf(n)] : [n.host, n.host];
      columns.set(field.name, n && formatNetwork(n));
      columns.set(c.start, n && keyOf(n.family, first!));
      columns.set(c.end, n && keyOf(n.family, last!));
      // biome-ignore lint/complexity/useOptionalChain: the column takes null, never undefined
      columns.set(c.length, n && n.length);
    },
  },
  order: (field, table) => [ref(table, networkColumns(field.name).start), ref(table, networkColumns(field.name).length)],
  render: (field, row, out) => void (out[field.name] = readValue(field, row) ?? null),
  final: columnFinal,
  options: (field) => ({ [field.name]: info(field, "string") }),
  openapi: scalarApi(
    () => ({ type: "string" }),
    () => ({ type: "string", minLength: 1 }),
  ),
  snapshot: scalarSnapshot,
};

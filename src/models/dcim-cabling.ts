import { sql } from "kysely";
import { f, type FieldOptions } from "./fields.ts";

/**
 * The fields every model a cable can attach to shares (interfaces, console, power, front and rear
 * ports, power feeds, circuit terminations): `mark_connected` and `_occupied` for now; the cables
 * work adds `cable`, `cable_end`, `link_peers` and `link_peers_type` here, once, for all of them.
 * Cable attachments live in the cables' own tables, so an endpoint's table needs only
 * `mark_connected`.
 */
export const cabled = (): Record<string, FieldOptions> => ({
  mark_connected: f.boolean({ default: false, helpText: "Treat as if a cable is connected" }),
  _occupied: f.computed((t) => sql`${sql.ref(`${t}.mark_connected`)}`, { returns: "boolean" }),
});

/**
 * The fields of an endpoint a cable path can end at (everything `cabled` but front and rear
 * ports): `connected_endpoints`, `connected_endpoints_type`, `connected_endpoints_reachable`,
 * filled by the cables work.
 */
export const pathEndpoint = (): Record<string, FieldOptions> => ({});

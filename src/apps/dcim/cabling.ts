import type { SelectContext, Field, FieldFilter, FieldOptions, FinalContext, SqlScope, Model } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { orderedArraySql } from "../../schema/kinds/outputs.ts";

type Sql = RawBuilder<unknown>;

/**
 * Where cables attach: one row per cable end termination (cable, end A or B, the endpoint's type
 * and id). The unique index on the endpoint makes "one cable per endpoint" hold even between
 * concurrent writers; deleting a cable deletes its rows (foreign key cascade).
 */
export const TERMINATIONS = "dcim_cabletermination";

/**
 * The endpoint types a cable may join, each with the types its far end may hold, as NetBox allows
 * them: console with console server, power port with outlet or feed, interfaces with interfaces and
 * circuits; pass-through ports with anything but power.
 */
export const COMPATIBLE_ENDS: Readonly<Record<string, readonly string[]>> = {
  "circuits.circuittermination": ["dcim.interface", "dcim.frontport", "dcim.rearport", "circuits.circuittermination"],
  "dcim.consoleport": ["dcim.consoleserverport", "dcim.frontport", "dcim.rearport"],
  "dcim.consoleserverport": ["dcim.consoleport", "dcim.frontport", "dcim.rearport"],
  "dcim.interface": ["circuits.circuittermination", "dcim.interface", "dcim.frontport", "dcim.rearport"],
  "dcim.frontport": [
    "circuits.circuittermination",
    "dcim.consoleport",
    "dcim.consoleserverport",
    "dcim.interface",
    "dcim.frontport",
    "dcim.rearport",
  ],
  "dcim.rearport": [
    "circuits.circuittermination",
    "dcim.consoleport",
    "dcim.consoleserverport",
    "dcim.interface",
    "dcim.frontport",
    "dcim.rearport",
  ],
  "dcim.powerfeed": ["dcim.powerport"],
  "dcim.poweroutlet": ["dcim.powerport"],
  "dcim.powerport": ["dcim.poweroutlet", "dcim.powerfeed"],
};

/** Endpoint types a path passes through rather than ends at. */
export const PASS_THROUGH = ["dcim.frontport", "dcim.rearport", "circuits.circuittermination"];

/** The registered endpoint models; models declared later join as soon as they are registered. */
export function endpointModels(byType: (t: string) => Model | undefined): Model[] {
  return Object.keys(COMPATIBLE_ENDS)
    .map(byType)
    .filter((m): m is Model => m !== undefined);
}

/** The nested form's raw JSON of the endpoint `(type, id)`, tagged with its type for rendering. */
export function nestedEndpointSql(sc: SelectContext, type: Sql, id: Sql, depth: number): Sql {
  const cases = endpointModels(sc.byType).map(
    (m) => sql`WHEN ${m.objectType} THEN json_set(${sc.nestedJson(m, id, depth)}, '$.__type', ${m.objectType})`,
  );
  return cases.length ? sql`json(CASE ${type} ${sql.join(cases, sql` `)} END)` : sql`NULL`;
}

const TRUE = ["true", "True", "1"];
const FALSE = ["false", "False", "0"];

/** A boolean filter: the condition, its negation, or no restriction for a value that is neither. */
const booleanFilter = (
  condition: (table: string, field: Field, byType: (t: string) => Model | undefined) => Sql,
): { sql: FieldFilter; boolean: true } => ({
  sql: (values, table, field, byType) => {
    if (TRUE.includes(values[0])) return condition(table, field, byType);
    if (FALSE.includes(values[0])) return sql`NOT ${condition(table, field, byType)}`;
    return sql`1`;
  },
  boolean: true,
});

/** The termination row of the endpoint read under `table`, under `alias`. */
const ownEnd = (alias: string, ownerType: string, table: string) =>
  sql`${sql.ref(`${alias}.termination_type`)} = ${ownerType} AND ${sql.ref(`${alias}.termination_id`)} = ${sql.ref(`${table}.id`)}`;

/** The terminations at the far end of the endpoint's cable (under `p`), as FROM and WHERE. */
const farEnds = (table: string, ownerType: string) =>
  sql`FROM ${sql.table(TERMINATIONS)} me JOIN ${sql.table(TERMINATIONS)} p ON p.cable_id = me.cable_id AND p.cable_end <> me.cable_end
    WHERE ${ownEnd("me", ownerType, table)}`;

/**
 * Whether any endpoint of the type has a cable end: an uncorrelated EXISTS, which SQLite runs once
 * per statement (by the index on type and id), so that where a type has no cables at all (console
 * ports on a network of interfaces, a site not yet cabled) its rows skip every per-row probe. Where
 * it has, the guard costs the statement one lookup.
 */
const anyEnds = (ownerType: Sql | string) => sql`EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} WHERE termination_type = ${ownerType})`;
/** `value` where the type has cable ends, else NULL. */
const ifAnyEnds = (ownerType: string, value: Sql) => sql`CASE WHEN ${anyEnds(ownerType)} THEN ${value} END`;

const isCabled = (table: string, ownerType: string) =>
  sql`(${anyEnds(ownerType)} AND EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} ce WHERE ${ownEnd("ce", ownerType, table)}))`;
const isOccupied = (table: string, ownerType: string) => sql`(${sql.ref(`${table}.mark_connected`)} OR ${isCabled(table, ownerType)})`;
const ints = (values: readonly string[]) => values.filter((v) => /^\d{1,15}$/.test(v)).map(Number);

/**
 * The fields every model a cable can attach to shares (interfaces, console and power ports, power
 * outlets and feeds, front and rear ports, circuit terminations): `mark_connected`, `cable`,
 * `cable_end`, `link_peers`, `link_peers_type` and `_occupied`, with the filters `cabled`,
 * `occupied`, `cable_id` and `cable_end`. Attachments live in the cables' own table, so an
 * endpoint's table needs only `mark_connected`; the SQL reads the owning model's type from the
 * field, so one field set serves every endpoint model.
 */
export const cabled = (): Record<string, FieldOptions> => ({
  mark_connected: f.boolean({ default: false, helpText: "Treat as if a cable is connected" }),
  cable: f.computed((t, s) => cableSql(t, s!), {
    returns: "nested",
    // The cable nested, read again by GraphQL as a CableType.
    target: "dcim.cable",
    finalSql: (t, { ownerType, fc }) => cableFinalSql(t, ownerType, fc),
    refs: (t, s) => sql`(SELECT json_object('id', ce.cable_id) FROM ${sql.table(TERMINATIONS)} ce WHERE ${ownEnd("ce", s!.ownerType, t)})`,
    filters: {
      cabled: booleanFilter((t, field) => isCabled(t, field.ownerType)),
      cable_id: {
        sql: (values, t, field) =>
          sql`EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} ce WHERE ${ownEnd("ce", field.ownerType, t)} AND ce.cable_id IN (SELECT value FROM json_each(${JSON.stringify(ints(values))})))`,
        negatable: true,
      },
      cable_end: (values, t, field) =>
        sql`EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} ce WHERE ${ownEnd("ce", field.ownerType, t)} AND ce.cable_end IN (SELECT value FROM json_each(${JSON.stringify(values.map((v) => v.toUpperCase()))})))`,
    },
    // Deleting an endpoint (or the device it belongs to) frees its cable end; a cable left with
    // an empty end goes with it, as NetBox deletes it. Both statements walk only this type's
    // cable ends, each checked by primary key.
    afterDelete: (table, ownerType) => {
      const gone = (alias: string) =>
        sql`NOT EXISTS (SELECT 1 FROM ${sql.table(table)} e WHERE e.id = ${sql.ref(`${alias}.termination_id`)})`;
      return [
        sql`DELETE FROM dcim_cable WHERE id IN (SELECT o.cable_id FROM ${sql.table(TERMINATIONS)} o WHERE o.termination_type = ${ownerType} AND ${gone("o")}
          AND NOT EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} s JOIN ${sql.table(table)} e ON e.id = s.termination_id
            WHERE s.cable_id = o.cable_id AND s.cable_end = o.cable_end AND s.termination_type = ${ownerType}))`,
        sql`DELETE FROM ${sql.table(TERMINATIONS)} WHERE termination_type = ${ownerType} AND ${gone(TERMINATIONS)}`,
      ];
    },
  }),
  // Null on a port no cable holds, as NetBox 4.2 answers.
  cable_end: f.computed(
    (t, s) => ifAnyEnds(s!.ownerType, sql`(SELECT ce.cable_end FROM ${sql.table(TERMINATIONS)} ce WHERE ${ownEnd("ce", s!.ownerType, t)})`),
    {
      returns: "string",
      nullable: true,
    },
  ),
  link_peers: f.computed((t, s) => linkPeersSql(t, s!), {
    returns: "nested",
    refs: (t, s) =>
      orderedArraySql(
        sql`json_group_array(json_object('__type', p.termination_type, 'id', p.termination_id) ORDER BY p.id)`,
        farEnds(t, s!.ownerType),
        sql`'[]'`,
        anyEnds(s!.ownerType),
      ),
  }),
  link_peers_type: f.computed((t, s) => ifAnyEnds(s!.ownerType, sql`(SELECT p.termination_type ${farEnds(t, s!.ownerType)} LIMIT 1)`)),
  _occupied: f.computed((t, s) => isOccupied(t, s!.ownerType), {
    returns: "boolean",
    filters: { occupied: booleanFilter((t, field) => isOccupied(t, field.ownerType)) },
  }),
});

/** The endpoint's cable in its nested form, or NULL. */
function cableSql(table: string, { ownerType, sc }: SqlScope): Sql {
  const cable = sc.byType("dcim.cable");
  if (!cable) return sql`NULL`;
  const alias = `cbl${sc.depth}`;
  // The guard sits in the WHERE, beside the object rather than around it: a CASE around it took a
  // custom field's nested objects past SQLite's parser depth (a virtual circuit termination's interface).
  return sql`json((SELECT json_set(${sc.nestedObject(cable, alias, sc.depth + 1)}, '$.__type', 'dcim.cable')
    FROM ${sql.table(TERMINATIONS)} ce JOIN dcim_cable ${sql.raw(alias)} ON ${sql.ref(`${alias}.id`)} = ce.cable_id
    WHERE ${anyEnds(ownerType)} AND ${ownEnd("ce", ownerType, table)}))`;
}

/**
 * The endpoint's cable in the nested form the serializer gives it (`nestedOf`: the brief nested
 * form, without `display_url`), as final JSON; null where that form cannot be written so.
 */
function cableFinalSql(table: string, ownerType: string, fc: FinalContext): Sql | null {
  const cable = fc.select.byType("dcim.cable");
  const alias = `cblf${fc.depth}`;
  const object = cable && fc.nestedObject(cable, alias, { page: false });
  if (!object) return null;
  return ifAnyEnds(
    ownerType,
    sql`(SELECT ${object} FROM ${sql.table(TERMINATIONS)} ce JOIN dcim_cable ${sql.raw(alias)} ON ${sql.ref(`${alias}.id`)} = ce.cable_id
    WHERE ${ownEnd("ce", ownerType, table)})`,
  );
}

/** The terminations at the far end of the endpoint's cable, nested, as a JSON array (empty if none). */
function linkPeersSql(table: string, { ownerType, sc }: SqlScope): Sql {
  const peer = nestedEndpointSql(sc, sql`p.termination_type`, sql`p.termination_id`, sc.depth + 1);
  return sql`json(${orderedArraySql(sql`json_group_array(${peer} ORDER BY p.id)`, farEnds(table, ownerType), sql`'[]'`, anyEnds(ownerType))})`;
}

// ---------------------------------------------------------------------------------------------
// Cable paths.
//
// A path is computed when it is read, inside the statement that reads the endpoint, by a
// recursive walk over the cable ends and the front/rear port mappings; nothing is precomputed.
// A stored path would have to be refreshed by every write that can change it (a cable, a front
// port's rear_port_position, a rear port's positions, a device deleted with its ports), most of
// them in models that know nothing of cables; computed on read, it cannot go stale, and it costs
// a few indexed lookups per hop inside the same statement, so a page is still one statement.

/**
 * The path from the endpoint `(type, id)` as CTEs, then `tail` over them; NULL when the endpoint
 * has no cable (checked first by index, so uncabled endpoints cost one lookup).
 *
 * `hop` holds the terminations of each segment: `seg` counts segments from 1, `near` is 1 for the
 * segment's near terminations (their `cable` is the segment's cable, NULL where the path stops at
 * an unconnected pass-through port) and 0 for its far ones. `stack` holds the rear-port positions
 * entered through front ports, so that leaving a rear port picks the front port of the same
 * position (a rear port with one position maps to its only front port; with several and no
 * position known, the path splits and stops there). A circuit termination leads to the other
 * side's termination of its circuit once circuits are registered.
 *
 * `tip` holds the last segment's rows; a tail sums the path up in one aggregate over it
 * (`COMPLETE`, `ACTIVE` below), so it walks the path once.
 */
export function pathSql(byType: (t: string) => Model | undefined, type: Sql, id: Sql, tail: Sql): Sql {
  const T = sql.table(TERMINATIONS);
  const steps: Sql[] = [
    sql`SELECT h.seg, 0, f.termination_type, f.termination_id, f.cable_id, f.cable_end, h.stack
      FROM hop h JOIN ${T} f ON f.cable_id = h.cable AND f.cable_end <> h.cend WHERE h.near = 1`,
  ];
  if (byType("dcim.frontport") && byType("dcim.rearport")) {
    steps.push(
      sql`SELECT h.seg + 1, 1, 'dcim.rearport', fp.rear_port_id, t.cable_id, t.cable_end, json_insert(h.stack, '$[#]', fp.rear_port_position)
        FROM hop h JOIN dcim_frontport fp ON fp.id = h.id
        LEFT JOIN ${T} t ON t.termination_type = 'dcim.rearport' AND t.termination_id = fp.rear_port_id
        WHERE h.near = 0 AND h.type = 'dcim.frontport' AND h.seg < 64`,
      sql`SELECT h.seg + 1, 1, 'dcim.frontport', fp.id, t.cable_id, t.cable_end,
          CASE WHEN json_array_length(h.stack) > 0 THEN json_remove(h.stack, '$[#-1]') ELSE h.stack END
        FROM hop h JOIN dcim_rearport rp ON rp.id = h.id
        JOIN dcim_frontport fp ON fp.rear_port_id = rp.id AND fp.rear_port_position =
          CASE WHEN json_array_length(h.stack) > 0 THEN json_extract(h.stack, '$[#-1]') WHEN rp.positions = 1 THEN 1 END
        LEFT JOIN ${T} t ON t.termination_type = 'dcim.frontport' AND t.termination_id = fp.id
        WHERE h.near = 0 AND h.type = 'dcim.rearport' AND h.seg < 64`,
    );
  }
  if (byType("circuits.circuittermination")) {
    steps.push(sql`SELECT h.seg + 1, 1, 'circuits.circuittermination', peer.id, t.cable_id, t.cable_end, h.stack
      FROM hop h JOIN circuits_circuittermination ct ON ct.id = h.id
      JOIN circuits_circuittermination peer ON peer.circuit_id = ct.circuit_id AND peer.term_side <> ct.term_side
      LEFT JOIN ${T} t ON t.termination_type = 'circuits.circuittermination' AND t.termination_id = peer.id
      WHERE h.near = 0 AND h.type = 'circuits.circuittermination' AND h.seg < 64`);
  }
  return sql`CASE WHEN ${anyEnds(type)} AND EXISTS (SELECT 1 FROM ${T} o WHERE o.termination_type = ${type} AND o.termination_id = ${id}) THEN (
    WITH RECURSIVE hop(seg, near, type, id, cable, cend, stack) AS (
      SELECT 1, 1, o.termination_type, o.termination_id, o.cable_id, o.cable_end, '[]' FROM ${T} o
        WHERE o.termination_type = ${type} AND o.termination_id = ${id}
      UNION ${sql.join(steps, sql` UNION `)}),
    tip AS (SELECT * FROM hop WHERE seg = (SELECT max(seg) FROM hop))
    ${tail}) END`;
}

/** In an aggregate over `tip`: the path ends at endpoints (not at an unconnected or split pass-through port). */
export const COMPLETE = sql`(total(tip.near = 0) > 0 AND total((tip.near = 1 AND tip.cable IS NULL) OR (tip.near = 0 AND tip.type IN (${sql.join(PASS_THROUGH)}))) = 0)`;
/** Over `hop`: every cable of the path is connected (none planned or being decommissioned). */
export const ACTIVE = sql`NOT EXISTS (SELECT 1 FROM hop JOIN dcim_cable c ON c.id = hop.cable WHERE c.status <> 'connected')`;

const ownPath = (table: string, { ownerType, sc }: SqlScope, tail: Sql) =>
  pathSql(sc.byType, sql`${ownerType}`, sql.ref(`${table}.id`), tail);

/**
 * What an endpoint shows of its path, as one JSON object computed once per row for the three
 * fields that share it: the far endpoints (nested) and their type when the path is complete, and
 * whether it is complete over connected cables; NULL without a cable.
 */
function connectionSql(table: string, scope: SqlScope): Sql {
  const nested = nestedEndpointSql(scope.sc, sql`tip.type`, sql`tip.id`, scope.sc.depth + 1);
  return sql`json(${ownPath(
    table,
    scope,
    sql`SELECT CASE WHEN ${COMPLETE} THEN json_object(
      'connected_endpoints', json_group_array(${nested} ORDER BY tip.id) FILTER (WHERE tip.near = 0),
      'connected_endpoints_type', max(tip.type) FILTER (WHERE tip.near = 0),
      'connected_endpoints_reachable', ${ACTIVE})
    ELSE json_object('connected_endpoints', NULL, 'connected_endpoints_type', NULL, 'connected_endpoints_reachable', 0) END FROM tip`,
  )})`;
}

const connection = (o: Omit<FieldOptions, "kind"> = {}) => f.computed((t, s) => connectionSql(t, s!), { sharedAs: "__connection", ...o });

/**
 * The fields of an endpoint a cable path can end at (every cabled model but front and rear ports
 * and circuit terminations): `connected_endpoints` (null unless the path is complete),
 * `connected_endpoints_type`, `connected_endpoints_reachable` (null without a cable), and the
 * `connected` filter (a complete path over connected cables).
 */
export const pathEndpoint = (): Record<string, FieldOptions> => ({
  connected_endpoints: connection({
    returns: "nested",
    filters: {
      connected: booleanFilter(
        (t, field, byType) =>
          sql`coalesce(${pathSql(byType, sql`${field.ownerType}`, sql.ref(`${t}.id`), sql`SELECT ${COMPLETE} AND ${ACTIVE} FROM tip`)}, 0)`,
      ),
    },
  }),
  connected_endpoints_type: connection(),
  connected_endpoints_reachable: connection({ returns: "boolean" }),
});

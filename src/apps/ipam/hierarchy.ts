import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Row, Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import type { WriteItem, AllocationPlan } from "../../schema/hooks.ts";
import { ancestorCandidates, keyOf, lastOf, parseNetwork, firstOf, type Network } from "../../lib/network.ts";

type Sql = RawBuilder<unknown>;

const HEX = "0123456789abcdef";
const ZEROS = "0".repeat(32);
const LENGTHS = JSON.stringify(Array.from({ length: 128 }, (_, i) => i));

/**
 * The key of the network of `key` at `bits` bits of the 128-bit value (IPv4 values sit in the
 * low 32 bits, so an IPv4 mask length l is 96 + l), computed in SQL: whole hex digits kept, the
 * partial digit masked, the rest zeros. Lets one statement find a prefix's ancestors by point
 * lookups, one per shorter mask length, instead of scanning everything before it.
 */
function networkKeySql(key: Sql, bits: Sql): Sql {
  const whole = sql`(${bits} / 4)`;
  const partial = sql`(${bits} % 4)`;
  const digit = sql`(instr(${HEX}, substr(${key}, 2 + ${whole}, 1)) - 1)`;
  return sql`(substr(${key}, 1, 1 + ${whole}) ||
    CASE WHEN ${partial} = 0 THEN '' ELSE substr(${HEX}, (${digit} & (15 - ((1 << (4 - ${partial})) - 1))) + 1, 1) END ||
    substr(${ZEROS}, 1, 32 - ${whole} - (CASE WHEN ${partial} = 0 THEN 0 ELSE 1 END)))`;
}

/** How many prefixes of the same VRF strictly contain the prefix row `t` (its `_depth`). */
export function depthSql(t: string): Sql {
  const row = (c: string) => sql.ref(`${t}.${c}`);
  const bits = sql`(l.value + CASE ${row("family")} WHEN 4 THEN 96 ELSE 0 END)`;
  // CROSS JOIN keeps the lengths outermost, so each candidate is one index lookup.
  return sql`(SELECT count(*) FROM json_each(${LENGTHS}) l CROSS JOIN ipam_prefix a
    ON a.vrf_id IS ${row("vrf_id")} AND a.prefix_start = ${networkKeySql(row("prefix_start"), bits)} AND a.prefix_length = l.value
    WHERE l.value < ${row("prefix_length")})`;
}

/** How many prefixes of the same VRF the prefix row `t` strictly contains (its `children`). */
export function childrenSql(t: string): Sql {
  const row = (c: string) => sql.ref(`${t}.${c}`);
  return sql`(SELECT count(*) FROM ipam_prefix c WHERE c.vrf_id IS ${row("vrf_id")}
    AND c.prefix_start BETWEEN ${row("prefix_start")} AND ${row("prefix_end")} AND c.prefix_length > ${row("prefix_length")})`;
}

/** A place in the hierarchy a write touched: a prefix's old or new position. */
interface Position {
  readonly vrf: number | null;
  readonly network: Network;
}

const positionOfRow = (row: Row): Position | null => {
  const network = typeof row.prefix === "string" ? parseNetwork(row.prefix) : null;
  return network && { vrf: row.vrf_id === null || row.vrf_id === undefined ? null : Number(row.vrf_id), network };
};

/**
 * Recounts `_depth` and `children` of every prefix whose counts the touched positions can change
 * (the prefixes written, everything inside a touched position, and each position's ancestors), in
 * one statement: each recount is index lookups and range scans, never a scan of the table.
 */
export function hierarchyStatement(positions: readonly Position[], written: Sql | null): Statement | null {
  if (!positions.length && !written) return null;
  const ranges = positions.map((p) => ({
    vrf: p.vrf,
    start: keyOf(p.network.family, firstOf(p.network)),
    end: keyOf(p.network.family, lastOf(p.network)),
  }));
  const ancestors = positions.flatMap((p) => ancestorCandidates(p.network).map((a) => ({ vrf: p.vrf, ...a })));
  const touched = sql`SELECT p.id FROM json_each(${JSON.stringify(ranges)}) r CROSS JOIN ipam_prefix p
      ON p.vrf_id IS json_extract(r.value, '$.vrf') AND p.prefix_start BETWEEN json_extract(r.value, '$.start') AND json_extract(r.value, '$.end')
    UNION SELECT p.id FROM json_each(${JSON.stringify(ancestors)}) a CROSS JOIN ipam_prefix p
      ON p.vrf_id IS json_extract(a.value, '$.vrf') AND p.prefix_start = json_extract(a.value, '$.start') AND p.prefix_length = json_extract(a.value, '$.length')`;
  const ids = written ? sql`${touched} UNION SELECT id FROM ipam_prefix WHERE id IN ${written}` : touched;
  return sql`UPDATE ipam_prefix SET _depth = ${depthSql("ipam_prefix")}, children = ${childrenSql("ipam_prefix")}
    WHERE id IN (${ids})`.compile(qb);
}

/** After prefixes are written: their old positions (moved away from) and new ones. */
export function prefixWriteHierarchy(ctx: Actor, items: readonly WriteItem[], allocation: AllocationPlan | null): Statement[] {
  const positions: Position[] = [];
  for (const item of items) {
    const moved = item.values.prefix !== undefined || item.values.vrf !== undefined || !item.current;
    if (!moved) continue;
    const old = item.current && positionOfRow(item.current);
    if (old) positions.push(old);
    const network = (item.values.prefix as Network | undefined) ?? old?.network;
    const vrf = item.values.vrf !== undefined ? (item.values.vrf as number | null) : (old?.vrf ?? null);
    if (network) positions.push({ vrf, network });
  }
  // An allocated prefix lies at whichever candidate its transaction picks: all are touched.
  positions.push(...(allocation?.positions ?? []));
  if (!positions.length) return [];
  const written = sql`(SELECT changed_object_id FROM core_objectchange WHERE request_id = ${ctx.requestId} AND changed_object_type = 'ipam.prefix')`;
  return [hierarchyStatement(positions, written)!];
}

/** After prefixes are deleted: everything around where they were. */
export function prefixDeleteHierarchy(rows: readonly Row[]): Statement[] {
  const statement = hierarchyStatement(
    rows.map(positionOfRow).filter((p): p is Position => p !== null),
    null,
  );
  return statement ? [statement] : [];
}

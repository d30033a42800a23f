import { sql, type RawBuilder } from "kysely";
import type { Statement, StatementResult } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { bitsOf, keyOf, valueOfKey, type Family, type Network } from "../../lib/network.ts";

type Sql = RawBuilder<unknown>;

/**
 * Where free space is looked for: an inclusive range of one family, in one VRF (null: the global
 * table), or in every VRF (a global container prefix, as NetBox counts its children).
 */
export interface Space {
  readonly family: Family;
  readonly lo: bigint;
  readonly hi: bigint;
  readonly vrf: number | null;
  readonly anyVrf: boolean;
}

/** Rows read per statement at most; beyond, the walk stops where its knowledge ends. */
const READ_CAP = 65_536;
const BLOCK = 256n;
const blockKey = (family: Family, value: bigint) => keyOf(family, value).slice(0, 31);

/** The VRF condition on an IP address row under `x`. */
const sameVrf = (space: Space, x: string): Sql => (space.anyVrf ? sql`1` : sql`${sql.ref(`${x}.vrf_id`)} IS ${space.vrf}`);

/**
 * The statements that find free addresses in a space, cheaply however full it is: the full
 * 256-address blocks (from `ipam_ipblock`, kept by triggers) are skipped whole, and only the
 * addresses of partly used blocks are read, block by block in order.
 */
export function freeIpStatements(space: Space, wanted: number): Statement[] {
  const [lo, hi] = [keyOf(space.family, space.lo), keyOf(space.family, space.hi)];
  if (space.anyVrf) {
    return [
      sql`SELECT address_start AS k FROM ipam_ipaddress WHERE address_start BETWEEN ${lo} AND ${hi}
      ORDER BY address_start LIMIT ${READ_CAP}`.compile(qb),
    ];
  }
  const [blo, bhi] = [blockKey(space.family, space.lo), blockKey(space.family, space.hi)];
  const vrfKey = space.vrf ?? 0;
  return [
    sql`SELECT block FROM ipam_ipblock WHERE vrf = ${vrfKey} AND block BETWEEN ${blo} AND ${bhi} AND used >= 256
      ORDER BY block LIMIT ${READ_CAP}`.compile(qb),
    sql`SELECT x.address_start AS k FROM ipam_ipblock b JOIN ipam_ipaddress x
        ON ${sameVrf(space, "x")} AND x.address_start BETWEEN b.block || '00' AND b.block || 'ff'
      WHERE b.vrf = ${vrfKey} AND b.block BETWEEN ${blo} AND ${bhi} AND b.used > 0 AND b.used < 256
      ORDER BY b.block, x.address_start LIMIT ${Math.min(READ_CAP, (wanted + 1) * 256)}`.compile(qb),
  ];
}

/** The first `wanted` free addresses of the space, from the results of `freeIpStatements`. */
export function freeIps(space: Space, wanted: number, results: readonly StatementResult[]): bigint[] {
  const full = new Set<bigint>();
  let known = space.hi;
  let takenRows: StatementResult;
  if (space.anyVrf) takenRows = results[0];
  else {
    const [blocks, taken] = results;
    for (const row of blocks.rows) full.add(BigInt(`0x${String(row.block).slice(1)}`));
    if (blocks.rows.length >= READ_CAP) known = (BigInt(`0x${String(blocks.rows.at(-1)!.block).slice(1)}`) + 1n) * BLOCK - 1n;
    takenRows = taken;
  }
  const taken = new Set(takenRows.rows.map((row) => valueOfKey(String(row.k))));
  if (takenRows.rows.length && takenRows.rows.length >= (space.anyVrf ? READ_CAP : Math.min(READ_CAP, (wanted + 1) * 256))) {
    const last = valueOfKey(String(takenRows.rows.at(-1)!.k));
    if (last < known) known = last;
  }
  const out: bigint[] = [];
  let at = space.lo;
  while (at <= known && out.length < wanted) {
    const block = at / BLOCK;
    if (full.has(block)) {
      at = (block + 1n) * BLOCK;
      continue;
    }
    if (!taken.has(at)) out.push(at);
    at++;
  }
  return out;
}

/** The statement listing the outermost child prefixes of a space (children inside children add nothing). */
export function childPrefixStatement(space: Space, parentLength: number): Statement {
  const vrf = space.anyVrf ? sql`1` : sql`vrf_id IS ${space.vrf}`;
  return sql`SELECT s, e FROM (SELECT prefix_start AS s, prefix_end AS e,
      max(prefix_end) OVER (ORDER BY prefix_start, prefix_length ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS m
    FROM ipam_prefix WHERE ${vrf} AND prefix_start BETWEEN ${keyOf(space.family, space.lo)} AND ${keyOf(space.family, space.hi)}
      AND prefix_length > ${parentLength}) WHERE m IS NULL OR e > m ORDER BY s`.compile(qb);
}

/** The free ranges of a space once its child prefixes are taken out. */
export function freeRanges(space: Space, children: StatementResult): [bigint, bigint][] {
  const out: [bigint, bigint][] = [];
  let at = space.lo;
  for (const row of children.rows) {
    const [s, e] = [valueOfKey(String(row.s)), valueOfKey(String(row.e))];
    if (s > at) out.push([at, s - 1n]);
    if (e + 1n > at) at = e + 1n;
  }
  if (at <= space.hi) out.push([at, space.hi]);
  return out;
}

/** The first `wanted` free aligned blocks of mask length `length` in the free ranges. */
export function freeBlocks(family: Family, ranges: readonly [bigint, bigint][], length: number, wanted: number): Network[] {
  const size = 1n << BigInt(bitsOf(family) - length);
  const out: Network[] = [];
  for (const [a, b] of ranges) {
    for (let s = ((a + size - 1n) / size) * size; s + size - 1n <= b && out.length < wanted; s += size)
      out.push({ family, host: s, length });
    if (out.length >= wanted) break;
  }
  return out;
}

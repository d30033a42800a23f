import { sql } from "kysely";
import type { Statement, StatementResult } from "../../db/database.ts";
import { Slot, Template } from "../../db/query-builder.ts";
import { remembered } from "../../lib/memo.ts";
import { bitsOf, valueOfKey, type Family, type Network } from "../../lib/network.ts";

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

/** Block rows read per statement at most; beyond, the walk stops where its knowledge ends. */
const ROW_CAP = 65536;
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
/** The last address of a block, from its number (an address's value less its last eight bits). */
const lastOfBlock = (block: bigint): bigint => ((block + 1n) << 8n) - 1n;

/** Where a space's bounds are read: its parent's table and the columns of the keys of its first and last addresses. */
export interface SpaceSource {
  readonly table: string;
  readonly first: string;
  readonly last: string;
}

/**
 * The statement that finds free addresses in the space of parent `id`, its cost following the
 * blocks of 256 addresses it passes, not the addresses they hold. Per block with addresses
 * (`ipam_ipblock`, kept by triggers) it reads one row: whether all are taken and, if not, which,
 * as 256 bits in hex. It reads them only up to the block by which `wanted` free addresses are
 * certain (`enough`), found among the first `wanted + 2` blocks with room: a partly used block
 * inside the space has `256 - used` free, one at an edge counts none (the space may cover part of
 * it). Across every VRF (a global container prefix, as NetBox counts its children) a block has a
 * row per VRF, and their sum only bounds its free addresses from below.
 *
 * Its first row holds the full blocks' keys joined into one value (`full`, with `enough` and
 * `capped`, the last block read when ROW_CAP cut the reading short), each further row a partly
 * used block's bits: the driver's cost is per row, and a /16 filled from its start to 60,000
 * addresses read 235 rows in 230 us, its joined keys in 84 us.
 *
 * The bounds come from the parent's row in the same statement, so the parent and its free space
 * are read in one round trip; its rows are what `freeIps` walks with the space worked out from
 * that parent row. Reading each block's taken addresses instead, a row an address, cost 93 us of
 * SQLite for the first 10 free of a /16 whose /24s each held 250; its three block rows cost 23 us.
 */
export function freeIpStatement(source: SpaceSource, id: number, anyVrf: boolean, wanted: number): Statement {
  return remembered(statements, `${source.table} ${anyVrf}`, () => freeIpTemplate(source, anyVrf)).bind({
    id,
    wanted,
    room: Math.min(wanted, ROW_CAP) + 2,
  });
}

const statements = new Map<string, Template>();

function freeIpTemplate(source: SpaceSource, anyVrf: boolean): Template {
  const [a, b] = [sql`(SELECT a FROM bounds)`, sql`(SELECT b FROM bounds)`];
  const vrf = anyVrf ? sql`1` : sql`vrf = (SELECT v FROM bounds)`;
  return new Template(sql`WITH bounds AS (
      SELECT substr(${sql.ref(source.first)}, 1, 31) AS a, substr(${sql.ref(source.last)}, 1, 31) AS b, coalesce(vrf_id, 0) AS v
      FROM ${sql.table(source.table)} WHERE id = ${new Slot("id")}),
    partial AS (
      SELECT block, sum(used) AS used FROM ipam_ipblock WHERE ${vrf} AND block BETWEEN ${a} AND ${b} AND used > 0
      GROUP BY block HAVING sum(used) < 256 ORDER BY block LIMIT ${new Slot("room")}),
    enough AS (SELECT min(block) AS block FROM (
      SELECT block, sum(CASE WHEN block IN (${a}, ${b}) THEN 0 ELSE 256 - used END) OVER (ORDER BY block ROWS UNBOUNDED PRECEDING) AS free
      FROM partial) WHERE free >= ${new Slot("wanted")}),
    held AS (
      SELECT block, used, w0, w1, w2, w3 FROM ipam_ipblock
      WHERE ${vrf} AND block BETWEEN ${a} AND coalesce((SELECT block FROM enough), ${b}) AND used > 0 ORDER BY block LIMIT ${ROW_CAP}),
    facts AS (SELECT (SELECT block FROM enough) AS enough, CASE WHEN count(*) >= ${ROW_CAP} THEN max(block) END AS capped FROM held)
    SELECT NULL AS block, (SELECT group_concat(block) FROM held WHERE used >= 256) AS full, NULL AS bits, enough, capped FROM facts
    UNION ALL
    SELECT block, NULL, printf('%016x%016x%016x%016x', w0, w1, w2, w3), NULL, NULL FROM held WHERE used < 256`);
}

/** A block's taken addresses from its bits in hex (`freeIpStatement`): eight words of 32, offsets 0-31 first. */
function takenOf(hex: string, into: Uint32Array): void {
  for (let word = 0; word < 4; word++) {
    into[2 * word] |= Number.parseInt(hex.slice(16 * word + 8, 16 * word + 16), 16);
    into[2 * word + 1] |= Number.parseInt(hex.slice(16 * word, 16 * word + 8), 16);
  }
}

/** The number of the hex digits of `text` from `at` to `end`: at most eight, so a plain number. */
function hexAt(text: string, at: number, end: number): number {
  let value = 0;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    value = value * 16 + (c <= 57 ? c - 48 : c - 87);
  }
  return value;
}

/** Block keys' length: an address key's family digit and 32 hex digits, less the last two. */
const BLOCK_KEY = 31;

/**
 * Runs of consecutive blocks as [first, last], ordered by first, from block keys joined by commas
 * (in any order, repeats allowed: the walk skips runs that overlap). A key follows another when
 * its last eight hex digits are one more and the rest alike: read from the text as numbers, since
 * a BigInt a key cost 0.3 us (234 full blocks: 30 us against 80 us as BigInts, 120 us as rows).
 */
function runsOf(joined: string): [bigint, bigint][] {
  const runs: [bigint, bigint][] = [];
  const stride = BLOCK_KEY + 1;
  const high = BLOCK_KEY - 8;
  const lowAt = (at: number) => hexAt(joined, at + high, at + BLOCK_KEY);
  const blockAt = (at: number) => valueOfKey(joined.slice(at, at + BLOCK_KEY));
  let [first, previous, before] = [0, 0, lowAt(0)];
  for (let at = stride; at < joined.length; at += stride) {
    const low = lowAt(at);
    // The same key again, or the next one: the run goes on.
    const goesOn = (low === before || low === before + 1) && joined.startsWith(joined.slice(previous, previous + high), at);
    if (!goesOn) {
      runs.push([blockAt(first), blockAt(previous)]);
      first = at;
    }
    [previous, before] = [at, low];
  }
  runs.push([blockAt(first), blockAt(previous)]);
  // group_concat keeps no order but the one it happens to read in: the rows' own, as a rule.
  return runs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

/** The first `wanted` free addresses of the space, from the result of `freeIpStatement`. */
export function freeIps(space: Space, wanted: number, result: StatementResult): bigint[] {
  const [facts, ...held] = result.rows;
  const full = facts.full === null ? [] : runsOf(String(facts.full));
  /** Partly used blocks: which of their 256 addresses are taken (in every VRF, for a global container). */
  const partial = new Map<bigint, Uint32Array>();
  for (const row of held) {
    const block = valueOfKey(String(row.block));
    takenOf(String(row.bits), partial.get(block) ?? partial.set(block, new Uint32Array(8)).get(block)!);
  }
  let known = space.hi;
  // Blocks past the one that makes enough certain were not read; at the cap, the last block read may be missing rows.
  if (facts.enough != null) known = min(known, lastOfBlock(valueOfKey(String(facts.enough))));
  if (facts.capped != null) known = min(known, lastOfBlock(valueOfKey(String(facts.capped)) - 1n));
  const out: bigint[] = [];
  let run = 0;
  for (let at = space.lo; at <= known && out.length < wanted; ) {
    const block = at >> 8n;
    while (run < full.length && full[run][1] < block) run++;
    if (run < full.length && full[run][0] <= block) {
      at = (full[run][1] + 1n) << 8n;
      continue;
    }
    const last = min(lastOfBlock(block), known);
    const taken = partial.get(block);
    const base = block << 8n;
    for (let offset = Number(at & 255n), end = Number(last & 255n); offset <= end && out.length < wanted; offset++) {
      if (!taken || !((taken[offset >> 5] >>> (offset & 31)) & 1)) out.push(base + BigInt(offset));
    }
    at = last + 1n;
  }
  return out;
}

/**
 * The statement listing the outermost child prefixes of prefix `id` (children inside children add
 * nothing), in its VRF or, for a global container, in every VRF. Its bounds come from the prefix's
 * row, so it is read in the round trip that reads the prefix.
 */
export function childPrefixStatement(id: number, anyVrf: boolean): Statement {
  return remembered(childTemplates, anyVrf, () => {
    const vrf = anyVrf ? sql`1` : sql`vrf_id IS (SELECT v FROM bounds)`;
    return new Template(sql`WITH bounds AS (SELECT prefix_start AS s, prefix_end AS e, prefix_length AS l, vrf_id AS v FROM ipam_prefix WHERE id = ${new Slot("id")})
      SELECT s, e FROM (SELECT prefix_start AS s, prefix_end AS e,
        max(prefix_end) OVER (ORDER BY prefix_start, prefix_length ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS m
      FROM ipam_prefix WHERE ${vrf} AND prefix_start BETWEEN (SELECT s FROM bounds) AND (SELECT e FROM bounds)
        AND prefix_length > (SELECT l FROM bounds)) WHERE m IS NULL OR e > m ORDER BY s`);
  }).bind({ id });
}

const childTemplates = new Map<boolean, Template>();

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

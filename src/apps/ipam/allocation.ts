import type { Model, RouteContext } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { sql } from "kysely";
import type { Row, Statement, StatementResult } from "../../db/database.ts";
import { Slot, Template } from "../../db/query-builder.ts";
import { remembered } from "../../lib/memo.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { ref } from "../../schema/json-schema.ts";
import { scopeKey, scopeSql } from "../../engine/scope.ts";
import { nestedJsonSql } from "../../engine/select.ts";
import { objectUrl } from "../../engine/serialize.ts";
import { writeObjects } from "../../engine/crud.ts";
import {
  bitsOf,
  blocksBetween,
  formatAddress,
  keyOf,
  lastOf,
  parseNetwork,
  usableBounds,
  firstOf,
  type Family,
  type Network,
} from "../../lib/network.ts";
import { childPrefixStatement, freeBlocks, freeIps, freeIpStatement, freeRanges, type Space, type SpaceSource } from "./free-space.ts";
import { allocationRoute, member, pickSql } from "./allocation-plan.ts";

type Out = Record<string, unknown>;

const NO_ROOM = "Insufficient resources are available to satisfy the request";
/** Free candidates offered to each transaction beyond what it needs, so concurrent allocations rarely retry. */
const SPARE = 64;
/** Parent statements kept, one per model and requester scope (`scopeKey`): grants make scopes, so a bound bounds the memory. */
const SHAPES_KEPT = 256;
/** Where each parent type's space is read in SQL (`freeIpStatement`): the keys of its first and last addresses. */
const SOURCES: Readonly<Record<string, SpaceSource>> = {
  "ipam.prefix": { table: "ipam_prefix", first: "prefix_start", last: "prefix_end" },
  "ipam.iprange": { table: "ipam_iprange", first: "start_address_start", last: "end_address_start" },
};
/** Times an allocation looks again after concurrent ones took every candidate it was offered. */
const ATTEMPTS = 8;

/** `limit` as NetBox's available-* views read it: 0 is MAX_PAGE_SIZE, invalid is PAGINATE_COUNT, capped. */
export function resultsLimit(ctx: RouteContext): number {
  const raw = ctx.url.searchParams.get("limit");
  const max = ctx.config.MAX_PAGE_SIZE || Number.MAX_SAFE_INTEGER;
  const n = raw !== null && /^\d+$/.test(raw) ? Number(raw) : ctx.config.PAGINATE_COUNT;
  return Math.min(n === 0 ? max : n, max);
}

const parents = new Map<string, Template>();

/**
 * The parent (prefix or IP range) in the requester's view, with its VRF's nested form; 404
 * otherwise. `more` are read in the same round trip (in the same snapshot) and their results returned after it.
 */
async function loadParent(ctx: Actor, model: Model, id: number, ...more: Statement[]): Promise<[Row, ...StatementResult[]]> {
  const template = remembered(
    parents,
    `${model.objectType}\n${scopeKey(ctx)}`,
    () =>
      new Template(sql`SELECT t.*, ${nestedJsonSql(model.registry.get("ipam.vrf"), sql.ref("t.vrf_id"), 1)} AS vrf_json
        FROM ${sql.table(model.table)} t WHERE t.id = ${new Slot("id")} AND ${scopeSql(ctx, model, "view", "t")}`),
    SHAPES_KEPT,
  );
  const [parent, ...results] = await readBatch(ctx, [template.bind({ id, origin: ctx.origin }), ...more]);
  if (!parent.rows.length) throw ApiError.notFound(model.className);
  return [parent.rows[0], ...results];
}

/** The parent's VRF as NetBox nests it in available-* items, or null. */
function nestedVrf(ctx: Actor, model: Model, parent: Row): Out | null {
  const raw = typeof parent.vrf_json === "string" ? (JSON.parse(parent.vrf_json) as Out) : null;
  if (!raw) return null;
  return {
    id: raw.id,
    url: objectUrl(ctx, model.registry.get("ipam.vrf"), raw.id),
    display: raw.__display,
    name: raw.name,
    rd: raw.rd,
    description: raw.description,
  };
}

/** The addresses a parent offers: a prefix's usable bounds, or an IP range's addresses, with the mask they get. */
function ipSpaceOf(model: Model, parent: Row): { space: Space; length: number } {
  const vrf = parent.vrf_id === null ? null : Number(parent.vrf_id);
  if (model.objectType === "ipam.iprange") {
    const [start, end] = [parseNetwork(String(parent.start_address))!, parseNetwork(String(parent.end_address))!];
    return { space: { family: start.family, lo: start.host, hi: end.host, vrf, anyVrf: false }, length: start.length };
  }
  const n = parseNetwork(String(parent.prefix))!;
  const [lo, hi] = usableBounds(n, { pool: Boolean(parent.is_pool) });
  // A container in the global table holds the addresses of every VRF (NetBox's get_child_ips).
  const anyVrf = vrf === null && parent.status === "container";
  return { space: { family: n.family, lo, hi, vrf, anyVrf }, length: n.length };
}

/** The body of an allocation POST: one object or a list; `single` says which came. */
async function allocationBody(ctx: RouteContext): Promise<{ items: Out[]; single: boolean }> {
  const body = await ctx.json();
  const single = !Array.isArray(body);
  const items = (single ? [body ?? {}] : body) as unknown[];
  if (items.some((x) => typeof x !== "object" || x === null || Array.isArray(x))) {
    throw ApiError.invalid(
      items.map((x) =>
        typeof x === "object" && x !== null && !Array.isArray(x) ? {} : { non_field_errors: ["Invalid data. Expected a dictionary."] },
      ),
    );
  }
  return { items: items as Out[], single };
}

/**
 * Runs an allocation: `plan` looks at the free space and returns the writes' inputs and plan (or
 * null when there is no room: 409); a transaction that finds every offered candidate taken by a
 * concurrent allocation (409 from the write) looks again.
 */
async function allocate(
  ctx: Actor,
  child: Model,
  single: boolean,
  plan: () => Promise<{
    inputs: Out[];
    columns: Record<string, ReturnType<typeof pickSql>>[];
    positions: { vrf: number | null; network: Network }[];
  } | null>,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const next = await plan();
    if (!next) throw ApiError.detail("conflict", NO_ROOM);
    try {
      const allocation = { columns: next.columns, positions: next.positions };
      const out = await writeObjects(ctx, child, {
        inputs: next.inputs,
        mode: "create",
        ids: next.inputs.map(() => null),
        bulk: !single,
        allocation,
      });
      return json(single ? out[0] : out, 201);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function availableIps(ctx: RouteContext, model: Model, id: number): Promise<Response> {
  const source = SOURCES[model.objectType];
  const wanted = ctx.method === "GET" ? resultsLimit(ctx) : 0;
  // A GET reads the parent and its free space (as in one VRF, by far the usual) in one round trip.
  const [parent, guess] = await loadParent(ctx, model, id, ...(wanted ? [freeIpStatement(source, id, false, wanted)] : []));
  const { space, length } = ipSpaceOf(model, parent);
  const vrf = nestedVrf(ctx, model, parent);
  // A prefix marked utilized offers nothing, whatever addresses it holds (NetBox's rule).
  const full = model.objectType === "ipam.prefix" && Boolean(Number(parent.mark_utilized));
  const read = async (wanted: number) => (await readBatch(ctx, [freeIpStatement(source, id, space.anyVrf, wanted)]))[0];
  const find = async (wanted: number) => (full ? [] : freeIps(space, wanted, await read(wanted)));
  if (ctx.method === "GET") {
    const free = full ? [] : freeIps(space, wanted, space.anyVrf || !guess ? await read(wanted) : guess);
    return json(free.map((ip) => ({ family: space.family, address: `${formatAddress(space.family, ip)}/${length}`, vrf })));
  }
  const { items, single } = await allocationBody(ctx);
  const ipModel = model.registry.get("ipam.ipaddress");
  const taken = (
    c: ReturnType<typeof member>,
  ) => sql`NOT EXISTS (SELECT 1 FROM ipam_ipaddress x WHERE ${space.anyVrf ? sql`1` : sql`x.vrf_id IS ${space.vrf}`}
    AND x.address_start = ${c})`;
  return allocate(ctx, ipModel, single, async () => {
    const free = await find(Math.min(items.length + SPARE, ctx.config.MAX_BULK_OBJECTS + SPARE));
    if (free.length < items.length) return null;
    const candidates = free.map((ip) => ({ k: keyOf(space.family, ip), t: `${formatAddress(space.family, ip)}/${length}` }));
    const free1 = (c: ReturnType<typeof member>) => taken(member(c, "k"));
    const columns = {
      address: pickSql(candidates, "t", free1),
      address_start: pickSql(candidates, "k", free1),
      address_end: pickSql(candidates, "k", free1),
    };
    // The address and VRF are the server's (NetBox overwrites them); the first candidate stands in for validation.
    const inputs = items.map((item, i) => ({ ...item, address: candidates[i].t, vrf: space.vrf }));
    return { inputs, columns: inputs.map(() => columns), positions: [] };
  });
}

/** The prefix-length problems NetBox reports for an allocation item, or null. */
function prefixLengthProblem(item: Out, family: Family): string | null {
  const l = item.prefix_length;
  if (l === undefined) return "this field can not be missing";
  if (typeof l !== "number" || !Number.isInteger(l)) return "this field must be int type";
  if (l < 0 || l > bitsOf(family)) return `Invalid prefix length (${l}) for IPv${family}`;
  return null;
}

async function availablePrefixes(ctx: RouteContext, model: Model, id: number): Promise<Response> {
  // A GET reads the prefix and its children (as in one VRF, by far the usual) in one round trip.
  const [parent, guess] = await loadParent(ctx, model, id, ...(ctx.method === "GET" ? [childPrefixStatement(id, false)] : []));
  const n = parseNetwork(String(parent.prefix))!;
  const vrfId = parent.vrf_id === null ? null : Number(parent.vrf_id);
  const space: Space = {
    family: n.family,
    lo: firstOf(n),
    hi: lastOf(n),
    vrf: vrfId,
    anyVrf: vrfId === null && parent.status === "container",
  };
  const vrf = nestedVrf(ctx, model, parent);
  const ranges = async () => freeRanges(space, (await readBatch(ctx, [childPrefixStatement(id, space.anyVrf)]))[0]);
  if (ctx.method === "GET") {
    // NetBox lists every free block here, whatever the limit.
    const free = space.anyVrf || !guess ? await ranges() : freeRanges(space, guess);
    const blocks = free.flatMap(([a, b]) => blocksBetween(n.family, a, b));
    return json(blocks.map((b) => ({ family: n.family, prefix: `${formatAddress(b.family, b.host)}/${b.length}`, vrf })));
  }
  const { items, single } = await allocationBody(ctx);
  const problems = items.map((item) => prefixLengthProblem(item, n.family));
  if (problems.some(Boolean)) throw ApiError.invalid(problems.map((p) => (p ? { prefix_length: [p] } : {})));
  // A block larger than the parent fits nowhere in it: no room, as NetBox answers (409).
  if (items.some((item) => Number(item.prefix_length) < n.length)) throw ApiError.detail("conflict", NO_ROOM);
  const prefixModel = model.registry.get("ipam.prefix");
  const overlaps = (
    c: ReturnType<typeof member>,
  ) => sql`NOT EXISTS (SELECT 1 FROM ipam_prefix x WHERE ${space.anyVrf ? sql`1` : sql`x.vrf_id IS ${space.vrf}`}
    AND x.prefix_start BETWEEN ${keyOf(n.family, space.lo)} AND ${member(c, "e")} AND x.prefix_end >= ${member(c, "s")} AND x.prefix_length > ${n.length})`;
  return allocate(ctx, prefixModel, single, async () => {
    let free = await ranges();
    const inputs: Out[] = [];
    const columns: Record<string, ReturnType<typeof pickSql>>[] = [];
    const positions: { vrf: number | null; network: Network }[] = [];
    for (const item of items) {
      const length = Number(item.prefix_length);
      const blocks = freeBlocks(n.family, free, length, SPARE);
      if (!blocks.length) return null;
      const candidates = blocks.map((b) => ({
        t: `${formatAddress(b.family, b.host)}/${b.length}`,
        s: keyOf(b.family, b.host),
        e: keyOf(b.family, lastOf(b)),
      }));
      columns.push({
        prefix: pickSql(candidates, "t", overlaps),
        prefix_start: pickSql(candidates, "s", overlaps),
        prefix_end: pickSql(candidates, "e", overlaps),
      });
      positions.push(...blocks.map((network) => ({ vrf: space.vrf, network })));
      const { prefix_length: _l, ...rest } = item;
      inputs.push({ ...rest, prefix: candidates[0].t, vrf: space.vrf });
      // Later items of the request look past this one's first choice.
      free = subtract(free, blocks[0].host, lastOf(blocks[0]));
    }
    return { inputs, columns, positions };
  });
}

function subtract(ranges: readonly [bigint, bigint][], s: bigint, e: bigint): [bigint, bigint][] {
  return ranges.flatMap(([a, b]): [bigint, bigint][] => {
    if (e < a || s > b) return [[a, b]];
    const out: [bigint, bigint][] = [];
    if (a < s) out.push([a, s - 1n]);
    if (e < b) out.push([e + 1n, b]);
    return out;
  });
}

const FAMILY = { type: "integer", enum: [4, 6] };
/** The parent's VRF as nested objects read (null: the global table). */
const NESTED_VRF = { anyOf: [ref("NestedVRF"), { type: "null" }] };

/** GET lists free addresses (with the parent's mask); POST allocates them. Prefixes and IP ranges. */
export const availableIpsRoute = allocationRoute({
  name: "available-ips",
  summary: "GET: free addresses within the object; POST: create addresses taking the next free ones.",
  free: { family: FAMILY, address: { type: "string" }, vrf: NESTED_VRF },
  // Any field of an address but `address` and `vrf`, which the allocation sets.
  takes: ref("PatchedWritableIPAddressRequest"),
  creates: "IPAddress",
  handler: (ctx, model, id) => availableIps(ctx, model, id!),
});

/** GET lists free space as the largest aligned prefixes; POST allocates prefixes of given lengths. */
export const availablePrefixesRoute = allocationRoute({
  name: "available-prefixes",
  summary: "GET: free space as the largest aligned prefixes; POST: create prefixes of the lengths given.",
  free: { family: FAMILY, prefix: { type: "string" }, vrf: NESTED_VRF },
  takes: {
    allOf: [
      ref("PatchedWritablePrefixRequest"),
      { required: ["prefix_length"], properties: { prefix_length: { type: "integer", minimum: 0, maximum: 128 } } },
    ],
  },
  creates: "Prefix",
  handler: (ctx, model, id) => availablePrefixes(ctx, model, id!),
});

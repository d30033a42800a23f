import type { Model, Registry, RouteContext } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { sql } from "kysely";
import type { Row, Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { ref } from "../../schema/json-schema.ts";
import { scopeSql } from "../../engine/scope.ts";
import { nestedJsonSql } from "../../engine/select.ts";
import { nestedForm, objectUrl } from "../../engine/serialize.ts";
import { allocationRoute, member, pickSql } from "./allocation-plan.ts";
import { resultsLimit } from "./allocation.ts";
import { writeObjects } from "../../engine/crud.ts";
import { rangesOf } from "./vlan-rules.ts";

type Out = Record<string, unknown>;

const NO_ROOM = "Insufficient resources are available to satisfy the request";
const SPARE = 64;
const ATTEMPTS = 8;

/**
 * Numbers handed out from ranges: VLAN IDs of a group (its `vid_ranges`) and AS numbers of an
 * ASN range. The same shape as address allocation: free numbers read in ranges, and each created
 * object takes the first still-free candidate inside its own transaction.
 */
interface NumberSource {
  /** The model of the objects created, `app.model`. */
  readonly child: string;
  readonly column: "vid" | "asn";
  ranges(parent: Row): [number, number][];
  /** The numbers in use within [lo, hi]. */
  used(parent: Row, lo: number, hi: number): Statement;
  /** The server-set fields of a created object. */
  fixed(parent: Row, value: number): Out;
  /** A GET item, given the parent's nested form and stored row. */
  item(free: FreeNumber): Out;
  /** An object each GET item nests, read with the parent: its model and the parent's column naming it. */
  readonly nests?: { readonly objectType: string; readonly column: string };
  /** The condition that a candidate number is still free, inside the transaction. */
  free(parent: Row, candidate: ReturnType<typeof member>): ReturnType<typeof sql>;
}

/** One free number, with what its GET item is made of. */
interface FreeNumber {
  readonly ctx: Actor;
  readonly registry: Registry;
  /** The parent's nested form. */
  readonly parent: Out;
  /** The parent's stored row. */
  readonly row: Row;
  /** The nested form of the object the source `nests`, or null. */
  readonly nested: Out | null;
  readonly value: number;
}

async function loadParent(ctx: Actor, model: Model, source: NumberSource, id: number): Promise<Row> {
  const nests = source.nests;
  const nested = nests ? sql`${nestedJsonSql(model.registry.get(nests.objectType), sql.ref(`t.${nests.column}`), 1)}` : sql`NULL`;
  const [result] = await readBatch(ctx, [
    sql`SELECT t.*, ${nestedJsonSql(model, sql.ref("t.id"), 1)} AS parent_json, ${nested} AS nested_json FROM ${sql.table(model.table)} t
      WHERE t.id = ${id} AND ${scopeSql(ctx, model, "view", "t")}`.compile(qb),
  ]);
  if (!result.rows.length) throw ApiError.notFound(model.className);
  return result.rows[0];
}

/** The first `wanted` numbers of the ranges not in `used` (sorted ascending). */
function freeNumbers(ranges: [number, number][], used: Set<number>, wanted: number): number[] {
  const out: number[] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    for (let n = lo; n <= hi && out.length < wanted; n++) if (!used.has(n)) out.push(n);
  }
  return [...new Set(out)];
}

/** The free numbers of the parent `model` row `id`: listed (GET) or taken by new objects (POST). */
async function serveNumbers(ctx: RouteContext, model: Model, source: NumberSource, id: number): Promise<Response> {
  const parent = await loadParent(ctx, model, source, id);
  const nested = JSON.parse(String(parent.parent_json)) as Out;
  const nestedObject =
    source.nests && typeof parent.nested_json === "string"
      ? nestedForm(ctx, model.registry, source.nests.objectType, JSON.parse(parent.nested_json) as Out)
      : null;
  const { __display: display, ...fields } = nested;
  const brief = { id: nested.id, url: objectUrl(ctx, model, nested.id), display, ...fields };
  const ranges = source.ranges(parent);
  const find = async (wanted: number) => {
    const lo = Math.min(...ranges.map((r) => r[0]));
    const hi = Math.max(...ranges.map((r) => r[1]));
    const [used] = await readBatch(ctx, [source.used(parent, lo, hi)]);
    return freeNumbers(ranges, new Set(used.rows.map((r) => Number(r.n))), wanted);
  };
  if (ctx.method === "GET")
    return json(
      (await find(resultsLimit(ctx))).map((value) =>
        source.item({ ctx, registry: model.registry, parent: brief, row: parent, nested: nestedObject, value }),
      ),
    );

  const body = await ctx.json();
  const single = !Array.isArray(body);
  const items = (single ? [body ?? {}] : body) as Out[];
  for (let attempt = 1; ; attempt++) {
    const free = await find(items.length + SPARE);
    if (free.length < items.length) throw ApiError.detail("conflict", NO_ROOM);
    const candidates = free.map((n) => ({ n }));
    const columns = { [source.column]: pickSql(candidates, "n", (c) => source.free(parent, member(c, "n"))) };
    const inputs = items.map((item, i) => ({ ...(item && typeof item === "object" ? item : {}), ...source.fixed(parent, free[i]) }));
    try {
      const allocation = { columns: inputs.map(() => columns), positions: [] };
      const out = await writeObjects(ctx, model.registry.get(source.child), {
        inputs,
        mode: "create",
        ids: inputs.map(() => null),
        bulk: !single,
        allocation,
      });
      return json(single ? out[0] : out, 201);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || attempt >= ATTEMPTS) throw error;
    }
  }
}

const vlanSource: NumberSource = {
  child: "ipam.vlan",
  column: "vid",
  ranges: (group) => rangesOf(group.vid_ranges),
  used: (group, lo, hi) => sql`SELECT vid AS n FROM ipam_vlan WHERE group_id = ${group.id} AND vid BETWEEN ${lo} AND ${hi}`.compile(qb),
  fixed: (group, vid) => ({ group: Number(group.id), vid }),
  item: ({ parent, value }) => ({ vid: value, group: parent }),
  free: (group, c) => sql`NOT EXISTS (SELECT 1 FROM ipam_vlan x WHERE x.group_id = ${group.id} AND x.vid = ${c})`,
};

const asnSource: NumberSource = {
  child: "ipam.asn",
  column: "asn",
  ranges: (range) => [[Number(range.start), Number(range.end)]],
  // AS numbers are unique everywhere, whatever their RIR.
  used: (_range, lo, hi) => sql`SELECT asn AS n FROM ipam_asn WHERE asn BETWEEN ${lo} AND ${hi}`.compile(qb),
  fixed: (range, asn) => ({ rir: Number(range.rir_id), asn }),
  item: ({ nested, value }) => ({ rir: nested, asn: value }),
  nests: { objectType: "ipam.rir", column: "rir_id" },
  free: (_range, c) => sql`NOT EXISTS (SELECT 1 FROM ipam_asn x WHERE x.asn = ${c})`,
};

/** GET lists the free VIDs of a VLAN group; POST creates VLANs taking them. */
export const availableVlansRoute = allocationRoute({
  name: "available-vlans",
  summary: "GET: the group's free VLAN ids; POST: create VLANs taking them.",
  free: { vid: { type: "integer" }, group: ref("NestedVLANGroup") },
  takes: ref("PatchedWritableVLANRequest"),
  creates: "VLAN",
  handler: (ctx, model, id) => serveNumbers(ctx, model, vlanSource, id!),
});

/** GET lists the free AS numbers of an ASN range; POST creates ASNs taking them. */
export const availableAsnsRoute = allocationRoute({
  name: "available-asns",
  summary: "GET: the range's free AS numbers; POST: create ASNs taking them.",
  free: { rir: ref("NestedRIR"), asn: { type: "integer" } },
  takes: ref("PatchedWritableASNRequest"),
  creates: "ASN",
  handler: (ctx, model, id) => serveNumbers(ctx, model, asnSource, id!),
});

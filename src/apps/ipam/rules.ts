import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { ipRangeName } from "./range-name.ts";
import { sql, type RawBuilder } from "kysely";
import { qb, Slot, Template } from "../../db/query-builder.ts";
import { remembered } from "../../lib/memo.ts";
import { scopeKey, scopeSql, unrestricted } from "../../engine/scope.ts";
import type { ModelHooks, StatefulHooks, WriteItem, Probe, AllocationPlan } from "../../schema/hooks.ts";
import { isRef, type GenericRef, type Ref } from "../../schema/kinds/descriptor.ts";
import { refSql } from "../../engine/references.ts";
import { SHARED_ROLES } from "./choices.ts";
import { firstOf, formatAddress, keyOf, lastOf, parseNetwork, type Network } from "../../lib/network.ts";
import { prefixDeleteHierarchy, prefixWriteHierarchy } from "./hierarchy.ts";
import { allocationState, applyAllocation } from "./allocation-plan.ts";

type Sql = RawBuilder<unknown>;

/** The network a field has after the write: the one written, else the stored one. */
export function networkAfter(item: WriteItem, name: string): Network | null {
  const given = item.values[name];
  if (given !== undefined) return given as Network | null;
  const stored = item.current?.[name];
  return typeof stored === "string" ? parseNetwork(stored) : null;
}

/** The family column follows the address or prefix written. */
function setFamily(items: readonly WriteItem[], field: string): void {
  for (const item of items) {
    const n = item.values[field] as Network | undefined;
    if (n) item.columns.family = n.family;
  }
}

const add = (item: WriteItem, key: string, message: string) => void ((item.errors[key] ??= []) as string[]).push(message);

/** SQL for the VRF id an item of `model` has after the write (the one given, else the stored one). */
function vrfAfterSql(ctx: Actor, model: Model, item: WriteItem): Sql {
  const given = item.values.vrf;
  const self = item.id;
  if (given === undefined) return self === null ? sql`NULL` : sql`(SELECT vrf_id FROM ${sql.table(model.table)} WHERE id = ${self})`;
  const vrfModel = model.field.vrf.target!();
  return refSql(ctx, vrfModel, isRef(given) ? (given as Ref) : (given as number | null));
}

/** What counts as a duplicate of a network field (`address`, `prefix`). */
interface DuplicateRule {
  readonly field: string;
  /** The field's name in the refusal: "IP address", "prefix". */
  readonly noun: string;
  /** The same network, as SQL over the row under `alias`. */
  readonly match: (n: Network, alias: string) => Sql;
  /** A further condition on the row under `alias`, for the item (default: none). */
  readonly extra?: (item: WriteItem, alias: string) => Sql;
  /**
   * How `match` and `extra` read set-wise (`sameNetworks`): whether a duplicate also has the same
   * mask length (a prefix), and whether a shared role lets duplicates be (an address).
   */
  readonly sets: { readonly length: boolean; readonly shared: boolean };
}

/** What a duplicate probe reads for one item: whether its table enforces uniqueness, the VRF's name, a duplicate found. */
type DuplicateRow = Record<string, unknown> | undefined;

/**
 * Probes refusing duplicates as NetBox does: inside a VRF whose `enforce_unique` is set, and in
 * the global table when ENFORCE_GLOBAL_UNIQUE is on (the default). `match` says what a duplicate
 * is (the same host for addresses, the same prefix for prefixes). Each probe also says whether
 * the item's table enforces uniqueness, so items of one request are compared with each other too
 * (in item order, once every probe has read). The items that give their network and a VRF by id
 * or none (all of a bulk create, as a rule) share one statement; the others (a VRF by attributes,
 * an update keeping its network) have one each.
 */
function duplicateProbes(ctx: Actor, model: Model, items: readonly WriteItem[], rule: DuplicateRule): Probe[] {
  const { field, noun, match, extra = () => sql`1` } = rule;
  const globalUnique = ctx.config.ENFORCE_GLOBAL_UNIQUE ? 1 : 0;
  const probes: Probe[] = [];
  const table = sql.table(model.table);
  const stored = (column: string, self: number | null) => sql`(SELECT ${sql.ref(column)} FROM ${table} WHERE id = ${self})`;
  const checked: { item: WriteItem; row: DuplicateRow }[] = [];
  const together: { item: WriteItem; at: number }[] = [];
  items.forEach((item) => {
    if (item.values[field] === undefined && item.values.vrf === undefined) return;
    if (Object.keys(item.errors).length) return;
    const at = checked.push({ item, row: undefined }) - 1;
    const n = item.values[field] as Network | undefined;
    const given = item.values.vrf;
    if (n && (given === undefined || given === null || typeof given === "number" || (given as Ref).ref === "id")) {
      together.push({ item, at });
      return;
    }
    const self = item.id;
    const vrf = vrfAfterSql(ctx, model, item);
    const x = "x";
    const target = n
      ? match(n, x)
      : sql`${sql.ref(`${x}.${field}_start`)} = ${stored(`${field}_start`, self)}
      AND (${field === "prefix" ? sql`${sql.ref(`${x}.${field}_length`)} = ${stored(`${field}_length`, self)}` : sql`1`})`;
    probes.push({
      statement:
        sql`SELECT (CASE WHEN ${vrf} IS NULL THEN ${globalUnique} ELSE (SELECT enforce_unique FROM ipam_vrf WHERE id = ${vrf}) END) AS enforced,
          (SELECT CASE WHEN rd IS NULL THEN name ELSE name || ' (' || rd || ')' END FROM ipam_vrf WHERE id = ${vrf}) AS vrf_name,
          (SELECT ${sql.ref(`${x}.${field}`)} FROM ${table} ${sql.raw(x)}
            WHERE ${target} AND ${sql.ref(`${x}.vrf_id`)} IS ${vrf} AND ${sql.ref(`${x}.id`)} IS NOT ${self} AND ${extra(item, x)} LIMIT 1) AS found`.compile(
          qb,
        ),
      settle: (r) => void (checked[at].row = r.rows[0]),
    });
  });
  if (together.length) {
    const rows = together.map(({ item }) => {
      const n = item.values[field] as Network;
      const given = item.values.vrf as number | Ref | null | undefined;
      const vrf = given === undefined || given === null ? null : typeof given === "number" ? given : (given as Ref & { id: number }).id;
      const shared = SHARED_ROLES.includes(String(item.values.role)) ? 1 : 0;
      const start = keyOf(n.family, rule.sets.length ? firstOf(n) : n.host);
      return [start, n.length, item.id, given === undefined ? 0 : 1, vrf, shared];
    });
    probes.push({
      statement: sameNetworks(ctx, model, rule).bind({ items: JSON.stringify(rows), globalUnique }),
      settle: (r) => r.rows.forEach((row) => void (checked[together[Number(row.i)].at].row = row)),
    });
  }
  if (!probes.length) return [];
  // Items of one request are compared in item order, whichever statement read each.
  const seen = new Set<string>();
  const compare = () => {
    for (const { item, row } of checked) {
      if (!row || !Number(row.enforced)) continue;
      const n = item.values[field] as Network | undefined;
      const shared = SHARED_ROLES.includes(String(item.values.role));
      // A prefix is its network and mask; an address is its host, whatever its mask.
      const key = n
        ? `${JSON.stringify(item.values.vrf ?? null)}|${field === "prefix" ? `${keyOf(n.family, firstOf(n))}/${n.length}` : keyOf(n.family, n.host)}`
        : null;
      const where = row.vrf_name === null || row.vrf_name === undefined ? "global table" : `VRF ${row.vrf_name}`;
      if (row.found !== null && row.found !== undefined) add(item, field, `Duplicate ${noun} found in ${where}: ${row.found}`);
      else if (key && seen.has(key) && !shared) add(item, field, `Duplicate ${noun} found in ${where}: ${formatNet(n!)}`);
      if (key && !shared) seen.add(key);
    }
  };
  const last = probes[probes.length - 1];
  probes[probes.length - 1] = { statement: last.statement, settle: (r) => (last.settle(r), compare()) };
  return probes;
}

const sameNetworkTemplates = new Map<string, Template>();

/**
 * One statement reading, for each item given as JSON `[start, length, self, vrf given, vrf id,
 * shared role]`, what `duplicateProbes` reads per item: built once per model, rule and the
 * requester's view of VRFs, bound per request.
 */
function sameNetworks(ctx: Actor, model: Model, rule: DuplicateRule): Template {
  const build = () => {
    const vrfModel = model.field.vrf.target!();
    const t = sql.table(model.table);
    const { field } = rule;
    const x = (column: string) => sql.ref(`x.${column}`);
    const givenVrf = unrestricted(ctx, vrfModel, "view")
      ? sql`i.vrf_id`
      : sql`(SELECT id FROM ${sql.table(vrfModel.table)} WHERE id = i.vrf_id AND ${scopeSql(ctx, vrfModel, "view")})`;
    const sameLength = rule.sets.length ? sql` AND ${x(`${field}_length`)} = v.length` : sql``;
    const shared = rule.sets.shared ? sql` AND (v.shared = 0 OR coalesce(${x("role")}, '') NOT IN (${sql.join(SHARED_ROLES)}))` : sql``;
    return new Template(sql`WITH i AS (
        SELECT j.key AS i, j.value ->> 0 AS start, j.value ->> 1 AS length, j.value ->> 2 AS self, j.value ->> 3 AS vrf_given,
          j.value ->> 4 AS vrf_id, j.value ->> 5 AS shared FROM json_each(${new Slot("items")}) j
      ), v AS (
        SELECT i.*, CASE WHEN i.vrf_given THEN ${givenVrf} WHEN i.self IS NULL THEN NULL
          ELSE (SELECT vrf_id FROM ${t} WHERE id = i.self) END AS vrf FROM i
      )
      SELECT v.i, (CASE WHEN v.vrf IS NULL THEN ${new Slot("globalUnique")} ELSE (SELECT enforce_unique FROM ipam_vrf WHERE id = v.vrf) END) AS enforced,
        (SELECT CASE WHEN rd IS NULL THEN name ELSE name || ' (' || rd || ')' END FROM ipam_vrf WHERE id = v.vrf) AS vrf_name,
        (SELECT ${x(field)} FROM ${t} x WHERE ${x(`${field}_start`)} = v.start${sameLength} AND ${x("vrf_id")} IS v.vrf
          AND ${x("id")} IS NOT v.self${shared} LIMIT 1) AS found
      FROM v ORDER BY v.i`);
  };
  return remembered(sameNetworkTemplates, `${model.objectType} ${rule.field}\n${scopeKey(ctx)}`, build, 256);
}

const formatNet = (n: Network) => `${formatAddress(n.family, n.host)}/${n.length}`;

/** Same prefix: same start and mask length. */
const samePrefix = (field: string) => (n: Network, x: string) =>
  sql`${sql.ref(`${x}.${field}_start`)} = ${keyOf(n.family, firstOf(n))} AND ${sql.ref(`${x}.${field}_length`)} = ${n.length}`;

/** `self` is the model the rules are declared on. */
export const prefixHooks = (self: () => Model): StatefulHooks<AllocationPlan | null> => ({
  initial: allocationState,
  writeProbes: (ctx, items, allocation) => {
    // An allocation picks free space inside its own transaction; it needs no probe.
    const model = items.length && !allocation ? self() : null;
    return model
      ? duplicateProbes(ctx, model, items, {
          field: "prefix",
          noun: "prefix",
          match: samePrefix("prefix"),
          sets: { length: true, shared: false },
        })
      : [];
  },
  prepareWrite: (_ctx, items, allocation) => {
    setFamily(items, "prefix");
    applyAllocation(allocation, items);
    for (const item of items) {
      // `site` is the scope's site (NetBox 4.2 caches it as `_site`): the site scoped, or the
      // location's; a prefix given only a site is scoped to it.
      const scope = item.values.scope as GenericRef | null | undefined;
      if (scope) {
        item.values.site = scope.type === "dcim.site" ? scope.id : null;
        if (scope.type === "dcim.location") item.columns.site_id = sql`(SELECT site_id FROM dcim_location WHERE id = ${scope.id})`;
      } else if (item.values.site !== undefined && item.values.site !== null) {
        item.values.scope = { type: "dcim.site", id: item.values.site };
      } else if (scope === null) item.values.site = null;
    }
  },
  writeStatements: (ctx, items, allocation) => prefixWriteHierarchy(ctx, items, allocation),
  deleteStatements: (_ctx, rows) => prefixDeleteHierarchy(rows),
});

export const aggregateHooks: ModelHooks = {
  writeProbes: (_ctx, items) =>
    items.flatMap((item): Probe[] => {
      const n = item.values.prefix as Network | undefined;
      if (!n || Object.keys(item.errors).length) return [];
      const [start, end] = [keyOf(n.family, firstOf(n)), keyOf(n.family, lastOf(n))];
      return [
        {
          statement: sql`SELECT prefix, prefix_start AS s, prefix_end AS e FROM ipam_aggregate
          WHERE prefix_start <= ${end} AND prefix_end >= ${start} AND id IS NOT ${item.id} LIMIT 1`.compile(qb),
          settle: (r) => {
            const row = r.rows[0];
            if (!row) return;
            const text = formatNet({ ...n, host: firstOf(n) });
            const covered = String(row.s) <= start && String(row.e) >= end;
            add(
              item,
              "prefix",
              covered
                ? `Aggregates cannot overlap. ${text} is already covered by an existing aggregate (${row.prefix}).`
                : `Aggregates cannot overlap. ${text} covers an existing aggregate (${row.prefix}).`,
            );
          },
        },
      ];
    }),
  prepareWrite: (_ctx, items) => setFamily(items, "prefix"),
};

/** `self` is the model the rules are declared on. */
export const ipRangeHooks = (self: () => Model): ModelHooks => ({
  // The exact name (the SQL display is exact only when the ends differ in their last group).
  represent: (_ctx, rows, outs) => {
    rows.forEach((row, i) => {
      if (typeof row.start_address === "string" && typeof row.end_address === "string" && "display" in outs[i])
        outs[i].display = ipRangeName(row.start_address, row.end_address);
    });
  },
  writeProbes: (ctx, items) =>
    items.flatMap((item): Probe[] => {
      const [start, end] = [item.values.start_address as Network | undefined, item.values.end_address as Network | undefined];
      if (!start || !end || start.family !== end.family || end.host <= start.host || Object.keys(item.errors).length) return [];
      const vrf = vrfAfterSql(ctx, self(), item);
      return [
        {
          statement:
            sql`SELECT r.start_address, r.end_address, v.name AS vrf_name FROM ipam_iprange r LEFT JOIN ipam_vrf v ON v.id = r.vrf_id
          WHERE r.start_address_start <= ${keyOf(end.family, end.host)} AND r.end_address_start >= ${keyOf(start.family, start.host)}
            AND r.vrf_id IS ${vrf} AND r.id IS NOT ${item.id} LIMIT 1`.compile(qb),
          settle: (r) => {
            const row = r.rows[0];
            if (row)
              add(
                item,
                "__all__",
                `Defined addresses overlap with range ${ipRangeName(String(row.start_address), String(row.end_address))} in VRF ${row.vrf_name ?? "None"}`,
              );
          },
        },
      ];
    }),
  prepareWrite: (_ctx, items) => {
    for (const item of items) {
      const start = networkAfter(item, "start_address");
      const end = networkAfter(item, "end_address");
      if (!start || !end) continue;
      if (start.family !== end.family) add(item, "__all__", "Starting and ending IP address versions must match");
      else if (start.length !== end.length) add(item, "__all__", "Starting and ending IP address masks do not match");
      else if (end.host <= start.host)
        add(item, "end_address", `Ending address must be greater than the starting address (${formatNet(start)})`);
      else {
        item.columns.family = start.family;
        // SQLite integers stop at 2^63 - 1; a larger IPv6 range reads as that.
        const size = end.host - start.host + 1n;
        item.columns.size = Number(size > 2n ** 63n - 1n ? 2n ** 63n - 1n : size);
      }
    }
  },
});

/** `self` is the model the rules are declared on. */
export const ipAddressHooks = (self: () => Model): StatefulHooks<AllocationPlan | null> => ({
  initial: allocationState,
  writeProbes: (ctx, items, allocation) => {
    // As for prefixes, an allocation's transaction picks free space: no duplicate probe.
    const model = items.length && !allocation ? self() : null;
    if (!model) return [];
    const sameHost = (n: Network, x: string) => sql`${sql.ref(`${x}.address_start`)} = ${keyOf(n.family, n.host)}`;
    // Duplicates with a shared role (anycast, VRRP, ...) are allowed when this one has one too.
    const shared = (item: WriteItem, x: string) =>
      SHARED_ROLES.includes(String(item.values.role))
        ? sql`coalesce(${sql.ref(`${x}.role`)}, '') NOT IN (${sql.join(SHARED_ROLES)})`
        : sql`1`;
    return duplicateProbes(ctx, model, items, {
      field: "address",
      noun: "IP address",
      match: sameHost,
      extra: shared,
      sets: { length: false, shared: true },
    });
  },
  prepareWrite: (_ctx, items, allocation) => {
    setFamily(items, "address");
    applyAllocation(allocation, items);
    for (const item of items) {
      const n = networkAfter(item, "address");
      if (!n) continue;
      const status = item.values.status ?? item.current?.status;
      if (status === "slaac" && n.family !== 6) add(item, "status", "Only IPv6 addresses can be assigned SLAAC status");
      const assigned =
        item.values.assigned_object !== undefined
          ? (item.values.assigned_object as GenericRef | null)
          : item.current?.assigned_object_type
            ? { type: String(item.current.assigned_object_type), id: 0 }
            : null;
      if (!assigned?.type.endsWith("interface")) continue;
      // NetBox refuses a network ID or (IPv4) broadcast address on an interface, except on /31-/32 and /127-/128.
      const max = n.family === 4 ? 32 : 128;
      if (n.length >= max - 1) continue;
      const host = formatAddress(n.family, n.host);
      if (n.host === firstOf(n)) add(item, "__all__", `${host} is a network ID, which may not be assigned to an interface.`);
      else if (n.family === 4 && n.host === lastOf(n))
        add(item, "__all__", `${host} is a broadcast address, which may not be assigned to an interface.`);
    }
  },
});

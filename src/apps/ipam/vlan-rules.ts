import type { Model } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import type { Row } from "../../db/database.ts";
import type { StatefulHooks, Values, WriteItem, Probe, AllocationPlan } from "../../schema/hooks.ts";
import { isRef, type Ref } from "../../schema/kinds/descriptor.ts";
import { refSql } from "../../engine/references.ts";
import { checkable, relatedRowsProbe } from "../../engine/referenced-rows.ts";
import { allocationState, applyAllocation } from "./allocation-plan.ts";

const add = (item: WriteItem, key: string, message: string) => void ((item.errors[key] ??= []) as string[]).push(message);

/** A VLAN group's `vid_ranges`: inclusive `[lower, upper]` pairs of VIDs (1-4094), as NetBox checks them. */
export function vidRangesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "Ranges must be specified in the form (lower, upper).";
  for (const pair of value) {
    if (!Array.isArray(pair) || pair.length !== 2) return "Ranges must be specified in the form (lower, upper).";
    if (!pair.every((x) => Number.isInteger(x))) return "Range boundaries must be defined as integers.";
    const [lo, hi] = pair as number[];
    if (lo < 1 || hi > 4094 || lo > hi) return `Invalid VLAN ID range ${lo}-${hi}: bounds must lie within 1-4094, lower first.`;
  }
  return undefined;
}

/** The VID ranges a stored group row allows. */
export const rangesOf = (raw: unknown): [number, number][] => (typeof raw === "string" ? JSON.parse(raw) : [[1, 4094]]);

/**
 * NetBox's Q-in-Q rules of a VLAN: only a customer VLAN (cvlan) names a service VLAN, a customer
 * VLAN must name one, and the one named must be a service VLAN (its field's `limit_choices_to`,
 * refused in Django's words).
 */
function vlanQinqRules(item: WriteItem): void {
  const named = item.probed.qinq_svlan;
  if (named && named.qinq_role !== "svlan") add(item, "qinq_svlan", `VLAN instance with id ${named.id} does not exist.`);
  if (item.values.qinq_role === undefined && item.values.qinq_svlan === undefined) return;
  const role = item.values.qinq_role !== undefined ? item.values.qinq_role : (item.current?.qinq_role ?? null);
  const svlan = item.values.qinq_svlan !== undefined ? item.values.qinq_svlan : (item.current?.qinq_svlan_id ?? null);
  if (svlan !== null && role !== "cvlan") add(item, "qinq_svlan", "Only Q-in-Q customer VLANs maybe assigned to a service VLAN.");
  if (role === "cvlan" && svlan === null) add(item, "qinq_svlan", "A Q-in-Q customer VLAN must be assigned to a service VLAN.");
}

/** A VLAN in a group must take a VID within the group's ranges. */
export const vlanHooks = (self: () => Model): StatefulHooks<AllocationPlan | null> => ({
  initial: allocationState,
  prepareWrite: (_ctx, items, allocation) => {
    applyAllocation(allocation, items);
    for (const item of items) vlanQinqRules(item);
  },
  writeProbes: (ctx, items, allocation) => {
    const groupModel = self().registry.get("ipam.vlangroup");
    const svlans = relatedRowsProbe(ctx, self(), checkable(items), { name: "qinq_svlan" });
    return items
      .flatMap((item): Probe[] => {
        if ((item.values.vid === undefined && item.values.group === undefined) || allocation) return [];
        const self = item.id;
        const given = item.values.group;
        const group =
          given === undefined
            ? sql`(SELECT group_id FROM ipam_vlan WHERE id = ${self})`
            : refSql(ctx, groupModel, isRef(given) ? (given as Ref) : (given as number | null));
        const vid = item.values.vid === undefined ? sql`(SELECT vid FROM ipam_vlan WHERE id = ${self})` : sql`${item.values.vid as number}`;
        return [
          {
            statement: sql`SELECT g.name, g.vid_ranges, ${vid} AS vid FROM ipam_vlangroup g WHERE g.id = ${group}`.compile(qb),
            settle: (r) => {
              const row = r.rows[0];
              if (!row) return;
              const ranges = rangesOf(row.vid_ranges);
              const vidValue = Number(row.vid);
              if (!ranges.some(([lo, hi]) => vidValue >= lo && vidValue <= hi)) {
                add(
                  item,
                  "vid",
                  `VID must be in ranges ${ranges.map(([lo, hi]) => `${lo}-${hi}`).join(", ")} for VLANs in group ${row.name}`,
                );
              }
            },
          },
        ];
      })
      .concat(svlans);
  },
});

/**
 * What a write's VLAN probes found for each interface: each VLAN's site, and the site of the
 * interface's parent. Keyed by the item's values, the one part of an item that the copies
 * `prepareWrite` receives share with those the probes saw.
 */
type Found = Map<Values, { vlans: Map<number, Row>; parentSite: unknown }>;

/** Where an interface model finds the parent whose site its VLANs must share: a device's, or a virtual machine's. */
export interface InterfaceParent {
  /** The interface's field naming its parent, and the parent's model. */
  readonly field: "device" | "virtual_machine";
  readonly model: "dcim.device" | "virtualization.virtualmachine";
  /** How NetBox's messages name it. */
  readonly words: string;
}

export const DEVICE_PARENT: InterfaceParent = { field: "device", model: "dcim.device", words: "parent device" };
export const VM_PARENT: InterfaceParent = {
  field: "virtual_machine",
  model: "virtualization.virtualmachine",
  words: "parent virtual machine",
};

/**
 * An interface's 802.1Q rules (NetBox's): tagged VLANs only in tagged mode, an untagged VLAN only
 * with a mode, and every VLAN global or of the parent's site. Leaving tagged mode drops the tagged
 * VLANs, leaving 802.1Q altogether the untagged one too, as NetBox's save does.
 */
export const interfaceVlanHooks = (self: () => Model, parent: InterfaceParent = DEVICE_PARENT): StatefulHooks<Found> => ({
  initial: () => new Map(),
  writeProbes: (ctx, items, found) => {
    const model = self();
    const parentModel = model.registry.get(parent.model);
    const column = sql.ref(model.field[parent.field].column!);
    return items.flatMap((item): Probe[] => {
      const tagged = (item.values.tagged_vlans as unknown[] | undefined) ?? [];
      const named = [...tagged, item.values.untagged_vlan, item.values.qinq_svlan];
      const vlanIds = named.flatMap((v) => (isRef(v) && v.ref === "id" ? [v.id] : typeof v === "number" ? [v] : []));
      if (!vlanIds.length) return [];
      const given = item.values[parent.field];
      const owner =
        given === undefined
          ? sql`(SELECT ${column} FROM ${sql.table(model.table)} WHERE id = ${item.id})`
          : refSql(ctx, parentModel, isRef(given) ? (given as Ref) : (given as number));
      return [
        {
          statement:
            sql`SELECT v.id, v.site_id, v.name, v.vid, v.qinq_role, (SELECT site_id FROM ${sql.table(parentModel.table)} WHERE id = ${owner}) AS parent_site
          FROM ipam_vlan v WHERE v.id IN (SELECT value FROM json_each(${JSON.stringify(vlanIds)}))`.compile(qb),
          settle: (r) =>
            found.set(item.values, { vlans: new Map(r.rows.map((row) => [Number(row.id), row])), parentSite: r.rows[0]?.parent_site }),
        },
      ];
    });
  },
  prepareWrite: (_ctx, items, found) => {
    for (const item of items) {
      const mode = item.values.mode !== undefined ? item.values.mode : (item.current?.mode ?? null);
      const tagged = item.values.tagged_vlans as number[] | undefined;
      if (tagged?.length && mode !== "tagged")
        add(item, "tagged_vlans", `Tagged VLANs can only be assigned to an interface in tagged mode (the mode is ${mode ?? "unset"}).`);
      if (item.values.untagged_vlan && !mode)
        add(item, "untagged_vlan", "An untagged VLAN needs an 802.1Q mode (access, tagged or tagged-all).");
      // Leaving tagged mode drops the tagged VLANs; leaving 802.1Q drops the untagged one too.
      if (item.values.mode !== undefined && mode !== "tagged" && tagged === undefined && item.current) item.values.tagged_vlans = [];
      if (item.values.mode !== undefined && !mode && item.values.untagged_vlan === undefined && item.current)
        item.values.untagged_vlan = null;
      // Q-in-Q (802.1ad): a service VLAN only in that mode, and leaving the mode drops it, as NetBox's save does.
      if (item.values.qinq_svlan && mode !== "q-in-q")
        add(item, "qinq_svlan", `A Q-in-Q SVLAN can only be assigned to an interface in Q-in-Q mode (the mode is ${mode ?? "unset"}).`);
      if (item.values.mode !== undefined && mode !== "q-in-q" && item.values.qinq_svlan === undefined && item.current)
        item.values.qinq_svlan = null;
      const seen = found.get(item.values);
      if (!seen) continue;
      const foreign = (id: unknown) => {
        const vlan = seen.vlans.get(Number(id));
        return vlan && vlan.site_id !== null && vlan.site_id !== seen.parentSite ? vlan : undefined;
      };
      const svlan = item.values.qinq_svlan ? seen.vlans.get(Number(item.values.qinq_svlan)) : undefined;
      if (svlan && svlan.qinq_role !== "svlan")
        add(item, "qinq_svlan", `VLAN ${svlan.name} (${svlan.vid}) is not a Q-in-Q service VLAN: its Q-in-Q role must be svlan.`);
      const untagged = foreign(item.values.untagged_vlan);
      if (untagged) {
        add(
          item,
          "untagged_vlan",
          `The untagged VLAN (${untagged.name} (${untagged.vid})) must belong to the same site as the interface's ${parent.words}, or it must be global.`,
        );
      }
      for (const id of tagged ?? []) {
        const vlan = foreign(id);
        if (vlan)
          add(
            item,
            "tagged_vlans",
            `VLAN ${vlan.name} (${vlan.vid}) must belong to the same site as the interface's ${parent.words}, or it must be global.`,
          );
      }
    }
  },
});

import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import type { Row } from "../../db/database.ts";
import type { StatefulHooks, Values, WriteItem } from "../../schema/hooks.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { whether } from "../../schema/filter-sql.ts";

/** NetBox's `has_primary_ip` of devices, VMs and virtual device contexts: an IPv4 or IPv6 primary address is set. */
export const hasPrimaryIp = whether(
  (t) => sql`${sql.ref(`${t}.primary_ip4_id`)} IS NOT NULL OR ${sql.ref(`${t}.primary_ip6_id`)} IS NOT NULL`,
);

/** A device's or VM's primary and out-of-band addresses, with the family each needs. */
export const PRIMARY_FIELDS = [
  ["primary_ip4", 4],
  ["primary_ip6", 6],
  ["oob_ip", null],
] as const;

const add = (item: WriteItem, key: string, message: string) => void ((item.errors[key] ??= []) as string[]).push(message);

/**
 * The addresses a write's probes found for each item, by id: address, family, and the device of
 * the interface they are on. Keyed by the item's values, the one part of an item that the copies
 * `prepareWrite` receives share with those the probes saw.
 */
type Found = Map<Values, Map<number, Row>>;

/** Where the addresses of a device or a VM sit: its interfaces' model and table, and their column naming it. */
export interface InterfaceHome {
  readonly type: string;
  readonly table: string;
  readonly owner: string;
  /** "device", "virtual machine": in the refusal. */
  readonly noun: string;
  /**
   * The id of the device whose interfaces the item's addresses must be on, for an object that
   * is not that device itself (a virtual device context: its `device`); default the item's own id.
   */
  readonly ownerOf?: (item: WriteItem) => unknown;
  /** The refusal of an address on another object's interface, when NetBox words it otherwise. */
  readonly refusal?: (address: unknown) => string;
}

export const DEVICE_INTERFACES: InterfaceHome = { type: "dcim.interface", table: "dcim_interface", owner: "device_id", noun: "device" };
/** A virtual device context's addresses: on interfaces of its device (NetBox's words for the refusal). */
export const VDC_INTERFACES: InterfaceHome = {
  ...DEVICE_INTERFACES,
  ownerOf: (item) => item.values.device ?? item.current?.device_id ?? null,
  refusal: () => "Primary IP address must belong to an interface on the assigned device.",
};

export const VM_INTERFACES: InterfaceHome = {
  type: "virtualization.vminterface",
  table: "virtualization_vminterface",
  owner: "virtual_machine_id",
  noun: "virtual machine",
};

/**
 * NetBox's rule: a primary or out-of-band IP must be assigned to an interface of the device (or
 * VM) itself, and a primary IPv4/IPv6 must be of that family.
 */
export const primaryIpHooks = (home: InterfaceHome): StatefulHooks<Found> => ({
  initial: () => new Map(),
  writeProbes: (_ctx, items, found) =>
    items.flatMap((item) => {
      const ids = PRIMARY_FIELDS.flatMap(([name]) => {
        const v = item.values[name];
        return isRef(v) && v.ref === "id" ? [v.id] : [];
      });
      if (!ids.length) return [];
      return [
        {
          statement: sql`SELECT ip.id, ip.address, ip.family, i.${sql.ref(home.owner)} AS owner_id FROM ipam_ipaddress ip
          LEFT JOIN ${sql.table(home.table)} i ON ip.assigned_object_type = ${home.type} AND i.id = ip.assigned_object_id
          WHERE ip.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`.compile(qb),
          settle: (r) => found.set(item.values, new Map(r.rows.map((row) => [Number(row.id), row]))),
        },
      ];
    }),
  prepareWrite: (_ctx, items, found) => {
    for (const item of items) {
      const rows = found.get(item.values);
      for (const [name, family] of PRIMARY_FIELDS) {
        const id = item.values[name];
        if (typeof id !== "number" || !rows?.has(id)) continue;
        const ip = rows.get(id)!;
        if (family !== null && Number(ip.family) !== family) add(item, name, `${ip.address} is not an IPv${family} address.`);
        else {
          const owner = home.ownerOf ? home.ownerOf(item) : (item.current?.id ?? null);
          if (owner === null || ip.owner_id === null || Number(ip.owner_id) !== Number(owner))
            add(item, name, home.refusal?.(ip.address) ?? `The specified IP address (${ip.address}) is not assigned to this ${home.noun}.`);
        }
      }
    }
  },
  // NetBox's read-only `primary_ip`: the IPv6 one when set, else the IPv4 one (PREFER_IPV4 off).
  represent: (_ctx, _rows, outs) => {
    for (const out of outs) if ("primary_ip4" in out) out.primary_ip = out.primary_ip6 ?? out.primary_ip4 ?? null;
  },
  representShape: { adds: { primary_ip: "primary_ip4" } },
  representFinal: (written) => {
    const ip4 = written.get("primary_ip4");
    return ip4 ? [["primary_ip", sql`coalesce(${written.get("primary_ip6") ?? sql`NULL`}, ${ip4})`]] : [];
  },
});

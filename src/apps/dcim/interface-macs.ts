import type { FieldOptions, FilterDeclaration, Model, RowSql } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { checkable, relatedRowsProbe } from "../../engine/referenced-rows.ts";

/**
 * MAC addresses on interfaces (device and VM interfaces alike): NetBox's spellings of an address,
 * and the fields and filters an interface model spreads to show and find the MAC addresses
 * assigned to it.
 */

/**
 * The spellings of a MAC address netaddr's EUI accepts, as NetBox parses them (`dcim/fields.py`):
 * six groups of 1-2 hex digits (`:` or `-`), three of 1-4 (`:`, `-` or `.`: Cisco), two of 5-6
 * (PostgreSQL), or 12 bare digits. Each group is zero-padded to its share of the 12 digits.
 */
const MAC_SPELLINGS: readonly { readonly regex: RegExp; readonly width: number }[] = [
  { regex: /^([0-9a-f]{1,2})([:-])([0-9a-f]{1,2})\2([0-9a-f]{1,2})\2([0-9a-f]{1,2})\2([0-9a-f]{1,2})\2([0-9a-f]{1,2})$/i, width: 2 },
  { regex: /^([0-9a-f]{1,4})([:.-])([0-9a-f]{1,4})\2([0-9a-f]{1,4})$/i, width: 4 },
  { regex: /^([0-9a-f]{5,6})([:-])([0-9a-f]{5,6})$/i, width: 6 },
  { regex: /^([0-9a-f]{12})$/i, width: 12 },
];

/** A MAC address in NetBox's form (`AA:BB:CC:DD:EE:FF`, netaddr's unix-expanded-uppercase), or null. */
export function normalMacAddress(text: string): string | null {
  // NetBox drops spaces before parsing (`MACAddressField.to_python`).
  const compact = text.replace(/ /g, "");
  for (const { regex, width } of MAC_SPELLINGS) {
    const m = regex.exec(compact);
    if (!m) continue;
    const groups = m.slice(1).filter((g) => !/^[:.-]$/.test(g));
    const hex = groups
      .map((g) => g.padStart(width, "0"))
      .join("")
      .toUpperCase();
    return hex.match(/../g)!.join(":");
  }
  return null;
}

/** NetBox's refusal names the value as it parsed it, spaces dropped. */
export const macAddressProblem = (text: string) =>
  normalMacAddress(text) ? undefined : `Invalid MAC address format: ${text.replace(/ /g, "")}`;

/**
 * An interface's MAC fields, NetBox 4.2's: `mac_address` (its primary MAC object's address, read
 * only), `primary_mac_address` and `mac_addresses` (every MAC object assigned to it; the MAC table
 * is its own link table).
 */
export function interfaceMacFields(): Record<string, FieldOptions> {
  return {
    mac_address: f.computed(
      (t) => sql`(SELECT m.mac_address FROM dcim_macaddress m WHERE m.id = ${sql.ref(`${t}.primary_mac_address_id`)})`,
      { label: "MAC address", returns: "string" },
    ),
    primary_mac_address: f.fk("dcim.macaddress", { nullable: true, onDelete: "setNull", label: "Primary MAC address" }),
    mac_addresses: f.m2m(
      "dcim.macaddress",
      { table: "dcim_macaddress", source: "assigned_object_id", target: "id", objectTypeColumn: "assigned_object_type" },
      { readOnly: true, label: "MAC addresses" },
    ),
  };
}

/**
 * NetBox's `mac_address` filter of objects with MAC addresses (interfaces, devices, virtual
 * machines): the addresses `valuesOf` selects for a row, with the text lookups, an exact value
 * in any spelling.
 */
export const macAddressesFilter = (valuesOf: RowSql): FilterDeclaration => ({
  valuesOf,
  lookups: "text",
  many: true,
  normal: (v) => normalMacAddress(v) ?? v,
});

/** The MAC addresses assigned to the interface of `type` under `t`, as `value`. */
export const interfaceMacsSql = (type: string, t: string) =>
  sql`SELECT m.mac_address AS value FROM dcim_macaddress m WHERE m.assigned_object_type = ${type} AND m.assigned_object_id = ${sql.ref(`${t}.id`)}`;

/** Interfaces of `type` by any MAC address assigned to them, and by their primary one. */
export function interfaceMacFilters(type: string): Record<string, FilterDeclaration> {
  return {
    primary_mac_address: "primary_mac_address__mac_address",
    mac_address: macAddressesFilter((t) => interfaceMacsSql(type, t)),
  };
}

/** An interface's primary MAC address must be one assigned to it (NetBox's rule); `self` is the interface model. */
export const primaryMacHooks = (self: () => Model): ModelHooks => ({
  writeProbes: (ctx, items) => relatedRowsProbe(ctx, self(), checkable(items), { name: "primary_mac_address" }),
  prepareWrite: (_ctx, items) => {
    for (const item of checkable(items)) {
      const mac = item.probed.primary_mac_address;
      if (mac && (mac.assigned_object_type !== self().objectType || Number(mac.assigned_object_id) !== item.id))
        item.errors.primary_mac_address = [`MAC address ${mac.mac_address} is not assigned to this interface.`];
    }
  },
});

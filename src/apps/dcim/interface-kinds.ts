import { sql, type RawBuilder } from "kysely";

/**
 * NetBox's kinds of interface, by type: virtual (its VIRTUAL_IFACE_TYPES: no cable, the ends of
 * virtual circuits), wireless (its WIRELESS_IFACE_TYPES: radios, the ends of wireless links, no
 * cable) and physical (the rest). One list serves the `kind` filter, cables, wireless links and
 * virtual circuits.
 */
export const VIRTUAL_INTERFACE_TYPES: readonly string[] = ["virtual", "bridge", "lag"];
/** Radios: IEEE 802.11 and 802.15 types, and `other-wireless`. */
const WIRELESS_TYPE = /^(other-wireless|ieee802\.1[15].*)$/;

export const isVirtualInterfaceType = (type: string): boolean => VIRTUAL_INTERFACE_TYPES.includes(type);
export const isWirelessInterfaceType = (type: string): boolean => WIRELESS_TYPE.test(type);

/** The same kinds as SQL conditions on a type column, for the `kind` filter. */
const virtualSql = (type: RawBuilder<unknown>) => sql`${type} IN (${sql.join(VIRTUAL_INTERFACE_TYPES)})`;
const wirelessSql = (type: RawBuilder<unknown>) =>
  sql`(${type} = 'other-wireless' OR ${type} LIKE 'ieee802.11%' OR ${type} LIKE 'ieee802.15%')`;
export const INTERFACE_KIND_SQL: Readonly<Record<string, (type: RawBuilder<unknown>) => RawBuilder<unknown>>> = {
  virtual: virtualSql,
  wireless: wirelessSql,
  physical: (type) => sql`NOT (${virtualSql(type)} OR ${wirelessSql(type)})`,
};

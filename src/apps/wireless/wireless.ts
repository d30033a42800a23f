import type { Choice, Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import type { Row } from "../../db/database.ts";
import type { StatefulHooks, WriteItem } from "../../schema/hooks.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { qb } from "../../db/query-builder.ts";
import { refSql } from "../../engine/references.ts";
import { CABLE_STATUS } from "../dcim/cables.ts";
import { INTERFACE_TYPE } from "../dcim/choices.ts";
import { isWirelessInterfaceType } from "../dcim/interface-kinds.ts";
import { DISTANCE_UNIT } from "../circuits/circuits.ts";
import { scopePlaceFilters } from "../virtualization/cluster-scope.ts";

/** A wireless LAN's status (NetBox WirelessLANStatusChoices). */
export const WIRELESS_LAN_STATUS: readonly Choice[] = [
  { value: "active", label: "Active" },
  { value: "reserved", label: "Reserved" },
  { value: "disabled", label: "Disabled" },
  { value: "deprecated", label: "Deprecated" },
];

/** How a wireless network authenticates (NetBox WirelessAuthTypeChoices). */
export const WIRELESS_AUTH_TYPE: readonly Choice[] = [
  { value: "open", label: "Open" },
  { value: "wep", label: "WEP" },
  { value: "wpa-personal", label: "WPA Personal (PSK)" },
  { value: "wpa-enterprise", label: "WPA Enterprise" },
];

/** Its cipher (NetBox WirelessAuthCipherChoices). */
export const WIRELESS_AUTH_CIPHER: readonly Choice[] = [
  { value: "auto", label: "Auto" },
  { value: "tkip", label: "TKIP" },
  { value: "aes", label: "AES" },
];

const SSID_MAX_LENGTH = 32;

/** The authentication attributes wireless LANs and links share (NetBox's WirelessAuthenticationBase). */
const authentication = () => ({
  auth_type: f.choice(WIRELESS_AUTH_TYPE, { nullable: true, label: "Authentication type" }),
  auth_cipher: f.choice(WIRELESS_AUTH_CIPHER, { nullable: true, label: "Authentication cipher" }),
  auth_psk: f.string({ maxLength: 64, blank: true, label: "Pre-shared key" }),
});

export const wirelessLanGroup = defineModel({
  app: "wireless",
  name: "wirelesslangroup",
  verboseName: "wireless LAN group",
  className: "WirelessLANGroup",
  path: "wireless-lan-groups",
  tree: true,
  fields: {
    // Unique everywhere (so also among siblings, NetBox's other constraint on the group).
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    parent: f.fk("wireless.wirelesslangroup", { nullable: true, onDelete: "cascade", nestedDisplayUrl: true }),
    description,
    wirelesslan_count: f.count("wireless.wirelesslan", "group", { cumulative: true }),
  },
  brief: ["name", "slug", "description", "wirelesslan_count", "_depth"],
});

export const wirelessLan = defineModel({
  app: "wireless",
  name: "wirelesslan",
  verboseName: "wireless LAN",
  className: "WirelessLAN",
  path: "wireless-lans",
  fields: {
    ssid: f.string({ maxLength: SSID_MAX_LENGTH, label: "SSID" }),
    description,
    group: f.fk("wireless.wirelesslangroup", { nullable: true, onDelete: "setNull" }),
    status: f.choice(WIRELESS_LAN_STATUS, { default: "active" }),
    vlan: f.fk("ipam.vlan", { nullable: true, onDelete: "protect", label: "VLAN" }),
    // NetBox 4.2: a wireless LAN is scoped to a region, site group, site or location.
    scope: f.generic(["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"], { nullable: true }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    ...authentication(),
    comments,
  },
  brief: ["ssid", "description"],
  display: "ssid",
  naturalKey: "ssid",
  search: ["ssid", "description"],
  ordering: ["ssid"],
  filters: {
    ...scopePlaceFilters("region", "region"),
    ...scopePlaceFilters("site_group", "sitegroup"),
    ...scopePlaceFilters("site", "site"),
    ...scopePlaceFilters("location", "location"),
    interface_id: {
      target: "dcim.interface",
      byId: true,
      related: (t) => sql`SELECT interface_id AS id FROM dcim_interface_wireless_lans WHERE wirelesslan_id = ${sql.ref(`${t}.id`)}`,
    },
  },
});

/** The interfaces a write's links name, with their types, by id. */
type LinkedInterfaces = Map<number, Row>;

const ENDS = ["interface_a", "interface_b"] as const;
const typeLabel = (value: unknown) => INTERFACE_TYPE.find((c) => c.value === value)?.label ?? String(value);

/** The interface ids (or references) the items name, for the probe. */
function namedInterfaces(ctx: Actor, target: Model, items: readonly WriteItem[]) {
  return items.flatMap(({ values }) =>
    ENDS.map((end) => values[end])
      .filter((given) => given !== undefined && given !== null)
      .map((given) => refSql(ctx, target, isRef(given) ? given : (given as number))),
  );
}

/**
 * A wireless link joins two radios (NetBox's WirelessLink.clean()): one probe reads the type of
 * every interface the write names; each end of another type is refused under its field (an end
 * kept as it was passed when it was written).
 */
const wirelessLinkHooks = (self: () => Model): StatefulHooks<LinkedInterfaces> => ({
  initial: () => new Map(),
  writeProbes: (ctx, items, seen) => {
    const target = self().registry.get("dcim.interface");
    const refs = namedInterfaces(ctx, target, items);
    if (!refs.length) return [];
    return [
      {
        statement: sql`SELECT id, type FROM dcim_interface WHERE id IN (${sql.join(refs)})`.compile(qb),
        settle: (r) => r.rows.forEach((row) => seen.set(Number(row.id), row)),
      },
    ];
  },
  prepareWrite: (_ctx, items, seen) => {
    for (const { values, errors } of items) {
      for (const end of ENDS) {
        if (errors[end]) continue;
        const id = values[end];
        const row = id == null ? undefined : seen.get(Number(id));
        if (row && !isWirelessInterfaceType(String(row.type))) errors[end] = [`${typeLabel(row.type)} is not a wireless interface.`];
      }
    }
  },
});

export const wirelessLink = defineModel({
  app: "wireless",
  name: "wirelesslink",
  verboseName: "wireless link",
  path: "wireless-links",
  fields: {
    // NetBox protects a link's interfaces but deletes the link with either end's device (through
    // the devices it caches on the link). The engine checks protection on the rows a delete names,
    // not on those it removes by cascade, so here a link goes with either of its interfaces: a
    // device's delete then takes its links as NetBox's does, and deleting a radio alone does too
    // (NetBox answers 409 there).
    interface_a: f.fk("dcim.interface", { onDelete: "cascade", label: "Interface A" }),
    interface_b: f.fk("dcim.interface", { onDelete: "cascade", label: "Interface B" }),
    ssid: f.string({ maxLength: SSID_MAX_LENGTH, blank: true, label: "SSID" }),
    status: f.choice(CABLE_STATUS, { default: "connected" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    ...authentication(),
    // NetBox stores a decimal of 8 digits and 2 places: strictly within a million either way.
    distance: f.float({ nullable: true, min: -999_999.99, max: 999_999.99 }),
    distance_unit: f.choice(DISTANCE_UNIT, { nullable: true }),
    // An interface nests its link as NetBox's NestedWirelessLinkSerializer: without the description.
    description: { ...description, notNested: true },
    comments,
  },
  uniqueTogether: [
    { fields: ["interface_a", "interface_b"], message: "Wireless link with this Interface A and Interface B already exists." },
  ],
  brief: ["ssid", "description"],
  // `str()` of a link: its SSID, or `#<id>` without one.
  display: (t) => sql`CASE WHEN ${sql.ref(`${t}.ssid`)} <> '' THEN ${sql.ref(`${t}.ssid`)} ELSE '#' || ${sql.ref(`${t}.id`)} END`,
  naturalKey: "ssid",
  search: ["ssid", "description"],
  hooks: wirelessLinkHooks(() => wirelessLink),
});

export const wirelessModels = [wirelessLanGroup, wirelessLan, wirelessLink];

import type { FieldOptions, FilterDeclaration, Model } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import type { Row } from "../../db/database.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { numberSet, whether } from "../../schema/filter-sql.ts";
import type { Probe, StatefulHooks, Values } from "../../schema/hooks.ts";
import { isRef, type Ref } from "../../schema/kinds/descriptor.ts";
import { refSql } from "../../engine/references.ts";
import { hasPrimaryIp, primaryIpHooks, VDC_INTERFACES } from "../ipam/primary-ips.ts";

/** NetBox's VirtualDeviceContextStatusChoices. */
export const VDC_STATUS = [
  { value: "active", label: "Active" },
  { value: "planned", label: "Planned" },
  { value: "offline", label: "Offline" },
] as const;

/** Where interfaces keep their virtual device contexts. */
const INTERFACE_VDCS = { table: "dcim_interface_vdcs", source: "interface_id", target: "virtualdevicecontext_id" } as const;

/**
 * A virtual device context (NetBox 4.2): a partition of one device (a Nexus VDC, a Juniper
 * logical system), with an identifier and a name unique on that device and primary addresses on
 * the device's own interfaces.
 */
export const virtualDeviceContext = defineModel({
  app: "dcim",
  name: "virtualdevicecontext",
  verboseName: "virtual device context",
  fields: {
    name: f.string({ maxLength: 64 }),
    // NetBox protects a device with contexts from deletion.
    device: f.fk("dcim.device", { onDelete: "protect" }),
    identifier: f.integer({ nullable: true, min: 0, max: 32767, helpText: "Numeric identifier unique to the parent device" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    primary_ip4: f.fk("ipam.ipaddress", { nullable: true, onDelete: "setNull", label: "Primary IPv4" }),
    primary_ip6: f.fk("ipam.ipaddress", { nullable: true, onDelete: "setNull", label: "Primary IPv6" }),
    status: f.choice(VDC_STATUS),
    description,
    comments,
    interface_count: f.countRows(INTERFACE_VDCS.table, INTERFACE_VDCS.target),
  },
  uniqueTogether: [
    {
      fields: ["device", "identifier"],
      nullsDistinct: ["identifier"],
      message: "Virtual device context with this Device and Identifier already exists.",
    },
    { fields: ["device", "name"], message: "Virtual device context with this Device and Name already exists." },
  ],
  brief: ["name", "identifier", "device", "description"],
  search: ["name", "description", "comments"],
  ordering: ["name"],
  filters: {
    has_primary_ip: hasPrimaryIp,
    interface_id: {
      integer: true,
      negatable: true,
      sql: (values, t) =>
        sql`${sql.ref(`${t}.id`)} IN (SELECT virtualdevicecontext_id FROM dcim_interface_vdcs WHERE interface_id IN ${numberSet(values)})`,
    },
  },
  hooks: primaryIpHooks(VDC_INTERFACES),
});

/** An interface's virtual device contexts (ids on write, nested on read), as NetBox 4.2's `vdcs`. */
export function interfaceVdcFields(): Record<string, FieldOptions> {
  return { vdcs: f.m2m("dcim.virtualdevicecontext", INTERFACE_VDCS, { filterName: "vdc", label: "Virtual device contexts" }) };
}

/** Interfaces by their contexts: `vdc` (name) and `vdc_id` come with the field; `vdc_identifier` here. */
export const interfaceVdcFilters: Readonly<Record<string, FilterDeclaration>> = { vdc_identifier: "vdcs__identifier" };

/** Devices with or without contexts (NetBox's `has_virtual_device_context`). */
export const deviceVdcFilters: Readonly<Record<string, FilterDeclaration>> = {
  has_virtual_device_context: whether(
    (t) => sql`EXISTS (SELECT 1 FROM dcim_virtualdevicecontext v WHERE v.device_id = ${sql.ref(`${t}.id`)})`,
  ),
};

/** What the probe found per interface written: its contexts' rows, and the interface's device. */
type Found = Map<Values, { vdcs: Row[]; device: unknown }>;

/**
 * An interface's contexts must be its own device's (NetBox offers only those): each one named
 * on another device is refused under `vdcs`, naming it.
 */
export const interfaceVdcHooks = (self: () => Model): StatefulHooks<Found> => ({
  initial: () => new Map(),
  writeProbes: (ctx, items, found) => {
    const model = self();
    const deviceModel = model.registry.get("dcim.device");
    return items.flatMap((item): Probe[] => {
      const given = (item.values.vdcs as unknown[] | undefined) ?? [];
      const ids = given.flatMap((v) => (isRef(v) && v.ref === "id" ? [v.id] : typeof v === "number" ? [v] : []));
      if (!ids.length) return [];
      const device = item.values.device;
      const owner =
        device === undefined
          ? sql`(SELECT device_id FROM dcim_interface WHERE id = ${item.id})`
          : refSql(ctx, deviceModel, isRef(device) ? (device as Ref) : (device as number));
      return [
        {
          statement: sql`SELECT v.id, v.name, v.device_id, ${owner} AS owner,
            (SELECT d.name FROM dcim_device d WHERE d.id = ${owner}) AS owner_name
            FROM dcim_virtualdevicecontext v WHERE v.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`.compile(qb),
          settle: (r) => found.set(item.values, { vdcs: r.rows, device: r.rows[0]?.owner }),
        },
      ];
    });
  },
  prepareWrite: (_ctx, items, found) => {
    for (const item of items) {
      const seen = found.get(item.values);
      if (!seen) continue;
      for (const row of seen.vdcs) {
        if (seen.device === null || Number(row.device_id) !== Number(seen.device)) {
          const messages = (item.errors.vdcs ??= []) as string[];
          messages.push(`Virtual device context ${row.name} does not belong to the interface's device (${row.owner_name ?? "none"}).`);
        }
      }
    }
  },
});

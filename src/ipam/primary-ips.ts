import { sql } from "kysely";
import { qb } from "../db/query-builder.ts";
import type { Row } from "../db/database.ts";
import type { ModelHooks, WriteItem } from "../models/hooks.ts";
import { isRef } from "../models/kinds.ts";

/** A device's (or, once they land, a VM's) primary and out-of-band addresses, with the family each needs. */
export const PRIMARY_FIELDS = [["primary_ip4", 4], ["primary_ip6", 6], ["oob_ip", null]] as const;

const add = (item: WriteItem, key: string, message: string) => void ((item.errors[key] ??= []) as string[]).push(message);

/** The addresses a probe found, by id: address, family, and the device of the interface they are on. */
const found = new WeakMap<object, Map<number, Row>>();

/**
 * NetBox's rule: a primary or out-of-band IP must be assigned to an interface of the device itself,
 * and a primary IPv4/IPv6 must be of that family.
 */
export const primaryIpHooks: ModelHooks = {
  writeProbes: (_ctx, items) =>
    items.flatMap((item) => {
      const ids = PRIMARY_FIELDS.flatMap(([name]) => {
        const v = item.values[name];
        return isRef(v) && v.ref === "id" ? [v.id] : [];
      });
      if (!ids.length) return [];
      return [{
        statement: sql`SELECT ip.id, ip.address, ip.family, i.device_id FROM ipam_ipaddress ip
          LEFT JOIN dcim_interface i ON ip.assigned_object_type = 'dcim.interface' AND i.id = ip.assigned_object_id
          WHERE ip.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`.compile(qb),
        settle: (r) => found.set(item.values, new Map(r.rows.map((row) => [Number(row.id), row]))),
      }];
    }),
  prepareWrite: (_ctx, items) => {
    for (const item of items) {
      const rows = found.get(item.values);
      for (const [name, family] of PRIMARY_FIELDS) {
        const id = item.values[name];
        if (typeof id !== "number" || !rows?.has(id)) continue;
        const ip = rows.get(id)!;
        if (family !== null && Number(ip.family) !== family) add(item, name, `${ip.address} is not an IPv${family} address.`);
        else if (item.current === null || Number(ip.device_id) !== Number(item.current.id)) {
          add(item, name, `The specified IP address (${ip.address}) is not assigned to this device.`);
        }
      }
    }
  },
  // NetBox's read-only `primary_ip`: the IPv6 one when set, else the IPv4 one (PREFER_IPV4 off).
  represent: (_ctx, _rows, outs) => {
    for (const out of outs) if ("primary_ip4" in out) out.primary_ip = out.primary_ip6 ?? out.primary_ip4 ?? null;
  },
};

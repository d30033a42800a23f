import type { FieldOptions, FilterDeclaration } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { choiceLabelSql, comments, description } from "../../schema/common.ts";
import { FHRP_AUTH_TYPE, FHRP_PROTOCOL, SERVICE_PROTOCOL } from "./choices.ts";
import type { WriteItem } from "../../schema/hooks.ts";
import type { GenericRef } from "../../schema/kinds/descriptor.ts";
import { interfaceOwnerFilters } from "../dcim/interface-owners.ts";
import { numberSet } from "../../schema/filter-sql.ts";

/** A list of whole numbers (at least one), as NetBox's ArrayField of ports; their range is `portRanges`' to check. */
function portsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return "Enter a list of port numbers.";
  const bad = value.find((p) => !Number.isInteger(p));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not a valid port number (1-65535).`;
}

/** Ports out of 1-65535, under the index of each, as NetBox gives a list field's errors. */
function portRanges(_ctx: unknown, items: readonly WriteItem[]): void {
  for (const item of items) {
    const ports = item.values.ports;
    if (!Array.isArray(ports) || item.errors.ports) continue;
    const bad = ports.flatMap((p: number, i) =>
      p < 1
        ? [[String(i), ["Ensure this value is greater than or equal to 1."]]]
        : p > 65535
          ? [[String(i), ["Ensure this value is less than or equal to 65535."]]]
          : [],
    );
    if (bad.length) item.errors.ports = Object.fromEntries(bad);
  }
}

const ports = (): FieldOptions => f.json({ required: true, checkJson: portsProblem, label: "Port numbers" });

/** `ssh (TCP/22)`, as NetBox shows a service. */
const serviceDisplay = (t: string) => sql`${sql.ref(`${t}.name`)} || ' (' || upper(${sql.ref(`${t}.protocol`)}) || '/' ||
  (SELECT group_concat(p.value, ', ') FROM json_each(${sql.ref(`${t}.ports`)}) p) || ')'`;

/** A service (or template) listening on any of the ports given. */
const portFilter: FilterDeclaration = {
  integer: true,
  sql: (values, t) => sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${t}.ports`)}) p
    WHERE p.value IN ${numberSet(values)})`,
};

export const serviceTemplate = defineModel({
  app: "ipam",
  name: "servicetemplate",
  verboseName: "service template",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    protocol: f.choice(SERVICE_PROTOCOL),
    ports: ports(),
    description,
    comments,
  },
  brief: ["name", "protocol", "ports", "description"],
  display: serviceDisplay,
  search: ["name", "description", "comments"],
  filters: { port: portFilter },
  hooks: { prepareWrite: portRanges },
});

/** A service on a device or a virtual machine (one of the two, as NetBox requires). */
export const service = defineModel({
  app: "ipam",
  name: "service",
  fields: {
    device: f.fk("dcim.device", { nullable: true, onDelete: "cascade" }),
    virtual_machine: f.fk("virtualization.virtualmachine", { nullable: true, onDelete: "cascade" }),
    name: f.string({ maxLength: 100 }),
    protocol: f.choice(SERVICE_PROTOCOL),
    ports: ports(),
    ipaddresses: f.m2m(
      "ipam.ipaddress",
      { table: "ipam_service_ipaddresses", source: "service_id", target: "ipaddress_id" },
      { filterName: "ip_address", label: "IP addresses" },
    ),
    description,
    comments,
  },
  brief: ["name", "protocol", "ports", "description"],
  display: serviceDisplay,
  search: ["name", "description", "comments"],
  ordering: ["protocol", "name"],
  filters: { port: portFilter },
  hooks: {
    prepareWrite: (ctx, items) => {
      portRanges(ctx, items);
      oneParent(ctx, items);
    },
  },
});

/** A service belongs to a device or to a virtual machine: exactly one (NetBox's rule, under `__all__`). */
function oneParent(_ctx: unknown, items: readonly WriteItem[]): void {
  for (const item of items) {
    const now = (name: "device" | "virtual_machine") =>
      item.values[name] !== undefined ? item.values[name] !== null : item.current?.[`${name}_id`] != null;
    const device = now("device");
    const vm = now("virtual_machine");
    if (device && vm) item.errors.__all__ = ["A service cannot be associated with both a device and a virtual machine."];
    else if (!device && !vm) item.errors.__all__ = ["A service must be associated with either a device or a virtual machine."];
  }
}

const protocolLabel = (t: string) => choiceLabelSql(FHRP_PROTOCOL, sql.ref(`${t}.protocol`));

/** The addresses assigned to a group (its virtual IPs), as nested objects (URLs added on output). */
const groupAddresses = (
  t: string,
) => sql`(SELECT json_group_array(json_object('id', a.id, 'address', a.address, 'family', a.family, 'description', a.description))
  FROM ipam_ipaddress a WHERE a.assigned_object_type = 'ipam.fhrpgroup' AND a.assigned_object_id = ${sql.ref(`${t}.id`)})`;

/** A group as NetBox names it: `<name> <protocol>: <group id>`, the name left out when blank. */
const groupDisplay = (t: string) =>
  sql`ltrim(${sql.ref(`${t}.name`)} || ' ' || ${protocolLabel(t)} || ': ' || ${sql.ref(`${t}.group_id`)})`;

/** The hex digit at 1-based `at` of a network key (`src/lib/network.ts`: the family, then 32 hex digits), as a number. */
const nibble = (key: RawBuilder<unknown>, at: RawBuilder<unknown>) => sql`(instr('0123456789abcdef', substr(${key}, ${at}, 1)) - 1)`;

/**
 * NetBox's `related_ip`: groups holding an address in the network of one of the addresses given
 * (by id), in the same VRF. The network is the given address's with its mask: the keys' first
 * `bits` bits agree (whole hex digits, then the leading bits of the next one).
 */
function relatedIpSql(ids: RawBuilder<unknown>, t: string) {
  const bits = sql`(x.address_length + CASE x.family WHEN 4 THEN 96 ELSE 0 END)`;
  const digits = sql`(${bits} / 4)`;
  const rest = sql`(${bits} % 4)`;
  const next = sql`(2 + ${digits})`;
  return sql`EXISTS (SELECT 1 FROM ipam_ipaddress x JOIN ipam_ipaddress a ON a.family = x.family AND a.vrf_id IS x.vrf_id
    WHERE x.id IN ${ids} AND a.assigned_object_type = 'ipam.fhrpgroup' AND a.assigned_object_id = ${sql.ref(`${t}.id`)}
      AND substr(a.address_start, 2, ${digits}) = substr(x.address_start, 2, ${digits})
      AND (${rest} = 0 OR (${nibble(sql`a.address_start`, next)} >> (4 - ${rest})) = (${nibble(sql`x.address_start`, next)} >> (4 - ${rest}))))`;
}

export const fhrpGroup = defineModel({
  app: "ipam",
  name: "fhrpgroup",
  verboseName: "FHRP group",
  className: "FHRPGroup",
  fields: {
    name: f.string({ maxLength: 100, blank: true }),
    // NetBox gives both as plain values, not {value, label}.
    protocol: f.choice(FHRP_PROTOCOL, { bare: true }),
    group_id: f.integer({ required: true, min: 0, max: 32767, label: "Group ID" }),
    auth_type: f.choice(FHRP_AUTH_TYPE, { nullable: true, bare: true, label: "Authentication type" }),
    auth_key: f.string({ maxLength: 255, blank: true, label: "Authentication key" }),
    description,
    comments,
    ip_addresses: f.computed(groupAddresses, { returns: "json", label: "IP addresses" }),
  },
  brief: ["protocol", "group_id", "description"],
  display: (t) => groupDisplay(t),
  search: ["name", "description", "comments"],
  ordering: ["protocol", "group_id"],
  filters: { related_ip: { integer: true, sql: (values, t) => relatedIpSql(numberSet(values), t) } },
  hooks: {
    represent: (ctx, _rows, outs) => {
      for (const out of outs) {
        if (!Array.isArray(out.ip_addresses)) continue;
        out.ip_addresses = (out.ip_addresses as Record<string, unknown>[]).map((a) => nestedAddress(ctx.origin, a));
      }
    },
  },
});

/** An address read by a computed field, in its nested form. */
export const nestedAddress = (origin: string, a: Record<string, unknown>) => ({
  id: a.id,
  url: `${origin}/api/ipam/ip-addresses/${a.id}/`,
  display: a.address,
  family: a.family,
  address: a.address,
  ...(a.description === undefined ? {} : { description: a.description }),
});

/**
 * An interface's membership of an FHRP group. VM interfaces join `interface`'s targets (one line)
 * when the virtualization models land.
 */
export const fhrpGroupAssignment = defineModel({
  app: "ipam",
  name: "fhrpgroupassignment",
  pageless: true,
  verboseName: "FHRP group assignment",
  className: "FHRPGroupAssignment",
  taggable: false,
  fields: {
    group: f.fk("ipam.fhrpgroup", { onDelete: "cascade" }),
    // Required on create (checked by the hook, which names `interface_type` and `interface_id`).
    interface: f.generic(["dcim.interface", "virtualization.vminterface"], { required: false }),
    priority: f.integer({ required: true, min: 0, max: 255 }),
  },
  // NetBox's brief form also lists the interface's type and id; a generic relation's keys come as
  // a set of three, so the brief form here keeps the group and priority.
  brief: ["group", "priority"],
  // `<interface>: <group> (<priority>)`, as NetBox writes it.
  display: (t) => {
    const [type, id] = [sql.ref(`${t}.interface_type`), sql.ref(`${t}.interface_id`)];
    const iface = sql`coalesce(CASE ${type} WHEN 'dcim.interface' THEN (SELECT i.name FROM dcim_interface i WHERE i.id = ${id})
      WHEN 'virtualization.vminterface' THEN (SELECT i.name FROM virtualization_vminterface i WHERE i.id = ${id}) END, '')`;
    return sql`${iface} || ': ' || (SELECT ${groupDisplay("g")} FROM ipam_fhrpgroup g WHERE g.id = ${sql.ref(`${t}.group_id`)})
      || ' (' || ${sql.ref(`${t}.priority`)} || ')'`;
  },
  search: [],
  ordering: ["priority"],
  // `interface_id` is the relation's own column, compared as a number (`__gte`, ...), as NetBox's is.
  filters: (({ interface_id: _, ...owners }) => owners)(interfaceOwnerFilters("interface_type", "interface_id")),
  hooks: { prepareWrite: fhrpAssignmentUnique },
});

/** One assignment per interface and group (NetBox's unique constraint), checked among the request's items too. */
function fhrpAssignmentUnique(_ctx: unknown, items: readonly WriteItem[]): void {
  const seen = new Set<string>();
  for (const item of items) {
    const g = item.values.interface as GenericRef | undefined;
    if (!item.current && !g) {
      item.errors.interface_type = ["This field is required."];
      item.errors.interface_id = ["This field is required."];
      continue;
    }
    const group = item.values.group ?? item.current?.group_id;
    const key = `${g?.type ?? item.current?.interface_type}:${g?.id ?? item.current?.interface_id}:${group}`;
    if (seen.has(key)) item.errors.__all__ = ["FHRP group assignment with this Interface type, Interface ID and Group already exists."];
    seen.add(key);
  }
}

export const serviceModels = [serviceTemplate, service, fhrpGroup, fhrpGroupAssignment];

import type { RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description, tenantGroupFilters } from "../../schema/common.ts";
import { alreadyAttached } from "./attached.ts";
import { TUNNEL_ENCAPSULATION, TUNNEL_STATUS, TUNNEL_TERMINATION_ROLE } from "./choices.ts";

/** NetBox's `PositiveBigIntegerField` (64-bit), as far as a JSON number read by JavaScript stays exact. */
const BIG = Number.MAX_SAFE_INTEGER;

export const tunnelGroup = defineModel({
  app: "vpn",
  name: "tunnelgroup",
  verboseName: "tunnel group",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    description,
    tunnel_count: f.count("vpn.tunnel", "group"),
  },
  brief: ["name", "slug", "description", "tunnel_count"],
});

export const tunnel = defineModel({
  app: "vpn",
  name: "tunnel",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    status: f.choice(TUNNEL_STATUS, { default: "active" }),
    group: f.fk("vpn.tunnelgroup", { nullable: true, onDelete: "protect" }),
    encapsulation: f.choice(TUNNEL_ENCAPSULATION),
    ipsec_profile: f.fk("vpn.ipsecprofile", { nullable: true, onDelete: "protect", label: "IPSec profile" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    tunnel_id: f.integer({ nullable: true, min: 0, max: BIG, label: "Tunnel ID" }),
    description,
    comments,
    terminations_count: f.count("vpn.tunneltermination", "tunnel"),
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
  filters: tenantGroupFilters(),
});

/** `interface` and `interface_id` (or `vminterface`...): terminations on interfaces of that type, by name or id. */
function terminatingOn(name: string, objectType: string): Record<string, RelatedFilter> {
  const related = (t: string) =>
    sql`SELECT ${sql.ref(`${t}.termination_id`)} AS id WHERE ${sql.ref(`${t}.termination_type`)} = ${objectType}`;
  return { [name]: { target: objectType, related }, [`${name}_id`]: { target: objectType, byId: true, related } };
}

export const tunnelTermination = defineModel({
  app: "vpn",
  name: "tunneltermination",
  verboseName: "tunnel termination",
  fields: {
    tunnel: f.fk("vpn.tunnel", { onDelete: "cascade" }),
    role: f.choice(TUNNEL_TERMINATION_ROLE, { default: "peer" }),
    // Deleting the interface deletes its termination, as NetBox's GenericRelation on interfaces does.
    termination: f.generic(["dcim.interface", "virtualization.vminterface"]),
    // Several terminations may share one outside address (NetBox 3.7.1 relaxed the one-to-one).
    outside_ip: f.fk("ipam.ipaddress", { nullable: true, onDelete: "protect", label: "Outside IP" }),
  },
  uniqueTogether: [{ fields: ["termination"], message: "An object may be terminated to only one tunnel at a time." }],
  brief: [],
  display: (t) =>
    sql`(SELECT x.name FROM vpn_tunnel x WHERE x.id = ${sql.ref(`${t}.tunnel_id`)}) || ': Termination ' || ${sql.ref(`${t}.id`)}`,
  search: [],
  ordering: ["tunnel", "role", "id"],
  filters: {
    ...terminatingOn("interface", "dcim.interface"),
    ...terminatingOn("vminterface", "virtualization.vminterface"),
  },
  hooks: alreadyAttached({
    table: "vpn_tunneltermination",
    field: "termination",
    // The interface's name and the tunnel's, for "eth0 is already attached to a tunnel (FRA-NYC)."
    names: (t) => sql`json_array(CASE ${sql.ref(`${t}.termination_type`)}
      WHEN 'dcim.interface' THEN (SELECT i.name FROM dcim_interface i WHERE i.id = ${sql.ref(`${t}.termination_id`)})
      WHEN 'virtualization.vminterface' THEN (SELECT i.name FROM virtualization_vminterface i WHERE i.id = ${sql.ref(`${t}.termination_id`)}) END,
      (SELECT x.name FROM vpn_tunnel x WHERE x.id = ${sql.ref(`${t}.tunnel_id`)}))`,
    refuse: ({ errors }, holder) => {
      const [name, tunnel] = JSON.parse(String(holder.label)) as [string, string];
      // NetBox's clean() speaks before its constraint: the field's error leads.
      const constraint = errors.__all__;
      delete errors.__all__;
      errors.termination = [`${name} is already attached to a tunnel (${tunnel}).`];
      if (constraint) errors.__all__ = constraint;
    },
  }),
});

export const tunnelModels = [tunnelGroup, tunnel, tunnelTermination];

import type { Choice, Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import type { StatefulHooks, WriteItem } from "../../schema/hooks.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { choiceLabelSql, comments, description } from "../../schema/common.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { qb } from "../../db/query-builder.ts";
import { refSql } from "../../engine/references.ts";
import { pathsRoute } from "../dcim/trace.ts";
import { isVirtualInterfaceType } from "../dcim/interface-kinds.ts";
import { CIRCUIT_STATUS, circuitTypeFields } from "./circuits.ts";

/** A virtual circuit termination's role (NetBox VirtualCircuitTerminationRoleChoices). */
export const VIRTUAL_CIRCUIT_TERMINATION_ROLE: readonly Choice[] = [
  { value: "peer", label: "Peer" },
  { value: "hub", label: "Hub" },
  { value: "spoke", label: "Spoke" },
];

export const virtualCircuitType = defineModel({
  app: "circuits",
  name: "virtualcircuittype",
  verboseName: "virtual circuit type",
  fields: { ...circuitTypeFields(), virtual_circuit_count: f.count("circuits.virtualcircuit", "type") },
  brief: ["name", "slug", "description", "virtual_circuit_count"],
});

type Sql = RawBuilder<unknown>;

/**
 * The ids (or references) of `target` the items name in `field`, or, for an update leaving it
 * out, the id its stored row keeps (read in the same probe: the current rows come in its batch).
 */
function namedOrKept(ctx: Actor, self: Model, target: Model, items: readonly WriteItem[], field: string): Sql[] {
  const out: Sql[] = [];
  for (const { id, values } of items) {
    const given = values[field];
    if (given !== undefined && given !== null) out.push(refSql(ctx, target, isRef(given) ? given : (given as number)));
    else if (given === undefined && id !== null)
      out.push(sql`(SELECT ${sql.ref(`${field}_id`)} FROM ${sql.table(self.table)} WHERE id = ${id})`);
  }
  return out;
}

/** Providers of the accounts and networks a write names, by `account:<id>` and `network:<id>`. */
type Providers = Map<string, number>;

/**
 * A virtual circuit's account must be one of its network's provider's (NetBox's clean()). One
 * probe reads the provider of every account and network named or kept.
 */
function accountOfNetwork(self: () => Model): StatefulHooks<Providers> {
  return {
    initial: () => new Map(),
    writeProbes: (ctx, items, seen) => {
      const touched = items.filter((i) => i.values.provider_account !== undefined || i.values.provider_network !== undefined);
      const model = self();
      const accounts = namedOrKept(ctx, model, model.registry.get("circuits.provideraccount"), touched, "provider_account");
      const networks = namedOrKept(ctx, model, model.registry.get("circuits.providernetwork"), touched, "provider_network");
      if (!accounts.length || !networks.length) return [];
      return [
        {
          statement: sql`SELECT 'account:' || id AS k, provider_id FROM circuits_provideraccount WHERE id IN (${sql.join(accounts)})
            UNION ALL SELECT 'network:' || id, provider_id FROM circuits_providernetwork WHERE id IN (${sql.join(networks)})`.compile(qb),
          settle: (r) => r.rows.forEach((row) => seen.set(String(row.k), Number(row.provider_id))),
        },
      ];
    },
    prepareWrite: (_ctx, items, seen) => {
      for (const { values, current, errors } of items) {
        if (values.provider_account === undefined && values.provider_network === undefined) continue;
        const account = values.provider_account !== undefined ? values.provider_account : current?.provider_account_id;
        const network = values.provider_network !== undefined ? values.provider_network : current?.provider_network_id;
        if (account == null || network == null) continue;
        const [a, n] = [seen.get(`account:${account}`), seen.get(`network:${network}`)];
        if (a !== undefined && n !== undefined && a !== n)
          errors.provider_account ??= ["The assigned account must belong to the provider of the assigned network."];
      }
    },
  };
}

export const virtualCircuit = defineModel({
  app: "circuits",
  name: "virtualcircuit",
  verboseName: "virtual circuit",
  fields: {
    cid: f.string({ maxLength: 100, label: "Circuit ID", helpText: "Unique circuit ID" }),
    provider_network: f.fk("circuits.providernetwork", { onDelete: "protect" }),
    provider_account: f.fk("circuits.provideraccount", { nullable: true, onDelete: "protect" }),
    type: f.fk("circuits.virtualcircuittype", { onDelete: "protect" }),
    status: f.choice(CIRCUIT_STATUS, { default: "active" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    description,
    comments,
  },
  uniqueTogether: [
    { fields: ["provider_network", "cid"], message: "Virtual circuit with this Provider network and Circuit ID already exists." },
    {
      fields: ["provider_account", "cid"],
      nullsDistinct: ["provider_account"],
      message: "Virtual circuit with this Provider account and Circuit ID already exists.",
    },
  ],
  brief: ["provider_network", "cid", "description"],
  display: "cid",
  naturalKey: "cid",
  search: ["cid", "description", "comments"],
  ordering: ["provider_network", "provider_account", "cid"],
  filters: {
    provider: "provider_network__provider",
    provider_id: "provider_network__provider__id",
  },
  hooks: accountOfNetwork(() => virtualCircuit),
});

/** The interfaces a write's terminations name or keep, with their types, by id. */
type Interfaces = Map<number, string>;

/** A virtual circuit ends only at virtual interfaces (NetBox's VirtualCircuitTermination.clean()). */
function virtualInterfaceOnly(self: () => Model): StatefulHooks<Interfaces> {
  return {
    initial: () => new Map(),
    writeProbes: (ctx, items, seen) => {
      const model = self();
      const refs = namedOrKept(
        ctx,
        model,
        model.registry.get("dcim.interface"),
        items.filter((i) => i.values.interface !== undefined),
        "interface",
      );
      if (!refs.length) return [];
      return [
        {
          statement: sql`SELECT id, type FROM dcim_interface WHERE id IN (${sql.join(refs)})`.compile(qb),
          settle: (r) => r.rows.forEach((row) => seen.set(Number(row.id), String(row.type))),
        },
      ];
    },
    prepareWrite: (_ctx, items, seen) => {
      for (const { values, errors } of items) {
        const type = values.interface == null ? undefined : seen.get(Number(values.interface));
        if (type !== undefined && !isVirtualInterfaceType(type))
          errors.__all__ ??= ["Virtual circuits may be terminated only to virtual interfaces."];
      }
    },
  };
}

export const virtualCircuitTermination = defineModel({
  app: "circuits",
  name: "virtualcircuittermination",
  verboseName: "virtual circuit termination",
  fields: {
    virtual_circuit: f.fk("circuits.virtualcircuit", { onDelete: "cascade" }),
    role: f.choice(VIRTUAL_CIRCUIT_TERMINATION_ROLE, { default: "peer" }),
    // One termination per interface (NetBox's OneToOneField); deleting the interface deletes it.
    interface: f.fk("dcim.interface", { onDelete: "cascade", unique: true }),
    description,
  },
  brief: ["virtual_circuit", "role", "interface", "description"],
  // `str()`: "<cid>: <Role> termination".
  display: (t) => sql`(SELECT c.cid FROM circuits_virtualcircuit c WHERE c.id = ${sql.ref(`${t}.virtual_circuit_id`)})
    || ': ' || ${choiceLabelSql(VIRTUAL_CIRCUIT_TERMINATION_ROLE, sql.ref(`${t}.role`))} || ' termination'`,
  search: ["description"],
  ordering: ["virtual_circuit", "role"],
  routes: [pathsRoute],
  filters: {
    provider: "virtual_circuit__provider_network__provider",
    provider_id: "virtual_circuit__provider_network__provider__id",
    provider_account: "virtual_circuit__provider_account",
    provider_account_id: "virtual_circuit__provider_account__id",
    provider_network_id: "virtual_circuit__provider_network__id",
  },
  hooks: virtualInterfaceOnly(() => virtualCircuitTermination),
});

export const virtualCircuitModels = [virtualCircuitType, virtualCircuit, virtualCircuitTermination];

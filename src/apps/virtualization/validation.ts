import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import type { WriteItem, Probe } from "../../schema/hooks.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { clusterScopeSql } from "./cluster-scope.ts";
import { checkable, effective, relatedRowsProbe } from "../../engine/referenced-rows.ts";
import { idList } from "../../engine/select.ts";

/**
 * What NetBox's `clean()` checks across objects for virtual machines, their interfaces and the
 * devices clusters hold. Each runs as probes in a write's first round trip (one statement per
 * kind of row, whatever the number of items), and its errors come out as NetBox words them.
 */

/** The site and location a cluster's scope places it in, with their names, beside the cluster's row. */
const clusterScope = {
  __site_id: (r: string) => clusterScopeSql(r, "site"),
  __site_name: (r: string) => sql`(SELECT s.name FROM dcim_site s WHERE s.id = ${clusterScopeSql(r, "site")})`,
  __location_id: (r: string) => clusterScopeSql(r, "location"),
  __location_name: (r: string) => sql`(SELECT l.name FROM dcim_location l WHERE l.id = ${clusterScopeSql(r, "location")})`,
};

const fail = (item: WriteItem, field: string, message: string) => void (item.errors[field] = [message]);

const VM_FIELDS = ["site", "cluster", "device", "role", "disk"];

/**
 * A virtual machine: placed on a site, a cluster or both; the site matches the cluster's; a host
 * device belongs to the cluster; the role is one meant for VMs; a `disk` matches the total of its
 * virtual disks. A VM given a cluster but no site takes the cluster's site, as NetBox saves it.
 * Its probes read the related rows and the disks' total; `checkVirtualMachines` decides.
 */
function virtualMachineProbes(model: Model, ctx: Actor, items: readonly WriteItem[]): Probe[] {
  const device = model.registry.get("dcim.device");
  const todo = checkable(items);
  const touching = { touching: VM_FIELDS };
  const updating = todo.filter((i) => i.id !== null && VM_FIELDS.some((name) => i.values[name] !== undefined));
  return [
    ...relatedRowsProbe(ctx, model, todo, { name: "cluster", ...touching, extra: clusterScope }),
    ...relatedRowsProbe(ctx, model, todo, { name: "site", ...touching }),
    ...relatedRowsProbe(ctx, model, todo, { name: "device", ...touching, extra: { __display: (r) => device.displaySql(r) } }),
    ...relatedRowsProbe(ctx, model, todo, { name: "role", ...touching }),
    ...(updating.length
      ? [
          {
            statement: sql`SELECT virtual_machine_id AS id, sum(size) AS total FROM virtualization_virtualdisk
        WHERE virtual_machine_id IN ${idList(updating.map((i) => i.id!))} GROUP BY virtual_machine_id`.compile(qb),
            settle: (r) => {
              const totals = new Map(r.rows.map((row) => [Number(row.id), row]));
              for (const item of updating) if (totals.has(item.id!)) item.probed.disks = totals.get(item.id!)!;
            },
          } satisfies Probe,
        ]
      : []),
  ];
}

/** The rules of virtual machines; `self` is their model. */
export const virtualMachineHooks = (self: () => Model): ModelHooks => ({
  writeProbes: (ctx, items) => virtualMachineProbes(self(), ctx, items),
  prepareWrite: (_ctx, items) => checkVirtualMachines(self(), items),
});

function checkVirtualMachines(model: Model, items: readonly WriteItem[]): void {
  for (const item of checkable(items)) {
    if (item.id !== null && !VM_FIELDS.some((name) => item.values[name] !== undefined)) continue;
    checkVirtualMachine(model, item);
  }
}

function checkVirtualMachine(model: Model, item: WriteItem) {
  const value = (name: string) => effective(model, item, name) as number | null;
  const [siteId, clusterId, deviceId, roleId] = [value("site"), value("cluster"), value("device"), value("role")];
  const { cluster, device: host, role, site } = item.probed;
  if (roleId !== null && !role?.vm_role) {
    return fail(item, "role", `device role instance with id ${roleId} is not a valid choice.`);
  }
  if (siteId === null && clusterId === null) return fail(item, "cluster", "A virtual machine must be assigned to a site and/or cluster.");
  if (cluster && siteId !== null && cluster.__site_id !== null && Number(cluster.__site_id) !== siteId) {
    return fail(item, "cluster", `The selected cluster (${cluster.name}) is not assigned to this site (${site?.name}).`);
  }
  if (deviceId !== null && clusterId === null) return fail(item, "device", "Must specify a cluster when assigning a host device.");
  if (host && Number(host.cluster_id) !== clusterId) {
    return fail(item, "device", `The selected device (${host.__display}) is not assigned to this cluster (${cluster?.name}).`);
  }
  const total = Number(item.probed.disks?.total ?? 0);
  const disk = value("disk");
  if (total && disk === null) item.values.disk = total;
  else if (total && disk !== total) {
    return fail(item, "disk", `The specified disk size (${disk}) must match the aggregate size of assigned virtual disks (${total}).`);
  }
  if (siteId === null && cluster && cluster.__site_id !== null) item.values.site = Number(cluster.__site_id);
}

const VM_INTERFACE_FIELDS = ["virtual_machine", "parent", "bridge", "primary_mac_address"];

/**
 * A VM interface: its primary MAC address is one assigned to it; its parent and bridge are other
 * interfaces of the same virtual machine.
 */
function vmInterfaceProbes(model: Model, ctx: Actor, items: readonly WriteItem[]): Probe[] {
  const todo = checkable(items);
  const peer = {
    touching: VM_INTERFACE_FIELDS,
    extra: {
      __vm_name: (r: string) =>
        sql`(SELECT vm.name FROM virtualization_virtualmachine vm WHERE vm.id = ${sql.ref(`${r}.virtual_machine_id`)})`,
    },
  };
  return [
    ...relatedRowsProbe(ctx, model, todo, { name: "parent", ...peer }),
    ...relatedRowsProbe(ctx, model, todo, { name: "bridge", ...peer }),
    ...relatedRowsProbe(ctx, model, todo, { name: "primary_mac_address", touching: VM_INTERFACE_FIELDS }),
  ];
}

/** The rules of VM interfaces; `self` is their model. */
export const vmInterfaceHooks = (self: () => Model): ModelHooks => ({
  writeProbes: (ctx, items) => vmInterfaceProbes(self(), ctx, items),
  prepareWrite: (_ctx, items) => {
    for (const item of checkable(items)) checkVmInterface(self(), item);
  },
});

function checkVmInterface(model: Model, item: WriteItem) {
  const value = (name: string) => effective(model, item, name) as number | null;
  const vm = value("virtual_machine");
  const mac = item.probed.primary_mac_address;
  if (mac && (mac.assigned_object_type !== model.objectType || Number(mac.assigned_object_id) !== item.id)) {
    return fail(item, "primary_mac_address", `MAC address ${mac.mac_address} is not assigned to this interface.`);
  }
  const peers = [
    ["parent", "An interface cannot be its own parent.", "parent interface"],
    ["bridge", "An interface cannot be bridged to itself.", "bridge interface"],
  ] as const;
  for (const [name, self, label] of peers) {
    const id = value(name);
    const peer = item.probed[name];
    if (id !== null && id === item.id) return fail(item, name, self);
    if (peer && Number(peer.virtual_machine_id) !== vm) {
      return fail(item, name, `The selected ${label} (${peer.name}) belongs to a different virtual machine (${peer.__vm_name}).`);
    }
  }
}

const DEVICE_CLUSTER_FIELDS = ["cluster", "site", "location"];

/**
 * A device's cluster: where the cluster's scope fixes a site or a location, the device must be
 * there too.
 */
export const deviceClusterHooks = (self: () => Model): ModelHooks => ({
  writeProbes: (ctx, items) =>
    relatedRowsProbe(ctx, self(), checkable(items), { name: "cluster", touching: DEVICE_CLUSTER_FIELDS, extra: clusterScope }),
  prepareWrite(_ctx, items) {
    const device = self();
    for (const item of checkable(items)) {
      const cluster = item.probed.cluster;
      if (!cluster || !DEVICE_CLUSTER_FIELDS.some((name) => item.values[name] !== undefined)) continue;
      const value = (name: string) => effective(device, item, name) as number | null;
      if (cluster.__site_id !== null && Number(cluster.__site_id) !== value("site")) {
        fail(item, "cluster", `The assigned cluster belongs to a different site (${cluster.__site_name})`);
      } else if (cluster.__location_id !== null && Number(cluster.__location_id) !== value("location")) {
        fail(item, "cluster", `The assigned cluster belongs to a different location (${cluster.__location_name})`);
      }
    }
  },
});

/**
 * A cluster moved to another scope: the devices it hosts must all be in the site (and location)
 * the new scope names.
 */
export const clusterScopeHooks = {
  writeProbes(_ctx: Actor, items: readonly WriteItem[]): Probe[] {
    const todo = checkable(items).filter((item) => item.id !== null && item.values.scope);
    if (!todo.length) return [];
    const moves = todo.map((item) => {
      const scope = item.values.scope as { type: string; id: number };
      return { c: item.id, scope_type: scope.type, scope_id: scope.id };
    });
    return [
      {
        statement: sql`WITH r AS (SELECT json_extract(value, '$.c') AS id, json_extract(value, '$.scope_type') AS scope_type,
          json_extract(value, '$.scope_id') AS scope_id FROM json_each(${JSON.stringify(moves)})),
        p AS (SELECT r.id, ${clusterScopeSql("r", "site")} AS site_id, ${clusterScopeSql("r", "location")} AS location_id FROM r)
        SELECT p.id,
          (SELECT s.name FROM dcim_site s WHERE s.id = p.site_id) AS site_name,
          (SELECT l.name FROM dcim_location l WHERE l.id = p.location_id) AS location_name,
          (SELECT count(*) FROM dcim_device d WHERE d.cluster_id = p.id AND d.site_id IS NOT p.site_id) AS off_site,
          (SELECT count(*) FROM dcim_device d WHERE d.cluster_id = p.id AND d.location_id IS NOT p.location_id) AS off_location
        FROM p`.compile(qb),
        settle: (r) => {
          const found = new Map(r.rows.map((row) => [Number(row.id), row]));
          for (const item of todo) if (found.has(item.id!)) item.probed.scope = found.get(item.id!)!;
        },
      },
    ];
  },
  prepareWrite(_ctx: Actor, items: readonly WriteItem[]): void {
    for (const item of checkable(items)) {
      const row = item.probed.scope;
      if (row?.site_name != null && Number(row.off_site)) {
        fail(item, "scope", `${row.off_site} devices are assigned as hosts for this cluster but are not in site ${row.site_name}`);
      } else if (row?.location_name != null && Number(row.off_location)) {
        fail(
          item,
          "scope",
          `${row.off_location} devices are assigned as hosts for this cluster but are not in location ${row.location_name}`,
        );
      }
    }
  },
};

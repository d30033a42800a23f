import { sql } from "kysely";
import type { Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import type { RequestContext } from "../http/context.ts";
import type { WriteItem } from "../models/hooks.ts";
import type { Model } from "../models/model.ts";
import { device } from "../models/dcim-devices.ts";
import { clusterScopeSql, virtualMachine, vmInterface } from "../models/virtualization.ts";
import type { Probe } from "../rest/probes.ts";
import { checkable, effective, relatedRowsProbe, storedRowsProbe, thenSettled } from "../rest/related-rows.ts";
import { idList } from "../rest/select.ts";

/**
 * What NetBox's `clean()` checks across objects for virtual machines, their interfaces and the
 * devices clusters hold. Each runs as probes in a write's first round trip (one statement per
 * kind of row, whatever the number of items), and its errors come out as NetBox words them.
 * Declared as functions so model files can name them before this module has run.
 */

/** A cluster's name and the site and location its scope places it in, with their names. */
const clusterColumns = sql`r.name AS name,
  ${clusterScopeSql("r", "site")} AS site_id, (SELECT s.name FROM dcim_site s WHERE s.id = ${clusterScopeSql("r", "site")}) AS site_name,
  ${clusterScopeSql("r", "location")} AS location_id, (SELECT l.name FROM dcim_location l WHERE l.id = ${clusterScopeSql("r", "location")}) AS location_name`;

/** A fresh map per kind of row a validation reads. */
const maps = <K extends string>(...names: K[]) => Object.fromEntries(names.map((n) => [n, new Map<number, Row>()])) as Record<K, Map<number, Row>>;

const fail = (item: WriteItem, field: string, message: string) => void (item.errors[field] = [message]);

/**
 * A virtual machine: placed on a site, a cluster or both; the site matches the cluster's; a host
 * device belongs to the cluster; the role is one meant for VMs; a `disk` matches the total of its
 * virtual disks. A VM given a cluster but no site takes the cluster's site, as NetBox saves it.
 */
export function virtualMachineProbes(ctx: RequestContext, items: readonly WriteItem[]): Probe[] {
  const model = virtualMachine;
  const todo = checkable(items);
  if (!todo.length) return [];
  const rows = maps("stored", "cluster", "site", "device", "role", "disks");
  const updating = todo.map((i) => i.id).filter((id): id is number => id !== null);
  const probes = [
    ...storedRowsProbe(model, todo, rows.stored),
    ...relatedRowsProbe(ctx, model, todo, "cluster", clusterColumns, rows.cluster),
    ...relatedRowsProbe(ctx, model, todo, "site", sql`r.name AS name`, rows.site),
    ...relatedRowsProbe(ctx, model, todo, "device", sql`r.cluster_id AS cluster_id, ${device.displaySql("r")} AS display`, rows.device),
    ...relatedRowsProbe(ctx, model, todo, "role", sql`r.vm_role AS vm_role`, rows.role),
    ...(updating.length ? [{
      statement: sql`SELECT virtual_machine_id AS id, sum(size) AS total FROM virtualization_virtualdisk
        WHERE virtual_machine_id IN ${idList(updating)} GROUP BY virtual_machine_id`.compile(qb),
      settle: (r) => r.rows.forEach((row) => rows.disks.set(Number(row.id), row)),
    } satisfies Probe] : []),
  ];
  return thenSettled(probes, () => {
    for (const item of checkable(todo)) checkVirtualMachine(model, item, rows);
  });
}

function checkVirtualMachine(model: Model, item: WriteItem, rows: Record<"stored" | "cluster" | "site" | "device" | "role" | "disks", Map<number, Row>>) {
  const value = (name: string) => effective(model, item, rows.stored, name) as number | null;
  const [siteId, clusterId, deviceId, roleId] = [value("site"), value("cluster"), value("device"), value("role")];
  const cluster = clusterId === null ? undefined : rows.cluster.get(clusterId);
  const host = deviceId === null ? undefined : rows.device.get(deviceId);
  if (roleId !== null && !rows.role.get(roleId)?.vm_role) {
    return fail(item, "role", `device role instance with id ${roleId} is not a valid choice.`);
  }
  if (siteId === null && clusterId === null) return fail(item, "cluster", "A virtual machine must be assigned to a site and/or cluster.");
  if (cluster && siteId !== null && cluster.site_id !== null && Number(cluster.site_id) !== siteId) {
    return fail(item, "cluster", `The selected cluster (${cluster.name}) is not assigned to this site (${rows.site.get(siteId)?.name}).`);
  }
  if (deviceId !== null && clusterId === null) return fail(item, "device", "Must specify a cluster when assigning a host device.");
  if (host && Number(host.cluster_id) !== clusterId) {
    return fail(item, "device", `The selected device (${host.display}) is not assigned to this cluster (${cluster?.name}).`);
  }
  const total = item.id === null ? 0 : Number(rows.disks.get(item.id)?.total ?? 0);
  const disk = value("disk");
  if (total && disk === null) item.values.disk = total;
  else if (total && disk !== total) {
    return fail(item, "disk", `The specified disk size (${disk}) must match the aggregate size of assigned virtual disks (${total}).`);
  }
  if (siteId === null && cluster && cluster.site_id !== null) item.values.site = Number(cluster.site_id);
}

/**
 * A VM interface: its primary MAC address is one assigned to it; its parent and bridge are other
 * interfaces of the same virtual machine.
 */
export function vmInterfaceProbes(ctx: RequestContext, items: readonly WriteItem[]): Probe[] {
  const model = vmInterface;
  const todo = checkable(items);
  if (!todo.length) return [];
  const rows = maps("stored", "parent", "bridge", "mac");
  const peer = sql`r.name AS name, r.virtual_machine_id AS vm_id, (SELECT vm.name FROM virtualization_virtualmachine vm WHERE vm.id = r.virtual_machine_id) AS vm_name`;
  const probes = [
    ...storedRowsProbe(model, todo, rows.stored),
    ...relatedRowsProbe(ctx, model, todo, "parent", peer, rows.parent),
    ...relatedRowsProbe(ctx, model, todo, "bridge", peer, rows.bridge),
    ...relatedRowsProbe(ctx, model, todo, "primary_mac_address",
      sql`r.mac_address AS mac_address, r.assigned_object_type AS type, r.assigned_object_id AS object_id`, rows.mac),
  ];
  return thenSettled(probes, () => {
    for (const item of checkable(todo)) checkVmInterface(model, item, rows);
  });
}

function checkVmInterface(model: Model, item: WriteItem, rows: Record<"stored" | "parent" | "bridge" | "mac", Map<number, Row>>) {
  const value = (name: string) => effective(model, item, rows.stored, name) as number | null;
  const vm = value("virtual_machine");
  const macId = value("primary_mac_address");
  const mac = macId === null ? undefined : rows.mac.get(macId);
  if (mac && (mac.type !== model.objectType || Number(mac.object_id) !== item.id)) {
    return fail(item, "primary_mac_address", `MAC address ${mac.mac_address} is not assigned to this interface.`);
  }
  const peers = [
    ["parent", "An interface cannot be its own parent.", "parent interface"],
    ["bridge", "An interface cannot be bridged to itself.", "bridge interface"],
  ] as const;
  for (const [name, self, label] of peers) {
    const id = value(name);
    const peer = id === null ? undefined : rows[name].get(id);
    if (id !== null && id === item.id) return fail(item, name, self);
    if (peer && Number(peer.vm_id) !== vm) {
      return fail(item, name, `The selected ${label} (${peer.name}) belongs to a different virtual machine (${peer.vm_name}).`);
    }
  }
}

/**
 * A device's cluster: where the cluster's scope fixes a site or a location, the device must be
 * there too.
 */
export function deviceClusterProbes(ctx: RequestContext, items: readonly WriteItem[]): Probe[] {
  const model = device;
  const todo = checkable(items).filter((item) => ["cluster", "site", "location"].some((name) => item.values[name] !== undefined));
  if (!todo.length) return [];
  const rows = maps("stored", "cluster");
  const probes = [...storedRowsProbe(model, todo, rows.stored), ...relatedRowsProbe(ctx, model, todo, "cluster", clusterColumns, rows.cluster)];
  return thenSettled(probes, () => {
    for (const item of checkable(todo)) {
      const value = (name: string) => effective(model, item, rows.stored, name) as number | null;
      const clusterId = value("cluster");
      const cluster = clusterId === null ? undefined : rows.cluster.get(clusterId);
      if (!cluster) continue;
      if (cluster.site_id !== null && Number(cluster.site_id) !== value("site")) {
        fail(item, "cluster", `The assigned cluster belongs to a different site (${cluster.site_name})`);
      } else if (cluster.location_id !== null && Number(cluster.location_id) !== value("location")) {
        fail(item, "cluster", `The assigned cluster belongs to a different location (${cluster.location_name})`);
      }
    }
  });
}

/**
 * A cluster moved to another scope: the devices it hosts must all be in the site (and location)
 * the new scope names.
 */
export function clusterScopeProbes(_ctx: RequestContext, items: readonly WriteItem[]): Probe[] {
  const todo = checkable(items).filter((item) => item.id !== null && item.values.scope);
  if (!todo.length) return [];
  const moves = todo.map((item) => {
    const scope = item.values.scope as { type: string; id: number };
    return { c: item.id, scope_type: scope.type, scope_id: scope.id };
  });
  const found = new Map<number, Row>();
  const probe: Probe = {
    statement: sql`WITH r AS (SELECT json_extract(value, '$.c') AS id, json_extract(value, '$.scope_type') AS scope_type,
        json_extract(value, '$.scope_id') AS scope_id FROM json_each(${JSON.stringify(moves)})),
      p AS (SELECT r.id, ${clusterScopeSql("r", "site")} AS site_id, ${clusterScopeSql("r", "location")} AS location_id FROM r)
      SELECT p.id,
        (SELECT s.name FROM dcim_site s WHERE s.id = p.site_id) AS site_name,
        (SELECT l.name FROM dcim_location l WHERE l.id = p.location_id) AS location_name,
        (SELECT count(*) FROM dcim_device d WHERE d.cluster_id = p.id AND d.site_id IS NOT p.site_id) AS off_site,
        (SELECT count(*) FROM dcim_device d WHERE d.cluster_id = p.id AND d.location_id IS NOT p.location_id) AS off_location
      FROM p`.compile(qb),
    settle: (r) => r.rows.forEach((row) => found.set(Number(row.id), row)),
  };
  return thenSettled([probe], () => {
    for (const item of checkable(todo)) {
      const row = found.get(item.id!);
      if (row?.site_name != null && Number(row.off_site)) {
        fail(item, "scope", `${row.off_site} devices are assigned as hosts for this cluster but are not in site ${row.site_name}`);
      } else if (row?.location_name != null && Number(row.off_location)) {
        fail(item, "scope", `${row.off_location} devices are assigned as hosts for this cluster but are not in location ${row.location_name}`);
      }
    }
  });
}

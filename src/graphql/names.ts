import type { Field, Model } from "../schema/shapes.ts";

/*
 * The names GraphQL gives models and relations, NetBox's way: types `<Class>Type`, filters
 * `<Class>Filter`, query fields from the verbose name (`ip_address`, `ip_address_list`) and
 * reverse relations by the related model's path (`interfaces`, `virtual_machines`), except where
 * NetBox's models name a relation otherwise (Django's `related_name`, or its `<model>_set`).
 */

/** "IPAddress" -> "ip_address"; "VMInterface" -> "vm_interface". */
const snakeOfClass = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();

export const typeName = (model: Model): string => `${model.className}Type`;
export const filterName = (model: Model): string => `${model.className}Filter`;

/**
 * The query field of one object of each model (`site`), from its verbose name ("IP address" ->
 * `ip_address`); a model whose verbose name another model has (a VM's "interface") takes its
 * class name (`vm_interface`).
 */
export function queryNames(models: readonly Model[]): Map<Model, string> {
  const byVerbose = (m: Model) => m.verboseName.toLowerCase().replace(/[\s-]+/g, "_");
  const names = new Map<Model, string>();
  const taken = new Set<string>();
  // Models named by their verbose name first, so a model whose name is its own keeps it.
  const natural = models.filter(
    (m) => byVerbose(m) === snakeOfClass(m.className) || !models.some((o) => o !== m && byVerbose(o) === byVerbose(m)),
  );
  for (const m of [...natural, ...models.filter((m) => !natural.includes(m))]) {
    const name = taken.has(byVerbose(m)) ? snakeOfClass(m.className) : byVerbose(m);
    names.set(m, name);
    taken.add(name);
  }
  return names;
}

/**
 * Reverse relations NetBox names otherwise than the related model's path, by `app.model.field`
 * of the relation pointing here (Django's `related_name`, or its default `<model>_set`).
 */
const RELATED_NAMES: Readonly<Record<string, string>> = {
  "core.objectchange.changed_object": "changelog",
  "extras.journalentry.assigned_object": "journal_entries",
  "extras.imageattachment.object": "image_attachments",
  "tenancy.contactassignment.object": "contacts",
  "ipam.ipaddress.assigned_object": "ip_addresses",
  "dcim.consoleport.device": "consoleports",
  "dcim.consoleserverport.device": "consoleserverports",
  "dcim.powerport.device": "powerports",
  "dcim.poweroutlet.device": "poweroutlets",
  "dcim.frontport.device": "frontports",
  "dcim.rearport.device": "rearports",
  "dcim.devicebay.device": "devicebays",
  "dcim.modulebay.device": "modulebays",
  "dcim.inventoryitem.device": "inventoryitems",
  "dcim.cabletermination.termination": "cabletermination_set",
  "dcim.powerpanel.site": "powerpanel_set",
  "dcim.powerpanel.location": "powerpanel_set",
  "dcim.device.primary_ip4": "primary_ip4_for",
  "dcim.device.primary_ip6": "primary_ip6_for",
  "dcim.device.oob_ip": "oob_ip_for",
  "dcim.virtualchassis.master": "vc_master_for",
  "virtualization.virtualmachine.primary_ip4": "primary_ip4_for",
  "virtualization.virtualmachine.primary_ip6": "primary_ip6_for",
  "ipam.ipaddress.nat_inside": "nat_outside",
  "dcim.interface.parent": "child_interfaces",
  "dcim.interface.lag": "member_interfaces",
  "dcim.interface.bridge": "bridge_interfaces",
  "virtualization.vminterface.parent": "child_interfaces",
  "virtualization.vminterface.bridge": "bridge_interfaces",
  "virtualization.vminterface.virtual_machine": "interfaces",
  "dcim.region.parent": "children",
  "dcim.sitegroup.parent": "children",
  "dcim.location.parent": "children",
  "tenancy.tenantgroup.parent": "children",
  "tenancy.contactgroup.parent": "children",
  "virtualization.clustergroup.parent": "children",
  "wireless.wirelesslangroup.parent": "children",
  "dcim.inventoryitem.parent": "child_items",
  "dcim.devicebay.installed_device": "parent_bay",
  "dcim.device.device_type": "instances",
  "dcim.module.module_type": "instances",
  "circuits.circuittermination.circuit": "terminations",
  "vpn.tunneltermination.tunnel": "terminations",
  "circuits.providernetwork.provider": "networks",
  "tenancy.contactassignment.contact": "assignments",
  "tenancy.contactassignment.role": "assignments",
  "dcim.rackreservation.*": "rackreservations",
  "dcim.virtualdevicecontext.*": "vdcs",
  "dcim.interface.untagged_vlan": "interfaces_as_untagged",
  "virtualization.vminterface.untagged_vlan": "vminterfaces_as_untagged",
  "dcim.interface.tagged_vlans": "interfaces_as_tagged",
  "virtualization.vminterface.tagged_vlans": "vminterfaces_as_tagged",
  "virtualization.vminterface.*": "vminterfaces",
  "wireless.wirelesslan.vlan": "wirelesslan_set",
};

/**
 * Unions NetBox names otherwise than `<Model><Field>Type`, by `app.model.field` (`*`: any model),
 * for relations whose objects may be of several models.
 */
const UNION_NAMES: Readonly<Record<string, string>> = {
  "*.link_peers": "LinkPeerType",
  "*.connected_endpoints": "ConnectedEndpointType",
  "dcim.cable.a_terminations": "CableTerminationTerminationType",
  "dcim.cable.b_terminations": "CableTerminationTerminationType",
  "dcim.cabletermination.termination": "CableTerminationTerminationType",
  "ipam.ipaddress.assigned_object": "IPAddressAssignmentType",
  "dcim.macaddress.assigned_object": "MACAddressAssignmentType",
  "ipam.fhrpgroupassignment.interface": "FHRPGroupInterfaceType",
  "vpn.l2vpntermination.assigned_object": "L2VPNAssignmentType",
  "dcim.inventoryitem.component": "InventoryItemComponentType",
  "dcim.inventoryitemtemplate.component": "InventoryItemTemplateComponentType",
};

/** The union of the objects a relation of `model` may hold. */
export const unionName = (model: Model, field: Field): string =>
  UNION_NAMES[`${model.objectType}.${field.name}`] ??
  UNION_NAMES[`*.${field.name}`] ??
  `${model.className}${field.name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}Type`;

/** Device components and their templates, which NetBox's devices, modules and their types name by model (`frontporttemplates`). */
const COMPONENT =
  /^dcim\.(consoleport|consoleserverport|powerport|poweroutlet|frontport|rearport|devicebay|modulebay|inventoryitem|interface)(template)?$/;
const COMPONENT_OWNERS = new Set(["device", "module", "device_type", "module_type"]);

/** The name of the reverse relation on the target of `field` (a field of `owner`). */
export const relatedName = (owner: Model, field: Field): string =>
  RELATED_NAMES[`${owner.objectType}.${field.name}`] ??
  RELATED_NAMES[`${owner.objectType}.*`] ??
  (COMPONENT.test(owner.objectType) && COMPONENT_OWNERS.has(field.name) ? `${owner.name}s` : owner.path.replace(/-/g, "_"));

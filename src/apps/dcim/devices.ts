import { INTERFACE_KIND_SQL } from "./interface-kinds.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { contactFilters } from "../tenancy/contacts.ts";
import { combineHooks } from "../../schema/hooks.ts";
import { comments, configTemplateField, description, siteTreeFilters } from "../../schema/common.ts";
import { idList, inJsonList, valueSet, whether } from "../../schema/filter-sql.ts";
import { cabled, pathEndpoint } from "./cabling.ts";
import { interfaceWirelessFields, interfaceWirelessFilters } from "../wireless/dcim-fields.ts";
import { interfaceVirtualCircuitFilters } from "../circuits/dcim-filters.ts";
import {
  deviceIpamHooks,
  interfaceIpamCounts,
  interfaceIpamHooks,
  interfaceVlanFields,
  interfaceVlanFilters,
  interfaceVrfField,
  primaryIpFields,
} from "../ipam/dcim-fields.ts";
import {
  interfaceMacFields,
  interfaceMacFilters,
  macAddressesFilter,
  macAddressProblem,
  normalMacAddress,
  primaryMacHooks,
} from "./interface-macs.ts";
import { componentFilters, hasComponentFilters } from "./components.ts";
import { interfaceOwnerFilters } from "./interface-owners.ts";
import { configContextField, DEVICE_CONTEXT_PATHS, localContextData } from "../extras/config-context-field.ts";
import { deviceClusterHooks } from "../virtualization/validation.ts";
import { deviceAirflowHooks, devicePlacementHooks } from "./placement.ts";
import { traceRoute } from "./trace.ts";
import { deviceComponentStatements } from "./instantiation.ts";
import {
  DEVICE_AIRFLOW,
  DEVICE_FACE,
  DEVICE_STATUS,
  INTERFACE_DUPLEX,
  INTERFACE_MODE,
  INTERFACE_POE_MODE,
  INTERFACE_POE_TYPE,
  INTERFACE_RF_CHANNEL,
  INTERFACE_RF_ROLE,
  INTERFACE_TYPE,
} from "./choices.ts";
import { l2vpnFilters, l2vpnTerminationField } from "../vpn/l2vpn-relations.ts";
import { renderConfigRoute } from "../extras/config-templates.ts";
import { connectedDeviceRoute } from "./connected-device.ts";
import { hasPrimaryIp } from "../ipam/primary-ips.ts";
import { deviceVdcFilters, interfaceVdcFields, interfaceVdcFilters, interfaceVdcHooks } from "./virtual-device-contexts.ts";

/**
 * A device's `str()` as NetBox gives it: its name (with the asset tag when it has one), else its
 * type's manufacturer and model with its id.
 */
const deviceDisplay = (t: string) => sql`CASE
  WHEN ${sql.ref(`${t}.name`)} IS NOT NULL AND ${sql.ref(`${t}.asset_tag`)} IS NOT NULL THEN ${sql.ref(`${t}.name`)} || ' (' || ${sql.ref(`${t}.asset_tag`)} || ')'
  WHEN ${sql.ref(`${t}.name`)} IS NOT NULL THEN ${sql.ref(`${t}.name`)}
  ELSE (SELECT m.name || ' ' || dt.model FROM dcim_devicetype dt JOIN dcim_manufacturer m ON m.id = dt.manufacturer_id
        WHERE dt.id = ${sql.ref(`${t}.device_type_id`)}) || ' (' || ${sql.ref(`${t}.id`)} || ')' END`;

export const device = defineModel({
  app: "dcim",
  name: "device",
  fields: {
    name: f.string({ maxLength: 64, nullable: true, default: null }),
    device_type: f.fk("dcim.devicetype", { onDelete: "protect" }),
    role: f.fk("dcim.devicerole", { onDelete: "protect" }),
    // NetBox before 4.0 called the role `device_role`; older clients still send and read it.
    device_role: f.alias("role"),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    platform: f.fk("dcim.platform", { nullable: true, onDelete: "setNull" }),
    cluster: f.fk("virtualization.cluster", { nullable: true, onDelete: "setNull" }),
    serial: f.string({ maxLength: 50, blank: true, label: "Serial number" }),
    asset_tag: f.string({ maxLength: 50, nullable: true, default: null, unique: true }),
    site: f.fk("dcim.site", { onDelete: "protect" }),
    location: f.fk("dcim.location", { nullable: true, onDelete: "protect" }),
    rack: f.fk("dcim.rack", { nullable: true, onDelete: "protect" }),
    position: f.float({ nullable: true, min: 0.5, max: 1000, label: "Position (U)" }),
    face: f.choice(DEVICE_FACE, { nullable: true, label: "Rack face" }),
    virtual_chassis: f.fk("dcim.virtualchassis", { nullable: true, onDelete: "setNull" }),
    vc_position: f.integer({ nullable: true, min: 0, max: 255 }),
    vc_priority: f.integer({ nullable: true, min: 0, max: 255 }),
    latitude: f.float({ nullable: true, min: -90, max: 90 }),
    longitude: f.float({ nullable: true, min: -180, max: 180 }),
    // A child device's parent: the device whose bay holds it (the bay keeps the link).
    parent_device: f.related(
      "dcim.device",
      (t) => sql`(SELECT b.device_id FROM dcim_devicebay b WHERE b.installed_device_id = ${sql.ref(`${t}.id`)})`,
      { nestedDisplayUrl: true },
    ),
    status: f.choice(DEVICE_STATUS, { default: "active" }),
    airflow: f.choice(DEVICE_AIRFLOW, { nullable: true }),
    description,
    comments,
    config_template: configTemplateField(),
    local_context_data: f.json({ nullable: true, checkJson: localContextData }),
    config_context: configContextField(() => device, DEVICE_CONTEXT_PATHS),
    // SPEC.md 2.2: a device's nested form carries `display_name` (NetBox 2.x's name for display).
    display_name: f.computed(deviceDisplay, { returns: "string" }),
    console_port_count: f.counter("dcim.consoleport", "device"),
    console_server_port_count: f.counter("dcim.consoleserverport", "device"),
    power_port_count: f.counter("dcim.powerport", "device"),
    power_outlet_count: f.counter("dcim.poweroutlet", "device"),
    interface_count: f.counter("dcim.interface", "device"),
    front_port_count: f.counter("dcim.frontport", "device"),
    rear_port_count: f.counter("dcim.rearport", "device"),
    device_bay_count: f.counter("dcim.devicebay", "device"),
    module_bay_count: f.counter("dcim.modulebay", "device"),
    inventory_item_count: f.counter("dcim.inventoryitem", "device"),
    ...primaryIpFields(),
  },
  uniqueTogether: [
    { fields: ["site", "tenant", "name"], nullsDistinct: ["name"], message: "Device name must be unique per site." },
    {
      fields: ["virtual_chassis", "vc_position"],
      nullsDistinct: ["virtual_chassis", "vc_position"],
      message: "Device with this Virtual chassis and VC position already exists.",
    },
  ],
  brief: ["name", "display_name", "description"],
  display: deviceDisplay,
  search: ["name", "serial", "asset_tag", "description", "comments"],
  filters: {
    ...contactFilters("dcim.device"),
    manufacturer: "device_type__manufacturer",
    manufacturer_id: "device_type__manufacturer__id",
    model: "device_type__slug",
    ...siteTreeFilters("site"),
    cluster_group: "cluster__group",
    cluster_group_id: "cluster__group__id",
    is_full_depth: "device_type__is_full_depth",
    virtual_chassis_member: whether((t) => sql`${sql.ref(`${t}.virtual_chassis_id`)} IS NOT NULL`),
    // Inventories select managed hosts so (Ansible's `device_query_filters: [has_primary_ip: true]`).
    has_primary_ip: hasPrimaryIp,
    has_oob_ip: whether((t) => sql`${sql.ref(`${t}.oob_ip_id`)} IS NOT NULL`),
    local_context_data: whether((t) => sql`${sql.ref(`${t}.local_context_data`)} IS NOT NULL`),
    ...hasComponentFilters("device_id", ""),
    ...deviceVdcFilters,
    mac_address: macAddressesFilter(
      (t) => sql`SELECT m.mac_address AS value FROM dcim_interface i JOIN dcim_macaddress m
        ON m.assigned_object_type = 'dcim.interface' AND m.assigned_object_id = i.id WHERE i.device_id = ${sql.ref(`${t}.id`)}`,
    ),
    // A child device's bay, and the device that holds it.
    parent_bay_id: {
      sql: (values, t) =>
        sql`${sql.ref(`${t}.id`)} IN (SELECT b.installed_device_id FROM dcim_devicebay b WHERE ${inJsonList(sql`b.id`, idList(values))})`,
      negatable: true,
    },
    parent_device_id: {
      sql: (values, t) =>
        sql`${sql.ref(`${t}.id`)} IN (SELECT b.installed_device_id FROM dcim_devicebay b WHERE ${inJsonList(sql`b.device_id`, idList(values))})`,
      negatable: true,
    },
  },
  // Placement, cluster and primary-IP rules; a new device brings its type's components (instantiation.ts).
  hooks: combineHooks(
    devicePlacementHooks(() => device),
    deviceAirflowHooks(() => device),
    deviceClusterHooks(() => device),
    { writeStatements: (ctx, items) => deviceComponentStatements(device.registry, ctx, items) },
    deviceIpamHooks,
  ),
  routes: [renderConfigRoute("device"), connectedDeviceRoute],
});

const or = (xs: RawBuilder<unknown>[]) => (xs.length ? sql`(${sql.join(xs, sql` OR `)})` : sql`0`);

/**
 * Interfaces of the devices `chosen` (a condition on `d`) and, for one in a virtual chassis, of
 * every member of it: NetBox's `virtual_chassis_member` filters.
 */
const virtualChassisMembers = (chosen: RawBuilder<unknown>, t: string) =>
  sql`${sql.ref(`${t}.device_id`)} IN (SELECT m.id FROM dcim_device d JOIN dcim_device m
    ON m.id = d.id OR (d.virtual_chassis_id IS NOT NULL AND m.virtual_chassis_id = d.virtual_chassis_id) WHERE ${chosen})`;

export const iface = defineModel({
  app: "dcim",
  name: "interface",
  fields: {
    device: f.fk("dcim.device", { onDelete: "cascade" }),
    ...interfaceVdcFields(),
    module: f.fk("dcim.module", { nullable: true, onDelete: "cascade" }),
    name: f.string({ maxLength: 64 }),
    label: f.string({ maxLength: 64, blank: true }),
    type: f.choice(INTERFACE_TYPE),
    enabled: f.boolean({ default: true }),
    parent: f.fk("dcim.interface", { nullable: true, onDelete: "setNull", label: "Parent interface", nestedDisplayUrl: true }),
    bridge: f.fk("dcim.interface", { nullable: true, onDelete: "setNull", label: "Bridge interface", nestedDisplayUrl: true }),
    lag: f.fk("dcim.interface", { nullable: true, onDelete: "setNull", label: "Parent LAG", nestedDisplayUrl: true }),
    mtu: f.integer({ nullable: true, min: 1, max: 65536 }),
    ...interfaceMacFields(),
    speed: f.integer({ nullable: true, min: 0, max: 2_147_483_647, label: "Speed (Kbps)" }),
    duplex: f.choice(INTERFACE_DUPLEX, { nullable: true }),
    wwn: f.string({ maxLength: 23, nullable: true, default: null, label: "WWN" }),
    mgmt_only: f.boolean({ default: false, label: "Management only" }),
    description,
    mode: f.choice(INTERFACE_MODE, { nullable: true, label: "802.1Q Mode" }),
    rf_role: f.choice(INTERFACE_RF_ROLE, { nullable: true, label: "Wireless role" }),
    rf_channel: f.choice(INTERFACE_RF_CHANNEL, { nullable: true, label: "Wireless channel" }),
    poe_mode: f.choice(INTERFACE_POE_MODE, { nullable: true, label: "PoE mode" }),
    poe_type: f.choice(INTERFACE_POE_TYPE, { nullable: true, label: "PoE type" }),
    rf_channel_frequency: f.float({ nullable: true, min: 0, max: 100_000, label: "Channel frequency (MHz)" }),
    rf_channel_width: f.float({ nullable: true, min: 0, max: 10_000, label: "Channel width (MHz)" }),
    tx_power: f.integer({ nullable: true, min: 0, max: 127, label: "Transmit power (dBm)" }),
    ...interfaceVlanFields("dcim.interface"),
    ...cabled(),
    ...interfaceWirelessFields(),
    ...interfaceVrfField(),
    l2vpn_termination: l2vpnTerminationField("dcim.interface"),
    ...pathEndpoint(),
    ...interfaceIpamCounts("dcim.interface"),
  },
  uniqueTogether: [{ fields: ["device", "name"], message: "Interface with this Device and Name already exists." }],
  brief: ["device", "name", "description", "cable", "_occupied"],
  search: ["name", "label", "description"],
  ordering: ["device", "name"],
  hooks: combineHooks(
    interfaceIpamHooks(() => iface, "dcim.interface"),
    primaryMacHooks(() => iface),
    interfaceVdcHooks(() => iface),
  ),
  filters: {
    ...componentFilters,
    manufacturer: "device__device_type__manufacturer",
    manufacturer_id: "device__device_type__manufacturer__id",
    kind: { sql: (values, t) => or(values.flatMap((v) => (INTERFACE_KIND_SQL[v] ? [INTERFACE_KIND_SQL[v](sql.ref(`${t}.type`))] : []))) },
    virtual_chassis_member: {
      sql: (values, t) => virtualChassisMembers(sql`d.name IN ${valueSet(values)}`, t),
    },
    virtual_chassis_member_id: { sql: (values, t) => virtualChassisMembers(inJsonList(sql`d.id`, idList(values)), t) },
    ...interfaceVlanFilters("dcim.interface"),
    ...interfaceMacFilters("dcim.interface"),
    ...interfaceWirelessFilters(),
    ...interfaceVirtualCircuitFilters(),
    ...l2vpnFilters("dcim.interface"),
    ...interfaceVdcFilters,
  },
  routes: [traceRoute],
});

export const macAddress = defineModel({
  app: "dcim",
  name: "macaddress",
  verboseName: "MAC address",
  fields: {
    // Declared without f.string's length limit: NetBox stores a PostgreSQL macaddr, which has
    // none, so anything unparsable is refused by the check with NetBox's own message.
    mac_address: { kind: "string", required: true, check: macAddressProblem, label: "MAC address" },
    assigned_object: f.generic(["dcim.interface", "virtualization.vminterface"], { nullable: true }),
    description,
    comments,
  },
  brief: ["mac_address", "description"],
  display: "mac_address",
  search: ["mac_address", "description"],
  ordering: ["mac_address"],
  filters: interfaceOwnerFilters("assigned_object_type", "assigned_object_id"),
  hooks: {
    // The field's check accepts every spelling; the stored value is the one NetBox stores.
    prepareWrite: (_ctx, items) => {
      for (const { values } of items) {
        if (typeof values.mac_address === "string") values.mac_address = normalMacAddress(values.mac_address);
      }
    },
  },
});

export const deviceModels = [device, iface, macAddress];

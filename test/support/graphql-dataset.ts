/**
 * The dataset NetBox 4.2.9's recorded GraphQL answers were given on (`../shared/reference/
 * netbox-4.2-graphql-recordings/README.md`, its table and "Relations"), created through our REST
 * API in the recorder's order. Values the README leaves out come from the recorded answers
 * (serials SN001.., statuses, the asset tag, the cable's colour, the circuit's commit rate, the
 * VMs' sizes); the few no answer shows (the IPv6 address's interface, `<NET4>.130/25`'s place) are
 * chosen so that no recorded answer changes. `test/graphql-replay.test.ts` queries it.
 */
import type { Reply } from "./harness.ts";

/** What the dataset needs of a client of our REST API (the test harness is one). */
export interface RestClient {
  post(path: string, body: unknown): Promise<Reply>;
  patch(path: string, body: unknown): Promise<Reply>;
}

/** The run's placeholders: `<RUN>` (lower case, a slug's start), `<NET4>` (three octets) and `<NET6>` (a /48 without `::`). */
export interface DatasetRun {
  run: string;
  net4: string;
  net6: string;
}

/** Label (`@11.2`) -> our id of the object the recorder's request created. */
export type DatasetIds = Map<string, number>;

/** One recorded request's objects: `@N` for one, `@N.i` for a bulk create's items. */
async function create(api: RestClient, ids: DatasetIds, n: number, path: string, body: unknown): Promise<void> {
  const reply = await api.post(path, body);
  if (reply.status !== 201) throw new Error(`dataset request ${n}: POST ${path} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
  if (Array.isArray(body)) (reply.body as { id: number }[]).forEach((item, i) => ids.set(`@${n}.${i}`, item.id));
  else ids.set(`@${n}`, reply.body.id);
}

async function update(api: RestClient, path: string, body: unknown): Promise<void> {
  const reply = await api.patch(path, body);
  if (reply.status !== 200) throw new Error(`dataset: PATCH ${path} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
}

/** Creates the recordings' dataset and returns its labels' ids. */
export async function createGraphqlDataset(api: RestClient, { run, net4, net6 }: DatasetRun): Promise<DatasetIds> {
  const ids: DatasetIds = new Map();
  const id = (label: string) => {
    const found = ids.get(label);
    if (found === undefined) throw new Error(`dataset: ${label} was not created`);
    return found;
  };
  const iface = (label: string) => ({ object_type: "dcim.interface", object_id: id(label) });

  await create(api, ids, 1, "/api/extras/tags/", [
    { name: `${run}-core`, slug: `${run}-core` },
    { name: `${run}-edge`, slug: `${run}-edge` },
  ]);
  await create(api, ids, 2, "/api/dcim/regions/", { name: `${run} EMEA`, slug: `${run}-emea` });
  await create(api, ids, 3, "/api/dcim/regions/", { name: `${run} Netherlands`, slug: `${run}-nl`, parent: id("@2") });
  await create(api, ids, 4, "/api/tenancy/tenants/", [
    { name: `${run} Ops`, slug: `${run}-ops` },
    { name: `${run} Customer`, slug: `${run}-customer`, description: "a customer" },
  ]);
  await create(api, ids, 5, "/api/dcim/sites/", [
    { name: `${run}-ams1`, slug: `${run}-ams1`, status: "active", region: id("@3"), tenant: id("@4.0"), tags: [id("@1.0")] },
    { name: `${run}-fra1`, slug: `${run}-fra1`, status: "planned", region: id("@2"), tenant: id("@4.1") },
  ]);
  await create(api, ids, 6, "/api/dcim/manufacturers/", { name: `${run} Arista`, slug: `${run}-arista` });
  await create(api, ids, 7, "/api/dcim/device-types/", [
    { manufacturer: id("@6"), model: `${run} 7050SX`, slug: `${run}-7050sx` },
    { manufacturer: id("@6"), model: `${run} 7280R`, slug: `${run}-7280r` },
  ]);
  await create(api, ids, 8, "/api/dcim/device-roles/", [
    { name: `${run} Leaf`, slug: `${run}-leaf`, color: "00ff00" },
    { name: `${run} Spine`, slug: `${run}-spine`, color: "0000ff" },
  ]);
  await create(api, ids, 9, "/api/dcim/platforms/", { name: `${run} EOS`, slug: `${run}-eos`, manufacturer: id("@6") });
  await create(api, ids, 10, "/api/extras/custom-fields/", [
    { name: `${run}_gq_owner`, label: "Owner", type: "text", object_types: ["dcim.device"], default: "netops" },
    { name: `${run}_gq_rack_u`, type: "integer", object_types: ["dcim.device"] },
  ]);

  const [ams1, fra1, leaf, spine, small, big, eos, ops, customer] = [
    id("@5.0"),
    id("@5.1"),
    id("@8.0"),
    id("@8.1"),
    id("@7.0"),
    id("@7.1"),
    id("@9"),
    id("@4.0"),
    id("@4.1"),
  ];
  const owner = `${run}_gq_owner`;
  const rackU = `${run}_gq_rack_u`;
  await create(api, ids, 11, "/api/dcim/devices/", [
    {
      name: `${run}-leaf1`,
      site: ams1,
      device_type: small,
      role: leaf,
      platform: eos,
      tenant: ops,
      status: "active",
      serial: "SN001",
      custom_fields: { [owner]: "alice", [rackU]: 10 },
    },
    {
      name: `${run}-leaf2`,
      site: ams1,
      device_type: small,
      role: leaf,
      platform: eos,
      tenant: ops,
      status: "active",
      serial: "SN002",
      custom_fields: { [owner]: "carol", [rackU]: 11 },
    },
    {
      name: `${run}-spine1`,
      site: ams1,
      device_type: big,
      role: spine,
      tenant: ops,
      status: "active",
      serial: "SN003",
      asset_tag: `${run}-A1`,
      local_context_data: { ntp: ["10.0.0.1"], snmp: { community: "public" } },
    },
    { name: `${run}-spine2`, site: ams1, device_type: big, role: spine, status: "offline", serial: "SN004" },
    {
      name: `${run}-leaf3`,
      site: fra1,
      device_type: small,
      role: leaf,
      platform: eos,
      tenant: customer,
      status: "planned",
      serial: "SN005",
    },
    // Spine by role, as recording 060 shows.
    {
      name: `${run}-edge1`,
      site: fra1,
      device_type: big,
      role: spine,
      tenant: customer,
      status: "active",
      serial: "SN006",
      tags: [id("@1.1")],
    },
  ]);

  const port = (device: string, name: string, extra: Record<string, unknown> = {}) => ({
    device: id(device),
    name,
    type: "10gbase-x-sfpp",
    ...extra,
  });
  const loopback = { type: "virtual" };
  await create(api, ids, 12, "/api/dcim/interfaces/", [
    port("@11.0", "Ethernet1"),
    port("@11.0", "Loopback0", loopback),
    port("@11.1", "Ethernet1"),
    port("@11.1", "Management1", { type: "1000base-t", mgmt_only: true }),
    port("@11.2", "Ethernet1"),
    port("@11.2", "Ethernet2"),
    port("@11.3", "Ethernet1", { enabled: false }),
    port("@11.3", "Loopback0", loopback),
    port("@11.4", "Ethernet1"),
    port("@11.4", "Ethernet2"),
    port("@11.5", "Ethernet1"),
    port("@11.5", "Ethernet2"),
  ]);
  await create(api, ids, 13, "/api/dcim/cables/", {
    a_terminations: [iface("@12.0")],
    b_terminations: [iface("@12.4")],
    label: `${run}-C1`,
    type: "smf",
    status: "connected",
    color: "ffff00",
  });
  await create(api, ids, 14, "/api/dcim/cables/", {
    a_terminations: [iface("@12.2")],
    b_terminations: [iface("@12.5")],
    label: `${run}-C2`,
    type: "smf",
    status: "connected",
  });
  await create(api, ids, 15, "/api/dcim/cables/", {
    a_terminations: [iface("@12.8")],
    b_terminations: [iface("@12.10")],
    label: `${run}-C3`,
    status: "planned",
  });

  await create(api, ids, 16, "/api/ipam/vrfs/", { name: `${run}-prod` });
  await create(api, ids, 17, "/api/ipam/prefixes/", [
    {
      prefix: `${net4}.0/25`,
      status: "active",
      scope_type: "dcim.site",
      scope_id: ams1,
      tenant: ops,
      description: "ams1 servers",
    },
    { prefix: `${net4}.128/25`, status: "reserved", vrf: id("@16") },
    { prefix: `${net6}::/64`, status: "active" },
  ]);
  await create(api, ids, 18, "/api/ipam/vlan-groups/", {
    name: `${run}-ams1-vlans`,
    slug: `${run}-ams1-vlans`,
    scope_type: "dcim.site",
    scope_id: ams1,
    vid_ranges: [[100, 199]],
  });
  await create(api, ids, 19, "/api/ipam/vlans/", [
    { vid: 100, name: `${run}-servers`, status: "active", group: id("@18") },
    { vid: 101, name: `${run}-storage`, status: "reserved", group: id("@18") },
    { vid: 900, name: `${run}-mgmt`, status: "active", site: fra1 },
  ]);
  await update(api, `/api/dcim/interfaces/${id("@12.5")}/`, {
    mode: "tagged",
    untagged_vlan: id("@19.0"),
    tagged_vlans: [id("@19.1")],
  });

  const on = (label: string) => ({ assigned_object_type: "dcim.interface", assigned_object_id: id(label) });
  await create(api, ids, 22, "/api/ipam/ip-addresses/", [
    { address: `${net4}.1/32`, status: "active", ...on("@12.1") },
    { address: `${net4}.11/25`, status: "active", ...on("@12.0") },
    { address: `${net4}.2/25`, status: "active", ...on("@12.3") },
    { address: `${net4}.3/25`, status: "active", ...on("@12.4") },
    { address: `${net4}.130/25`, status: "active", vrf: id("@16") },
    { address: `${net6}::1/64`, status: "active", ...on("@12.8") },
  ]);
  await update(api, `/api/dcim/devices/${id("@11.0")}/`, { primary_ip4: id("@22.0") });
  await update(api, `/api/dcim/devices/${id("@11.1")}/`, { primary_ip4: id("@22.2") });
  await update(api, `/api/dcim/devices/${id("@11.2")}/`, { primary_ip4: id("@22.3") });
  await update(api, `/api/dcim/devices/${id("@11.4")}/`, { primary_ip6: id("@22.5") });

  await create(api, ids, 27, "/api/virtualization/cluster-types/", { name: `${run} KVM`, slug: `${run}-kvm` });
  await create(api, ids, 28, "/api/virtualization/clusters/", {
    name: `${run}-kvm-ams`,
    type: id("@27"),
    status: "active",
    scope_type: "dcim.site",
    scope_id: ams1,
  });
  await create(api, ids, 29, "/api/virtualization/virtual-machines/", [
    { name: `${run}-web1`, cluster: id("@28"), status: "active", vcpus: 2, memory: 4096 },
    { name: `${run}-db1`, cluster: id("@28"), status: "staged", vcpus: 8, memory: 32768 },
  ]);
  await create(api, ids, 30, "/api/virtualization/interfaces/", [
    { virtual_machine: id("@29.0"), name: "eth0" },
    { virtual_machine: id("@29.1"), name: "eth0" },
  ]);
  const onVm = (label: string) => ({ assigned_object_type: "virtualization.vminterface", assigned_object_id: id(label) });
  await create(api, ids, 31, "/api/ipam/ip-addresses/", [
    { address: `${net4}.50/25`, status: "active", ...onVm("@30.0") },
    { address: `${net4}.51/25`, status: "active", ...onVm("@30.1") },
  ]);
  await update(api, `/api/virtualization/virtual-machines/${id("@29.0")}/`, { primary_ip4: id("@31.0") });

  await create(api, ids, 33, "/api/circuits/providers/", { name: `${run} Lumen`, slug: `${run}-lumen` });
  await create(api, ids, 34, "/api/circuits/circuit-types/", { name: `${run} Transit`, slug: `${run}-transit` });
  await create(api, ids, 35, "/api/circuits/circuits/", {
    cid: `${run}-CKT-1`,
    provider: id("@33"),
    type: id("@34"),
    status: "active",
    tenant: customer,
    commit_rate: 10000,
    description: "internet",
  });
  await create(api, ids, 36, "/api/circuits/circuit-terminations/", {
    circuit: id("@35"),
    term_side: "A",
    termination_type: "dcim.site",
    termination_id: fra1,
    port_speed: 10000,
  });
  await create(api, ids, 37, "/api/dcim/cables/", {
    a_terminations: [iface("@12.11")],
    b_terminations: [{ object_type: "circuits.circuittermination", object_id: id("@36") }],
    label: `${run}-C4`,
    status: "connected",
  });

  await create(api, ids, 38, "/api/extras/config-contexts/", {
    name: `${run}-gq-ams1`,
    weight: 1000,
    sites: [ams1],
    data: { dns: ["192.0.2.53"], syslog: { host: "log.example.net" } },
  });
  await create(api, ids, 39, "/api/extras/config-contexts/", {
    name: `${run}-gq-spine`,
    weight: 2000,
    roles: [spine],
    data: { bgp: { asn: 65001 }, dns: ["198.51.100.53"] },
  });
  return ids;
}

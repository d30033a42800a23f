import type { ContractSpec } from "../support/contract.ts";
import { make, named } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

const five = <T>(fn: (i: number) => T) => [1, 2, 3, 4, 5].map(fn);

/** Contract rows of the IPAM models. */
export const specs: ContractSpec[] = [
  {
    objectType: "ipam.rir",
    create: () => named("Registry", (i) => ({ is_private: i % 2 === 0 })),
    patch: { description: "changed", is_private: true },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "ipam.aggregate",
    fixtures: async (api) => ({
      rir: await make(api, "/api/ipam/rirs/", { name: "ARIN", slug: "arin" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Aggregate owner", slug: "aggregate-owner" }),
    }),
    create: (fx) =>
      five((i) => ({
        prefix: i === 5 ? `2001:db8:${i}::/48` : `10.${i}.0.0/16`,
        rir: fx.rir,
        tenant: i === 1 ? fx.tenant : null,
        date_added: `2024-01-0${i}`,
      })),
    patch: { description: "changed", date_added: "2025-02-03" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { prefix: "10.200.0.5/16", rir: 1 }, field: "prefix" },
  },
  {
    objectType: "ipam.asn",
    fixtures: async (api) => ({ rir: await make(api, "/api/ipam/rirs/", { name: "RIPE", slug: "ripe" }) }),
    create: (fx) => five((i) => ({ asn: 64_511 + i, rir: i === 1 ? fx.rir : null, description: `as ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { asn: 0 }, field: "asn" },
  },
  {
    objectType: "ipam.asnrange",
    fixtures: async (api) => ({ rir: await make(api, "/api/ipam/rirs/", { name: "APNIC", slug: "apnic" }) }),
    create: (fx) => named("Private", (i) => ({ rir: fx.rir, start: 64_512 + i * 10, end: 64_512 + i * 10 + 9 })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", rir: 1, start: 0, end: 5 }, field: "start" },
  },
  {
    objectType: "ipam.routetarget",
    create: () => five((i) => ({ name: `65000:${i}`, description: `rt ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "65000:123456789012345678" }, field: "name" },
  },
  {
    objectType: "ipam.vrf",
    fixtures: async (api) => ({
      rt1: await make(api, "/api/ipam/route-targets/", { name: "65001:1" }),
      rt2: await make(api, "/api/ipam/route-targets/", { name: "65001:2" }),
    }),
    create: (fx) =>
      five((i) => ({
        name: `vrf${i}`,
        rd: i === 3 ? null : `65000:${i}`,
        enforce_unique: i !== 2,
        import_targets: i === 1 ? [fx.rt1, fx.rt2] : [],
        export_targets: i === 1 ? [fx.rt1] : [],
      })),
    patch: { description: "changed", enforce_unique: false },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "bad", rd: "x".repeat(30) }, field: "rd" },
  },
  {
    objectType: "ipam.role",
    create: () => named("Role", (i) => ({ weight: 100 * i })),
    patch: { description: "changed", weight: 5 },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", weight: -1 }, field: "weight" },
  },
  {
    objectType: "ipam.prefix",
    fixtures: async (api) => ({
      vrf: await make(api, "/api/ipam/vrfs/", { name: "prefix-vrf", rd: "65100:1" }),
      site: await make(api, "/api/dcim/sites/", { name: "Prefix site", slug: "prefix-site" }),
      role: await make(api, "/api/ipam/roles/", { name: "Prefix role", slug: "prefix-role" }),
      vlan: await make(api, "/api/ipam/vlans/", { vid: 100, name: "prefix-vlan" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Prefix owner", slug: "prefix-owner" }),
    }),
    create: (fx) =>
      five((i) => ({
        prefix: i === 4 ? `2001:db8:${i}::/64` : `10.20.${i}.0/24`,
        vrf: i === 1 ? fx.vrf : null,
        site: i === 1 ? fx.site : null,
        role: i === 1 ? fx.role : null,
        vlan: i === 1 ? fx.vlan : null,
        tenant: i === 1 ? fx.tenant : null,
        status: i === 3 ? "container" : "active",
        is_pool: i === 2,
      })),
    patch: { description: "changed", status: "reserved" },
    bulkPatch: { mark_utilized: true },
    invalid: { body: { prefix: "10.30.0.5/24" }, field: "prefix" },
  },
  {
    objectType: "ipam.iprange",
    fixtures: async (api) => ({ vrf: await make(api, "/api/ipam/vrfs/", { name: "range-vrf" }) }),
    create: (fx) =>
      five((i) => ({
        start_address: i === 5 ? "2001:db8::10/64" : `10.40.${i}.10/24`,
        end_address: i === 5 ? "2001:db8::20/64" : `10.40.${i}.20/24`,
        vrf: i === 1 ? fx.vrf : null,
        status: i === 2 ? "reserved" : "active",
      })),
    patch: { description: "changed", status: "deprecated" },
    bulkPatch: { mark_utilized: true },
    invalid: { body: { start_address: "10.50.0.10/24", end_address: "not an address" }, field: "end_address" },
  },
  {
    objectType: "ipam.ipaddress",
    fixtures: async (api) => {
      const device = await fixtureDevice(api, "ip");
      return {
        device,
        iface: await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" }),
        vrf: await make(api, "/api/ipam/vrfs/", { name: "ip-vrf", rd: "65200:1" }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Address owner", slug: "address-owner" }),
      };
    },
    create: (fx) =>
      five((i) => ({
        address: i === 4 ? `2001:db8::${i}/64` : `10.60.0.${i}/24`,
        vrf: i === 1 ? fx.vrf : null,
        tenant: i === 1 ? fx.tenant : null,
        status: i === 2 ? "reserved" : "active",
        role: i === 3 ? "vip" : null,
        dns_name: `host${i}.example.com`,
        ...(i === 1 ? { assigned_object_type: "dcim.interface", assigned_object_id: fx.iface } : {}),
      })),
    patch: { description: "changed", status: "deprecated" },
    bulkPatch: { dns_name: "bulk.example.com" },
    invalid: { body: { address: "10.70.0.300/24" }, field: "address" },
  },
  {
    objectType: "ipam.vlangroup",
    fixtures: async (api) => ({ site: await make(api, "/api/dcim/sites/", { name: "VLAN site", slug: "vlan-site" }) }),
    create: (fx) =>
      named("Group", (i) => ({ vid_ranges: [[1, 100 * i]], ...(i !== 2 ? { scope_type: "dcim.site", scope_id: fx.site } : {}) })),
    patch: { description: "changed" },
    bulkPatch: {
      vid_ranges: [
        [10, 20],
        [30, 40],
      ],
    },
    invalid: { body: { name: "Bad", slug: "bad", vid_ranges: [[5]] }, field: "vid_ranges" },
  },
  {
    objectType: "ipam.vlan",
    fixtures: async (api) => ({
      site: await make(api, "/api/dcim/sites/", { name: "VLAN home", slug: "vlan-home" }),
      group: await make(api, "/api/ipam/vlan-groups/", { name: "Campus", slug: "campus-vlans" }),
      role: await make(api, "/api/ipam/roles/", { name: "VLAN role", slug: "vlan-role" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "VLAN owner", slug: "vlan-owner" }),
    }),
    create: (fx) =>
      five((i) => ({
        vid: 10 * i,
        name: `vlan${i}`,
        group: i === 1 ? fx.group : null,
        site: i === 1 ? fx.site : null,
        role: i === 1 ? fx.role : null,
        tenant: i === 1 ? fx.tenant : null,
        status: i === 2 ? 2 : 1,
        qinq_role: i === 3 ? "svlan" : null,
      })),
    patch: { description: "changed", status: 3 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { vid: 5000, name: "bad" }, field: "vid" },
  },
  {
    objectType: "ipam.servicetemplate",
    create: () => five((i) => ({ name: `template${i}`, protocol: i === 2 ? "udp" : "tcp", ports: [20 + i, 8000 + i] })),
    patch: { description: "changed", comments: "changed" },
    bulkPatch: { ports: [443] },
    invalid: { body: { name: "bad", protocol: "tcp", ports: [70000] }, field: "ports" },
  },
  {
    objectType: "ipam.service",
    fixtures: async (api) => {
      const device = await fixtureDevice(api, "svc");
      return { device, ip: await make(api, "/api/ipam/ip-addresses/", { address: "10.90.0.1/24" }) };
    },
    create: (fx) =>
      five((i) => ({
        device: fx.device,
        name: `svc${i}`,
        protocol: i === 2 ? "sctp" : "tcp",
        ports: [i],
        ipaddresses: i === 1 ? [fx.ip] : [],
      })),
    patch: { description: "changed" },
    bulkPatch: { ports: [22, 23] },
    invalid: { body: { name: "bad", protocol: "icmp", ports: [1] }, field: "protocol" },
  },
  {
    objectType: "ipam.fhrpgroup",
    fixtures: async (api) => ({ tag: await make(api, "/api/extras/tags/", { name: "fhrp", slug: "fhrp" }) }),
    create: (fx) =>
      five((i) => ({
        name: i === 1 ? "edge" : "",
        protocol: i === 2 ? "hsrp" : "vrrp2",
        group_id: i,
        auth_type: i === 3 ? "md5" : null,
        auth_key: i === 3 ? "secret" : "",
        tags: i === 2 ? [] : [fx.tag],
      })),
    notEchoed: ["tags"],
    patch: { description: "changed", auth_key: "changed" },
    bulkPatch: { group_id: 99 },
    invalid: { body: { protocol: "vrrp2", group_id: 40000 }, field: "group_id" },
  },
  {
    objectType: "ipam.fhrpgroupassignment",
    fixtures: async (api) => {
      const device = await fixtureDevice(api, "fhrp");
      const fx: Record<string, number> = { group: await make(api, "/api/ipam/fhrp-groups/", { protocol: "vrrp3", group_id: 1 }) };
      for (const i of [1, 2, 3, 4, 5])
        fx[`if${i}`] = await make(api, "/api/dcim/interfaces/", { device, name: `ge${i}`, type: "1000base-t" });
      return fx;
    },
    create: (fx) => five((i) => ({ group: fx.group, interface_type: "dcim.interface", interface_id: fx[`if${i}`], priority: 100 + i })),
    patch: { priority: 200 },
    // The display names the priority (`ge1: VRRPv3: 1 (200)`), as NetBox writes it.
    notEchoed: ["display"],
    bulkPatch: { priority: 50 },
    invalid: { body: { group: 1, interface_type: "dcim.interface", interface_id: 1, priority: 300 }, field: "priority" },
  },
];

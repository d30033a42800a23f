import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

/** Five interfaces of one device, `i1` to `i5`: one termination each. */
const fixtureInterfaces = async (api: Harness, tag: string) => {
  const device = await fixtureDevice(api, tag);
  const out: Record<string, number> = { device };
  for (const i of [1, 2, 3, 4, 5]) out[`i${i}`] = await make(api, "/api/dcim/interfaces/", { device, name: `eth${i}`, type: "1000base-t" });
  return out;
};

/** An IKE policy and an IPSec policy, what every IPSec profile needs. */
const fixturePolicies = async (api: Harness) => ({
  ike: await make(api, "/api/vpn/ike-policies/", { name: "IKE main", version: 1, mode: "main" }),
  ipsec: await make(api, "/api/vpn/ipsec-policies/", { name: "IPSec main" }),
});

/** Contract rows of the vpn app. */
export const specs: ContractSpec[] = [
  {
    objectType: "vpn.tunnelgroup",
    create: () => named("Overlay", (i) => ({ description: `overlay ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "vpn.tunnel",
    fixtures: async (api) => ({
      group: await make(api, "/api/vpn/tunnel-groups/", { name: "Hub and spoke", slug: "hub-spoke" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Tunnel owner", slug: "tunnel-owner" }),
      profile: await fixturePolicies(api).then(({ ike, ipsec }) =>
        make(api, "/api/vpn/ipsec-profiles/", { name: "Profile", mode: "esp", ike_policy: ike, ipsec_policy: ipsec }),
      ),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `Tunnel ${i}`,
        status: i === 2 ? "planned" : "active",
        group: i <= 3 ? fx.group : null,
        encapsulation: i === 1 ? "ipsec-tunnel" : "gre",
        ipsec_profile: i === 1 ? fx.profile : null,
        tenant: i === 1 ? fx.tenant : null,
        tunnel_id: i === 5 ? null : 100 + i,
      })),
    patch: { description: "changed", status: "disabled", tunnel_id: 900 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", encapsulation: "carrier-pigeon" }, field: "encapsulation" },
  },
  {
    objectType: "vpn.tunneltermination",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Site vm-tt", slug: "site-vm-tt" });
      const vm = await make(api, "/api/virtualization/virtual-machines/", { name: "vm-tt", site });
      return {
        ...(await fixtureInterfaces(api, "tt")),
        vmi: await make(api, "/api/virtualization/interfaces/", { virtual_machine: vm, name: "eth0" }),
        tunnel: await make(api, "/api/vpn/tunnels/", { name: "Backbone", encapsulation: "gre" }),
        ip: await make(api, "/api/ipam/ip-addresses/", { address: "192.0.2.1/24" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        tunnel: fx.tunnel,
        role: i === 1 ? "hub" : "spoke",
        termination_type: i === 5 ? "virtualization.vminterface" : "dcim.interface",
        termination_id: i === 5 ? fx.vmi : fx[`i${i}`],
        outside_ip: i === 1 ? fx.ip : null,
      })),
    patch: { role: "peer" },
    bulkPatch: { role: "peer" },
    invalid: { body: { tunnel: 1, role: "boss", termination_type: "dcim.interface", termination_id: 1 }, field: "role" },
  },
  {
    objectType: "vpn.ikeproposal",
    create: () =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `IKE proposal ${i}`,
        authentication_method: i === 1 ? "certificates" : "preshared-keys",
        encryption_algorithm: "aes-256-cbc",
        authentication_algorithm: i === 2 ? null : "hmac-sha256",
        group: i === 1 ? 14 : 19,
        sa_lifetime: i === 3 ? null : 3600 * i,
      })),
    patch: { description: "changed", group: 20, sa_lifetime: 28800 },
    bulkPatch: { comments: "bulk" },
    invalid: {
      body: { name: "Bad", authentication_method: "preshared-keys", encryption_algorithm: "aes-256-cbc", group: 3 },
      field: "group",
    },
  },
  {
    objectType: "vpn.ikepolicy",
    fixtures: async (api) => {
      const proposal = (name: string) =>
        make(api, "/api/vpn/ike-proposals/", {
          name,
          authentication_method: "preshared-keys",
          encryption_algorithm: "aes-128-cbc",
          group: 14,
        });
      return { p1: await proposal("P1"), p2: await proposal("P2") };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `IKE policy ${i}`,
        version: i === 1 ? 1 : 2,
        mode: i === 1 ? "aggressive" : null,
        proposals: i <= 2 ? [fx.p1, fx.p2] : [],
        preshared_key: i === 3 ? "s3cret" : "",
      })),
    patch: { description: "changed", preshared_key: "rotated" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", version: 3 }, field: "version" },
  },
  {
    objectType: "vpn.ipsecproposal",
    create: () =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `IPSec proposal ${i}`,
        encryption_algorithm: i === 1 ? null : "aes-256-gcm",
        authentication_algorithm: i === 2 ? null : "hmac-sha512",
        sa_lifetime_seconds: i === 3 ? null : 3600,
        sa_lifetime_data: i === 4 ? 100000 : null,
      })),
    patch: { description: "changed", sa_lifetime_seconds: 7200 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", encryption_algorithm: "rot13" }, field: "encryption_algorithm" },
  },
  {
    objectType: "vpn.ipsecpolicy",
    fixtures: async (api) => ({
      p1: await make(api, "/api/vpn/ipsec-proposals/", { name: "ESP AES", encryption_algorithm: "aes-256-cbc" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({ name: `IPSec policy ${i}`, proposals: i <= 2 ? [fx.p1] : [], pfs_group: i === 1 ? null : 14 })),
    patch: { description: "changed", pfs_group: 21 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", pfs_group: 4 }, field: "pfs_group" },
  },
  {
    objectType: "vpn.ipsecprofile",
    fixtures: fixturePolicies,
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `IPSec profile ${i}`,
        mode: i === 1 ? "ah" : "esp",
        ike_policy: fx.ike,
        ipsec_policy: fx.ipsec,
      })),
    patch: { description: "changed", mode: "ah" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", mode: "gre", ike_policy: 1, ipsec_policy: 1 }, field: "mode" },
  },
  {
    objectType: "vpn.l2vpn",
    fixtures: async (api) => ({
      rt1: await make(api, "/api/ipam/route-targets/", { name: "65000:1" }),
      rt2: await make(api, "/api/ipam/route-targets/", { name: "65000:2" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "L2VPN owner", slug: "l2vpn-owner" }),
    }),
    create: (fx) =>
      named("Fabric", (i) => ({
        type: i === 1 ? "vxlan-evpn" : "vpls",
        identifier: i === 5 ? null : 10000 + i,
        import_targets: i <= 2 ? [fx.rt1] : [],
        export_targets: i === 1 ? [fx.rt1, fx.rt2] : [],
        tenant: i === 1 ? fx.tenant : null,
      })),
    patch: { description: "changed", type: "vxlan" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", type: "frame-relay" }, field: "type" },
  },
  {
    objectType: "vpn.l2vpntermination",
    fixtures: async (api) => ({
      ...(await fixtureInterfaces(api, "l2")),
      l2vpn: await make(api, "/api/vpn/l2vpns/", { name: "Campus", slug: "campus", type: "vxlan" }),
      other: await make(api, "/api/vpn/l2vpns/", { name: "Metro", slug: "metro", type: "vpls", identifier: 7 }),
      vlan: await make(api, "/api/ipam/vlans/", { vid: 100, name: "users" }),
      tag: await make(api, "/api/extras/tags/", { name: "Edge", slug: "edge" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        l2vpn: i === 4 ? fx.other : fx.l2vpn,
        assigned_object_type: i === 5 ? "ipam.vlan" : "dcim.interface",
        assigned_object_id: i === 5 ? fx.vlan : fx[`i${i}`],
        tags: i % 2 ? [fx.tag] : [],
      })),
    // Its only writable fields are references, and changing either changes its display (which
    // the PATCH contract keeps) and needs a view of the target (which the security suite's
    // constrained user lacks): the change empties the tag set the first object is made with
    // (an object made untagged would change only its last_updated, and not at all within the
    // millisecond it was made in).
    patch: { tags: [] },
    bulkPatch: { l2vpn: { slug: "metro" } },
    notEchoed: ["l2vpn"],
    invalid: { body: { l2vpn: 1, assigned_object_type: "dcim.site", assigned_object_id: 1 }, field: "assigned_object_type" },
  },
];

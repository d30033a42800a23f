import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

/** A provider and a circuit type, what every circuit needs. */
export const fixtureCircuitBasics = async (api: Harness, tag: string) => ({
  provider: await make(api, "/api/circuits/providers/", { name: `Carrier ${tag}`, slug: `carrier-${tag}` }),
  type: await make(api, "/api/circuits/circuit-types/", { name: `Transit ${tag}`, slug: `transit-${tag}` }),
});

/** Contract rows of the circuits app. */
export const specs: ContractSpec[] = [
  {
    objectType: "circuits.provider",
    create: () => named("Carrier", (i) => ({ description: `carrier ${i}`, comments: i === 1 ? "tier 1" : "" })),
    patch: { description: "changed", comments: "notes" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "circuits.provideraccount",
    fixtures: async (api) => ({ provider: await make(api, "/api/circuits/providers/", { name: "Acme", slug: "acme" }) }),
    create: (fx) => [1, 2, 3, 4, 5].map((i) => ({ provider: fx.provider, account: `ACCT-${i}`, name: i % 2 ? `Account ${i}` : "" })),
    patch: { description: "changed", comments: "billing" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { provider: 1, account: "" }, field: "account" },
  },
  {
    objectType: "circuits.providernetwork",
    fixtures: async (api) => ({ provider: await make(api, "/api/circuits/providers/", { name: "Backbone", slug: "backbone" }) }),
    create: (fx) => [1, 2, 3, 4, 5].map((i) => ({ provider: fx.provider, name: `MPLS ${i}`, service_id: i === 1 ? "SVC-1" : "" })),
    patch: { description: "changed", service_id: "SVC-9" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { provider: 1, name: "" }, field: "name" },
  },
  {
    objectType: "circuits.circuittype",
    create: () => named("Transit", (i) => ({ color: i === 1 ? "aa1409" : "", description: `type ${i}` })),
    patch: { description: "changed", color: "00ff00" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", color: "red" }, field: "color" },
  },
  {
    objectType: "circuits.circuit",
    fixtures: async (api) => {
      const basics = await fixtureCircuitBasics(api, "c");
      return {
        ...basics,
        account: await make(api, "/api/circuits/provider-accounts/", { provider: basics.provider, account: "A-100" }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Circuit owner", slug: "circuit-owner" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        cid: `CID-${i}`,
        provider: fx.provider,
        type: fx.type,
        provider_account: i <= 2 ? fx.account : null,
        status: i === 3 ? "planned" : "active",
        tenant: i === 1 ? fx.tenant : null,
        install_date: `2024-01-0${i}`,
        termination_date: i === 1 ? "2029-12-31" : null,
        commit_rate: 1000 * i,
        distance: i === 1 ? 12.5 : null,
        distance_unit: i === 1 ? "km" : null,
      })),
    patch: { description: "changed", status: "offline", commit_rate: 20000 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { cid: "bad", provider: 1, type: 1, status: "broken" }, field: "status" },
  },
  {
    objectType: "circuits.circuittermination",
    fixtures: async (api) => {
      const { provider, type } = await fixtureCircuitBasics(api, "t");
      const circuit = (cid: string) => make(api, "/api/circuits/circuits/", { cid, provider, type });
      return {
        c1: await circuit("T-1"),
        c2: await circuit("T-2"),
        c3: await circuit("T-3"),
        site: await make(api, "/api/dcim/sites/", { name: "POP", slug: "pop" }),
        network: await make(api, "/api/circuits/provider-networks/", { provider, name: "Cloud" }),
      };
    },
    create: (fx) =>
      (
        [
          ["c1", "A"],
          ["c1", "Z"],
          ["c2", "A"],
          ["c2", "Z"],
          ["c3", "A"],
        ] as const
      ).map(([c, side], i) => ({
        circuit: fx[c],
        term_side: side,
        termination_type: i % 2 ? "circuits.providernetwork" : "dcim.site",
        termination_id: i % 2 ? fx.network : fx.site,
        port_speed: 10000 * (i + 1),
        upstream_speed: i === 0 ? 5000 : null,
        xconnect_id: `XC-${i}`,
        pp_info: i === 0 ? "PP1/1" : "",
      })),
    patch: { description: "changed", port_speed: 1000 },
    bulkPatch: { mark_connected: true },
    invalid: { body: { circuit: 1, term_side: "B", termination_type: "dcim.site", termination_id: 1 }, field: "term_side" },
  },
  {
    objectType: "circuits.circuitgroup",
    fixtures: async (api) => ({ tenant: await make(api, "/api/tenancy/tenants/", { name: "Group owner", slug: "group-owner" }) }),
    create: (fx) => named("Ring", (i) => ({ tenant: i === 1 ? fx.tenant : null, description: `ring ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "circuits.circuitgroupassignment",
    fixtures: async (api) => {
      const { provider, type } = await fixtureCircuitBasics(api, "g");
      const group = (slug: string) => make(api, "/api/circuits/circuit-groups/", { name: slug, slug });
      return {
        c1: await make(api, "/api/circuits/circuits/", { cid: "G-1", provider, type }),
        c2: await make(api, "/api/circuits/circuits/", { cid: "G-2", provider, type }),
        g1: await group("east"),
        g2: await group("west"),
        g3: await group("north"),
        tag: await make(api, "/api/extras/tags/", { name: "Backbone", slug: "backbone" }),
      };
    },
    create: (fx) =>
      (
        [
          ["c1", "g1"],
          ["c2", "g1"],
          ["c1", "g2"],
          ["c2", "g2"],
          ["c1", "g3"],
        ] as const
      ).map(([c, g], i) => ({
        member_type: "circuits.circuit",
        member_id: fx[c],
        group: fx[g],
        priority: i === 0 ? "primary" : null,
        tags: i % 2 ? [] : [fx.tag],
      })),
    // The display names the priority, so the single-object change leaves it alone: it empties
    // the tag set the first object is made with (untagged, only its last_updated would change,
    // and not at all within the millisecond it was made in).
    patch: { tags: [] },
    bulkPatch: { priority: "secondary" },
    invalid: { body: { member_type: "circuits.circuit", member_id: 1, group: 1, priority: "first" }, field: "priority" },
  },
  {
    objectType: "circuits.virtualcircuittype",
    create: () => named("Overlay", (i) => ({ color: i === 1 ? "aa1409" : "", description: `type ${i}` })),
    patch: { description: "changed", color: "00ff00" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", color: "red" }, field: "color" },
  },
  {
    objectType: "circuits.virtualcircuit",
    fixtures: async (api) => {
      const provider = await make(api, "/api/circuits/providers/", { name: "Carrier v", slug: "carrier-v" });
      return {
        network: await make(api, "/api/circuits/provider-networks/", { provider, name: "MPLS" }),
        account: await make(api, "/api/circuits/provider-accounts/", { provider, account: "V-100" }),
        type: await make(api, "/api/circuits/virtual-circuit-types/", { name: "EVPL", slug: "evpl" }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Virtual owner", slug: "virtual-owner" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        cid: `VC-${i}`,
        provider_network: fx.network,
        provider_account: i <= 2 ? fx.account : null,
        type: fx.type,
        status: i === 3 ? "planned" : "active",
        tenant: i === 1 ? fx.tenant : null,
      })),
    patch: { description: "changed", status: "offline" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { cid: "bad", provider_network: 1, type: 1, status: "broken" }, field: "status" },
  },
  {
    objectType: "circuits.virtualcircuittermination",
    fixtures: async (api) => {
      const provider = await make(api, "/api/circuits/providers/", { name: "Carrier vt", slug: "carrier-vt" });
      const provider_network = await make(api, "/api/circuits/provider-networks/", { provider, name: "Fabric" });
      const type = await make(api, "/api/circuits/virtual-circuit-types/", { name: "Hub and spoke", slug: "hub-spoke" });
      const device = await fixtureDevice(api, "vct");
      const out: Record<string, number> = {
        vc1: await make(api, "/api/circuits/virtual-circuits/", { cid: "VT-1", provider_network, type }),
        vc2: await make(api, "/api/circuits/virtual-circuits/", { cid: "VT-2", provider_network, type }),
      };
      for (let i = 0; i < 5; i++) out[`i${i}`] = await make(api, "/api/dcim/interfaces/", { device, name: `sub${i}`, type: "virtual" });
      return out;
    },
    create: (fx) =>
      [0, 1, 2, 3, 4].map((i) => ({
        virtual_circuit: i < 3 ? fx.vc1 : fx.vc2,
        role: i === 0 ? "hub" : i < 3 ? "spoke" : "peer",
        interface: fx[`i${i}`],
        description: `end ${i}`,
      })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { virtual_circuit: 1, interface: 1, role: "leaf" }, field: "role" },
  },
];

import type { ContractSpec } from "../support/contract.ts";
import { make } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

/** Contract rows of NetBox 4.2's virtual device contexts, cable terminations and VLAN translation. */
export const specs: ContractSpec[] = [
  {
    objectType: "dcim.virtualdevicecontext",
    fixtures: async (api) => ({
      device: await fixtureDevice(api, "vdc"),
      other: await fixtureDevice(api, "vdc2"),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "VDC owner", slug: "vdc-owner" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `vdc-${i}`,
        device: i === 5 ? fx.other : fx.device,
        identifier: i === 4 ? null : i,
        status: i === 2 ? "planned" : "active",
        tenant: i === 1 ? fx.tenant : null,
        comments: `context ${i}`,
      })),
    patch: { description: "changed", status: "offline" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "bad", device: 1, status: "sleeping" }, field: "status" },
  },
  {
    objectType: "dcim.cabletermination",
    readOnly: true,
    fixtures: async (api) => {
      const device = await fixtureDevice(api, "ct");
      const port = (name: string) => make(api, "/api/dcim/interfaces/", { device, name, type: "1000base-t" });
      const [a, b] = [await port("eth0"), await port("eth1")];
      return {
        cable: await make(api, "/api/dcim/cables/", {
          a_terminations: [{ object_type: "dcim.interface", object_id: a }],
          b_terminations: [{ object_type: "dcim.interface", object_id: b }],
        }),
      };
    },
  },
  {
    objectType: "ipam.vlantranslationpolicy",
    create: () => [1, 2, 3, 4, 5].map((i) => ({ name: `policy-${i}`, description: `policy ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "" }, field: "name" },
  },
  {
    objectType: "ipam.vlantranslationrule",
    fixtures: async (api) => ({
      policy: await make(api, "/api/ipam/vlan-translation-policies/", { name: "Edge" }),
      other: await make(api, "/api/ipam/vlan-translation-policies/", { name: "Core" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        policy: i === 5 ? fx.other : fx.policy,
        local_vid: 100 + i,
        remote_vid: 200 + i,
        description: `rule ${i}`,
      })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { policy: 1, local_vid: 5000, remote_vid: 10 }, field: "local_vid" },
  },
];

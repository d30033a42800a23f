import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

const iface = (object_id: number) => [{ object_type: "dcim.interface", object_id }];

/** Contract rows of cables: five cables, each between two interfaces of its own. */
export const specs: ContractSpec[] = [
  {
    objectType: "dcim.cable",
    fixtures: async (api: Harness) => {
      const device = await fixtureDevice(api, "cbl");
      const fx: Record<string, number> = {
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Cable owner", slug: "cable-owner" }),
      };
      for (let i = 0; i < 10; i++)
        fx[`if${i}`] = await make(api, "/api/dcim/interfaces/", { device, name: `eth${i}`, type: "10gbase-x-sfpp" });
      return fx;
    },
    create: (fx) =>
      [0, 1, 2, 3, 4].map((i) => ({
        a_terminations: iface(fx[`if${2 * i}`]),
        b_terminations: iface(fx[`if${2 * i + 1}`]),
        type: i % 2 ? "smf" : "cat6",
        status: i === 2 ? "planned" : "connected",
        label: `C${i}`,
        color: i === 0 ? "00ff00" : "",
        length: i === 0 ? 2.5 : null,
        length_unit: i === 0 ? "m" : null,
        tenant: i === 0 ? fx.tenant : null,
        description: `cable ${i}`,
      })),
    // Not `description` or `label`: they are in the cable's brief form, which each termination's
    // nested endpoint carries (`object.cable`), so changing them changes the terminations too.
    patch: { comments: "changed", status: "decommissioning" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { a_terminations: [], b_terminations: [], status: "cut" }, field: "status" },
    notEchoed: ["a_terminations", "b_terminations"],
  },
];

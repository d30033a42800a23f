import type { ContractSpec } from "../support/contract.ts";
import { make } from "./fixtures.ts";

/** Contract row of object permissions. */
export const specs: ContractSpec[] = [
  {
    objectType: "users.objectpermission",
    fixtures: async (api) => ({
      group: await make(api, "/api/users/groups/", { name: "NOC" }),
      user: await make(api, "/api/users/users/", { username: "noc1", password: "Noc-password-1" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `Permission ${i}`,
        description: `grant ${i}`,
        enabled: i !== 3,
        object_types: i % 2 ? ["dcim.site", "dcim.device"] : ["tenancy.tenant"],
        actions: i === 1 ? ["view"] : ["view", "change"],
        constraints: i === 2 ? { slug__in: ["a", "b"] } : i === 4 ? [{ name: "x" }, { group__slug: "y" }] : null,
        groups: i % 2 ? [fx.group] : [],
        users: i === 5 ? [fx.user] : [],
      })),
    patch: { description: "changed", enabled: false },
    bulkPatch: { description: "bulk" },
    invalid: {
      body: { name: "Bad", object_types: ["dcim.site"], actions: ["view"], constraints: { no_such_field: 1 } },
      field: "constraints",
    },
  },
];

import type { ContractSpec } from "../support/contract.ts";
import { make } from "./fixtures.ts";

/** Contract rows of config contexts, config templates and object types. */
export const specs: ContractSpec[] = [
  {
    objectType: "extras.configcontext",
    fixtures: async (api) => {
      const region = await make(api, "/api/dcim/regions/", { name: "Context region", slug: "context-region" });
      const group = await make(api, "/api/tenancy/tenant-groups/", { name: "Context tenants", slug: "context-tenants" });
      return {
        region,
        site: await make(api, "/api/dcim/sites/", { name: "Context site", slug: "context-site", region }),
        role: await make(api, "/api/dcim/device-roles/", { name: "Context role", slug: "context-role" }),
        tenantGroup: group,
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Context tenant", slug: "context-tenant", group }),
        clusterType: await make(api, "/api/virtualization/cluster-types/", { name: "Context type", slug: "context-type" }),
        tag: await make(api, "/api/extras/tags/", { name: "Context tag", slug: "context-tag" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `context ${i}`,
        weight: 100 * i,
        is_active: i !== 3,
        data: { ntp: { servers: [`10.0.0.${i}`] }, level: i },
        regions: i % 2 ? [fx.region] : [],
        sites: i === 1 ? [fx.site] : [],
        roles: [fx.role],
        tenant_groups: i === 1 ? [fx.tenantGroup] : [],
        tenants: i <= 2 ? [fx.tenant] : [],
        cluster_types: i === 1 ? [fx.clusterType] : [],
        tags: i === 1 ? ["context-tag"] : [],
      })),
    patch: { description: "changed", weight: 10, data: { changed: true }, roles: [] },
    bulkPatch: { is_active: false },
    invalid: { body: { name: "bad", data: "not an object" }, field: "data" },
  },
  {
    objectType: "extras.configtemplate",
    create: () =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `template ${i}`,
        description: i % 2 ? "odd" : "",
        template_code: `hostname {{device.name}}-${i}`,
        environment_params: { trim_blocks: i === 1 },
      })),
    patch: { description: "changed", template_code: "changed {{device.name}}" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "bad", template_code: "{{#open}}" }, field: "template_code" },
  },
  {
    objectType: "extras.objecttype",
    readOnly: true,
    // Every model's row is written at start.
    fixtures: async () => ({}),
  },
];

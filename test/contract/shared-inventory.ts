import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";

/** A device to hang components on, with everything it needs. */
export const fixtureDevice = async (api: Harness, tag: string) => {
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: `Maker ${tag}`, slug: `maker-${tag}` });
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: `Model ${tag}`, slug: `model-${tag}` });
  const role = await make(api, "/api/dcim/device-roles/", { name: `Role ${tag}`, slug: `role-${tag}` });
  const site = await make(api, "/api/dcim/sites/", { name: `Site ${tag}`, slug: `site-${tag}` });
  return make(api, "/api/dcim/devices/", { name: `dev-${tag}`, device_type, role, site });
};

/** Contract rows of the models several areas build on: locations, clusters, front and rear ports. */
export const specs: ContractSpec[] = [
  {
    objectType: "dcim.location",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Campus", slug: "campus" });
      return {
        site,
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Floor owner", slug: "floor-owner" }),
        parent: await make(api, "/api/dcim/locations/", { name: "Building A", slug: "building-a", site }),
      };
    },
    create: (fx) =>
      named("Room", (i) => ({
        site: fx.site,
        parent: i % 2 ? fx.parent : null,
        status: i === 2 ? "planned" : "active",
        tenant: i === 3 ? fx.tenant : null,
        facility: `R${i}`,
      })),
    patch: { description: "changed", status: "retired" },
    bulkPatch: { facility: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", site: 1, status: "gone" }, field: "status" },
    existing: 1,
  },
  {
    objectType: "virtualization.clustertype",
    create: () => named("Hypervisor", (i) => ({ description: `type ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "virtualization.clustergroup",
    create: () => named("Farm", (i) => ({ comments: `farm ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "", slug: "empty" }, field: "name" },
  },
  {
    objectType: "virtualization.cluster",
    fixtures: async (api) => ({
      type: await make(api, "/api/virtualization/cluster-types/", { name: "VMware", slug: "vmware" }),
      group: await make(api, "/api/virtualization/cluster-groups/", { name: "Prod", slug: "prod" }),
      site: await make(api, "/api/dcim/sites/", { name: "DC-V", slug: "dc-v" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `cluster${i}`,
        type: fx.type,
        group: i % 2 ? fx.group : null,
        status: i === 4 ? "offline" : "active",
        ...(i <= 2 ? { scope_type: "dcim.site", scope_id: fx.site } : {}),
      })),
    patch: { description: "changed", status: "planned" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "bad", type: 1, status: "sleeping" }, field: "status" },
  },
  {
    objectType: "dcim.rearport",
    fixtures: async (api) => ({ device: await fixtureDevice(api, "rp") }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        device: fx.device,
        name: `rear${i}`,
        type: i % 2 ? "lc" : "mpo",
        positions: i,
        color: i === 1 ? "aa00ff" : "",
      })),
    patch: { description: "changed", label: "R" },
    bulkPatch: { mark_connected: true },
    invalid: { body: { device: 1, name: "bad", type: "lc", positions: 0 }, field: "positions" },
  },
  {
    objectType: "dcim.frontport",
    fixtures: async (api) => {
      const device = await fixtureDevice(api, "fp");
      return { device, rear: await make(api, "/api/dcim/rear-ports/", { device, name: "rear", type: "mpo", positions: 8 }) };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({ device: fx.device, name: `front${i}`, type: "lc", rear_port: fx.rear, rear_port_position: i })),
    patch: { description: "changed", color: "00ff00" },
    bulkPatch: { label: "bulk" },
    invalid: { body: { device: 1, name: "bad", type: "lc", rear_port: 1, rear_port_position: 2000 }, field: "rear_port_position" },
  },
];

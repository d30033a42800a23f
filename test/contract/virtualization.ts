import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make } from "./fixtures.ts";

/** A site with a cluster scoped to it and a host device in that cluster. */
const fixtureCluster = async (api: Harness, tag: string) => {
  const site = await make(api, "/api/dcim/sites/", { name: `Site ${tag}`, slug: `site-${tag}` });
  const type = await make(api, "/api/virtualization/cluster-types/", { name: `Type ${tag}`, slug: `type-${tag}` });
  const cluster = await make(api, "/api/virtualization/clusters/", {
    name: `cluster-${tag}`,
    type,
    scope_type: "dcim.site",
    scope_id: site,
  });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: `Maker ${tag}`, slug: `maker-${tag}` });
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: `Model ${tag}`, slug: `model-${tag}` });
  const role = await make(api, "/api/dcim/device-roles/", { name: `Role ${tag}`, slug: `role-${tag}` });
  const device = await make(api, "/api/dcim/devices/", { name: `host-${tag}`, device_type, role, site, cluster });
  return { site, cluster, device, role };
};

/** A virtual machine to hang interfaces and disks on. */
const fixtureVm = async (api: Harness, tag: string) => {
  const { site } = await fixtureCluster(api, tag);
  return make(api, "/api/virtualization/virtual-machines/", { name: `vm-${tag}`, site });
};

/** Contract rows of virtual machines, their interfaces and virtual disks. */
export const specs: ContractSpec[] = [
  {
    objectType: "virtualization.virtualmachine",
    fixtures: async (api) => ({
      ...(await fixtureCluster(api, "vm")),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "VM owner", slug: "vm-owner" }),
      platform: await make(api, "/api/dcim/platforms/", { name: "Linux", slug: "linux" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `vm${i}`,
        status: i === 2 ? "planned" : "active",
        ...(i === 1
          ? { site: fx.site, cluster: fx.cluster, device: fx.device, role: fx.role, tenant: fx.tenant, platform: fx.platform }
          : {}),
        ...(i > 1 ? (i % 2 ? { cluster: fx.cluster } : { site: fx.site }) : {}),
        vcpus: i === 1 ? 2.5 : i,
        memory: 1024 * i,
        disk: 10_000 * i,
        serial: `SN${i}`,
        local_context_data: i === 1 ? { ntp: ["10.0.0.1"] } : null,
      })),
    patch: { description: "changed", status: "staged", vcpus: 0.5 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "bad", site: 1, vcpus: 1.234 }, field: "vcpus" },
  },
  {
    objectType: "virtualization.vminterface",
    fixtures: async (api) => {
      const vm = await fixtureVm(api, "vmi");
      return { vm, parent: await make(api, "/api/virtualization/interfaces/", { virtual_machine: vm, name: "bond0" }) };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        virtual_machine: fx.vm,
        name: `eth${i}`,
        enabled: i !== 3,
        mtu: 1500 + i,
        mode: i === 2 ? "tagged" : null,
        ...(i === 1 ? { parent: fx.parent, bridge: fx.parent } : {}),
      })),
    patch: { description: "changed", mode: "access", mtu: 9000 },
    bulkPatch: { enabled: false },
    invalid: { body: { virtual_machine: 1, name: "bad", mtu: 0 }, field: "mtu" },
    existing: 1,
  },
  {
    objectType: "virtualization.virtualdisk",
    fixtures: async (api) => ({ vm: await fixtureVm(api, "vd") }),
    create: (fx) => [1, 2, 3, 4, 5].map((i) => ({ virtual_machine: fx.vm, name: `disk${i}`, size: 1024 * i, description: `disk ${i}` })),
    patch: { description: "changed", size: 4096 },
    bulkPatch: { description: "bulk" },
    invalid: { body: { virtual_machine: 1, name: "bad", size: -1 }, field: "size" },
  },
];

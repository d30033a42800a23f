import type { ContractSpec } from "../support/contract.ts";
import { make, named } from "./fixtures.ts";

/** Contract rows of the models the foundation and the engine brought. */
export const specs: ContractSpec[] = [
  {
    objectType: "tenancy.tenantgroup",
    fixtures: async (api) => ({ parent: await make(api, "/api/tenancy/tenant-groups/", { name: "Root", slug: "root" }) }),
    create: (fx) => named("Group", (i) => ({ parent: i % 2 ? fx.parent : null, description: `group ${i}` })),
    patch: { description: "changed", comments: "note" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "not a slug" }, field: "slug" },
    existing: 1,
  },
  {
    objectType: "tenancy.tenant",
    fixtures: async (api) => ({ group: await make(api, "/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" }) }),
    create: (fx) => named("Tenant", (i) => ({ group: i % 2 ? fx.group : null, comments: `c${i}` })),
    patch: { description: "changed", group: null },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", group: 424242 }, field: "group" },
  },
  {
    objectType: "dcim.region",
    fixtures: async (api) => ({ parent: await make(api, "/api/dcim/regions/", { name: "World", slug: "world" }) }),
    create: (fx) => named("Region", (i) => ({ parent: i % 2 ? fx.parent : null })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "", slug: "empty-name" }, field: "name" },
    existing: 1,
  },
  {
    objectType: "dcim.sitegroup",
    fixtures: async (api) => ({ parent: await make(api, "/api/dcim/site-groups/", { name: "All", slug: "all" }) }),
    create: (fx) => named("Site group", (i) => ({ parent: i % 2 ? fx.parent : null })).map((o, i) => ({ ...o, slug: `sg-${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "x".repeat(101), slug: "long" }, field: "name" },
    existing: 1,
  },
  {
    objectType: "dcim.site",
    fixtures: async (api) => ({
      region: await make(api, "/api/dcim/regions/", { name: "Europe", slug: "europe" }),
      group: await make(api, "/api/dcim/site-groups/", { name: "Core", slug: "core" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme" }),
      tag: await make(api, "/api/extras/tags/", { name: "Production", slug: "production" }),
      field: await make(api, "/api/extras/custom-fields/", { name: "rack_count", type: "integer", object_types: ["dcim.site"] }),
    }),
    create: (fx) =>
      named("Site", (i) => ({
        status: ["active", "planned", "staging", "retired", "decommissioning"][i - 1],
        region: fx.region,
        group: i % 2 ? fx.group : null,
        tenant: fx.tenant,
        facility: `F${i}`,
        latitude: 50.1 + i,
        longitude: 8.5,
        time_zone: "Europe/Berlin",
        tags: i % 2 ? [fx.tag] : [],
        custom_fields: { rack_count: i },
      })),
    patch: { status: "planned", description: "changed", tags: [], physical_address: "Main St 1" },
    bulkPatch: { status: "retired" },
    invalid: { body: { name: "Bad", slug: "bad", status: "bogus" }, field: "status" },
  },
  {
    objectType: "dcim.manufacturer",
    create: () => named("Vendor", (i) => ({ description: `vendor ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
  },
  {
    objectType: "dcim.platform",
    fixtures: async (api) => ({ manufacturer: await make(api, "/api/dcim/manufacturers/", { name: "Juniper", slug: "juniper" }) }),
    create: (fx) => named("OS", (i) => ({ manufacturer: i % 2 ? fx.manufacturer : null })),
    patch: { description: "changed", manufacturer: null },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", manufacturer: 424242 }, field: "manufacturer" },
  },
  {
    objectType: "dcim.devicetype",
    fixtures: async (api) => ({
      manufacturer: await make(api, "/api/dcim/manufacturers/", { name: "Cisco", slug: "cisco" }),
      platform: await make(api, "/api/dcim/platforms/", { name: "IOS", slug: "ios" }),
      tag: await make(api, "/api/extras/tags/", { name: "Lab", slug: "lab" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        manufacturer: fx.manufacturer,
        model: `C${i}000`,
        slug: `c${i}000`,
        default_platform: fx.platform,
        part_number: `P-${i}`,
        u_height: i % 2 ? 1 : 2.5,
        is_full_depth: i % 2 === 0,
        airflow: "front-to-rear",
        weight: 3.5,
        weight_unit: "kg",
        subdevice_role: i === 1 ? "parent" : null,
        tags: i % 2 ? [fx.tag] : [],
      })),
    patch: { description: "changed", airflow: "passive", comments: "eol" },
    bulkPatch: { weight_unit: "lb" },
    invalid: { body: { model: "Bad", slug: "bad", airflow: "sideways" }, field: "airflow" },
  },
  {
    objectType: "dcim.devicerole",
    create: () => named("Role", (i) => ({ color: `00aa0${i}`, vm_role: i % 2 === 0 })),
    patch: { color: "ff0000", description: "changed" },
    bulkPatch: { vm_role: false },
    invalid: { body: { name: "Bad", slug: "bad", color: "blue" }, field: "color" },
  },
  {
    objectType: "dcim.device",
    fixtures: async (api) => {
      const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Arista", slug: "arista" });
      return {
        type: await make(api, "/api/dcim/device-types/", { manufacturer, model: "7050", slug: "7050" }),
        role: await make(api, "/api/dcim/device-roles/", { name: "Leaf", slug: "leaf" }),
        role2: await make(api, "/api/dcim/device-roles/", { name: "Spine", slug: "spine" }),
        site: await make(api, "/api/dcim/sites/", { name: "DC9", slug: "dc9" }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Ops", slug: "ops" }),
        platform: await make(api, "/api/dcim/platforms/", { name: "EOS", slug: "eos" }),
        tag: await make(api, "/api/extras/tags/", { name: "Core", slug: "core" }),
        field: await make(api, "/api/extras/custom-fields/", { name: "rack", type: "integer", object_types: ["dcim.device"] }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `leaf${i}`,
        device_type: fx.type,
        role: fx.role,
        site: fx.site,
        tenant: fx.tenant,
        platform: fx.platform,
        serial: `SN${i}`,
        status: i % 2 ? "active" : "planned",
        airflow: "front-to-rear",
        latitude: 50.5,
        longitude: 8.1,
        local_context_data: { ntp: [`10.0.0.${i}`] },
        tags: i % 2 ? [fx.tag] : [],
        custom_fields: { rack: i },
      })),
    patch: { status: "offline", description: "changed", serial: "SN-X" },
    bulkPatch: { status: "failed" },
    invalid: { body: { name: "bad", device_type: 1, role: 1, site: 1, status: "bogus" }, field: "status" },
  },
  {
    objectType: "dcim.interface",
    fixtures: async (api) => {
      const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Nokia", slug: "nokia" });
      const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "7750", slug: "7750" });
      const role = await make(api, "/api/dcim/device-roles/", { name: "PE", slug: "pe" });
      const site = await make(api, "/api/dcim/sites/", { name: "POP1", slug: "pop1" });
      const device = await make(api, "/api/dcim/devices/", { name: "pe1", device_type, role, site });
      const lag = await make(api, "/api/dcim/interfaces/", { device, name: "lag1", type: "lag" });
      return { device, lag };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        device: fx.device,
        name: `eth${i}`,
        type: i % 2 ? "1000base-t" : "10gbase-x-sfpp",
        lag: i % 2 ? fx.lag : null,
        mtu: 9000,
        speed: 1_000_000,
        duplex: "full",
        mode: "access",
        mgmt_only: i === 5,
        poe_mode: i === 1 ? "pse" : null,
      })),
    patch: { description: "uplink", enabled: false, mtu: 1500 },
    bulkPatch: { mark_connected: true },
    invalid: { body: { device: 1, name: "bad", type: "nope" }, field: "type" },
    existing: 1,
  },
  {
    objectType: "dcim.macaddress",
    fixtures: async (api) => {
      const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Dell", slug: "dell" });
      const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "R640", slug: "r640" });
      const role = await make(api, "/api/dcim/device-roles/", { name: "Server", slug: "server" });
      const site = await make(api, "/api/dcim/sites/", { name: "DC2", slug: "dc2" });
      const device = await make(api, "/api/dcim/devices/", { name: "srv1", device_type, role, site });
      return {
        eth0: await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" }),
        eth1: await make(api, "/api/dcim/interfaces/", { device, name: "eth1", type: "1000base-t" }),
        tag: await make(api, "/api/extras/tags/", { name: "Hardware", slug: "hardware" }),
        field: await make(api, "/api/extras/custom-fields/", { name: "slot", type: "integer", object_types: ["dcim.macaddress"] }),
      };
    },
    // Sent in NetBox's stored form, so the contract's echo check compares like with like.
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        mac_address: `00:1A:2B:3C:4D:0${i}`,
        ...(i === 2 || i === 5 ? {} : { assigned_object_type: "dcim.interface", assigned_object_id: i % 2 ? fx.eth0 : fx.eth1 }),
        description: `nic ${i}`,
        tags: i % 2 ? [fx.tag] : [],
        custom_fields: { slot: i },
      })),
    // The contract's PATCH check wants every unsent key unchanged, and `assigned_object` follows
    // its two keys; reassigning and clearing are covered in test/generic-relations.test.ts.
    patch: { description: "changed", comments: "replaced" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { mac_address: "00:1A:2B:3C:4D" }, field: "mac_address" },
  },
  {
    objectType: "extras.tag",
    create: () => named("Tag", (i) => ({ color: `00ff0${i}`, description: `tag ${i}`, object_types: ["dcim.site"] })),
    patch: { color: "aa1409" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", color: "red" }, field: "color" },
  },
  {
    objectType: "users.group",
    create: () => [1, 2, 3, 4, 5].map((i) => ({ name: `Team ${i}`, description: `team ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "" }, field: "name" },
  },
  {
    objectType: "users.user",
    fixtures: async (api) => ({ group: await make(api, "/api/users/groups/", { name: "Operators" }) }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        username: `operator${i}`,
        password: `Secret-${i}-password`,
        first_name: `Op ${i}`,
        email: `op${i}@example.com`,
        is_staff: i % 2 === 0,
        groups: i % 2 ? [fx.group] : [],
      })),
    patch: { last_name: "Changed", is_active: false },
    bulkPatch: { first_name: "Bulk" },
    invalid: { body: { username: "no spaces allowed", password: "x" }, field: "username" },
    existing: 2,
    // The display carries the full name (`operator1 (Op 1)`), as NetBox's does.
    notEchoed: ["password", "display"],
  },
  {
    objectType: "users.token",
    fixtures: async (api) => ({ user: await make(api, "/api/users/users/", { username: "robot", password: "Robot-password-1" }) }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        user: fx.user,
        description: `token ${i}`,
        write_enabled: i % 2 === 1,
        allowed_ips: i === 3 ? ["10.0.0.0/8", "2001:db8::/32"] : [],
        ...(i === 4
          ? { key: "abcdef0123456789abcdef0123456789abcdef01".slice(0, 36) + String(1000 + Math.floor(Math.random() * 8999)) }
          : {}),
      })),
    patch: { description: "changed", write_enabled: false },
    bulkPatch: { description: "bulk" },
    invalid: { body: { key: "not-hex" }, field: "key" },
    existing: 2,
  },
];

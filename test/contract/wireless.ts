import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

/** `count` radios on a device of their own, by name `wlan<i>`. */
const radios = async (api: Harness, tag: string, count: number) => {
  const device = await fixtureDevice(api, tag);
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    out[`r${i}`] = await make(api, "/api/dcim/interfaces/", { device, name: `wlan${i}`, type: i % 2 ? "ieee802.11ax" : "ieee802.11ac" });
  }
  return out;
};

/** Contract rows of the wireless app. */
export const specs: ContractSpec[] = [
  {
    objectType: "wireless.wirelesslangroup",
    fixtures: async (api) => ({ parent: await make(api, "/api/wireless/wireless-lan-groups/", { name: "Campus", slug: "campus" }) }),
    create: (fx) => named("Floor", (i) => ({ parent: i % 2 ? fx.parent : null, description: `floor ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
    existing: 1,
  },
  {
    objectType: "wireless.wirelesslan",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Airport", slug: "airport" });
      return {
        site,
        group: await make(api, "/api/wireless/wireless-lan-groups/", { name: "Guests", slug: "guests" }),
        vlan: await make(api, "/api/ipam/vlans/", { vid: 100, name: "wifi" }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Air owner", slug: "air-owner" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        ssid: `net-${i}`,
        group: i <= 2 ? fx.group : null,
        status: i === 3 ? "reserved" : "active",
        vlan: i === 1 ? fx.vlan : null,
        scope_type: i === 1 ? "dcim.site" : null,
        scope_id: i === 1 ? fx.site : null,
        tenant: i === 2 ? fx.tenant : null,
        auth_type: i === 1 ? "wpa-personal" : null,
        auth_cipher: i === 1 ? "aes" : null,
        auth_psk: i === 1 ? "secret-key" : "",
      })),
    patch: { description: "changed", status: "disabled", auth_type: "open" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { ssid: "bad", auth_cipher: "rot13" }, field: "auth_cipher" },
  },
  {
    objectType: "wireless.wirelesslink",
    fixtures: async (api) => ({
      ...(await radios(api, "wl", 10)),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Link owner", slug: "link-owner" }),
    }),
    create: (fx) =>
      [0, 1, 2, 3, 4].map((i) => ({
        interface_a: fx[`r${2 * i}`],
        interface_b: fx[`r${2 * i + 1}`],
        ssid: i === 4 ? "" : `link-${i}`,
        status: i === 1 ? "planned" : "connected",
        tenant: i === 0 ? fx.tenant : null,
        auth_type: i === 0 ? "wpa-enterprise" : null,
        distance: i === 0 ? 1.5 : null,
        distance_unit: i === 0 ? "km" : null,
      })),
    patch: { description: "changed", status: "decommissioning" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { interface_a: 1, interface_b: 2, status: "broken" }, field: "status" },
  },
];

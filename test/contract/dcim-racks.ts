import type { ContractSpec } from "../support/contract.ts";
import { make, named } from "./fixtures.ts";
import { fixtureDevice } from "./shared-inventory.ts";

/** Contract rows of racks and what hangs off them: roles, types, reservations, chassis, power. */
export const specs: ContractSpec[] = [
  {
    objectType: "dcim.rackrole",
    create: () => named("Shelf", (i) => ({ color: `00${i}0ff`, description: `role ${i}` })),
    patch: { description: "changed", color: "123abc" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad", color: "red" }, field: "color" },
  },
  {
    objectType: "dcim.racktype",
    fixtures: async (api) => ({ manufacturer: await make(api, "/api/dcim/manufacturers/", { name: "APC", slug: "apc" }) }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        manufacturer: fx.manufacturer,
        model: `NetShelter ${i}`,
        slug: `netshelter-${i}`,
        form_factor: i % 2 ? "4-post-cabinet" : "2-post-frame",
        u_height: 40 + i,
        width: i === 2 ? 23 : 19,
        desc_units: i === 3,
        outer_width: i === 1 ? 600 : null,
        outer_unit: i === 1 ? "mm" : null,
        max_weight: i === 1 ? 1000 : null,
        weight_unit: i === 1 ? "kg" : null,
      })),
    patch: { description: "changed", mounting_depth: 800 },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { manufacturer: 1, model: "Bad", slug: "bad", form_factor: "shelf" }, field: "form_factor" },
  },
  {
    objectType: "dcim.rack",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Rack site", slug: "rack-site" });
      const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Rittal", slug: "rittal" });
      return {
        site,
        location: await make(api, "/api/dcim/locations/", { name: "Hall 1", slug: "hall-1", site }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Rack owner", slug: "rack-owner" }),
        role: await make(api, "/api/dcim/rack-roles/", { name: "Compute", slug: "compute" }),
        rack_type: await make(api, "/api/dcim/rack-types/", {
          manufacturer,
          model: "TS IT",
          slug: "ts-it",
          form_factor: "4-post-cabinet",
          u_height: 47,
        }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `R${i}`,
        site: fx.site,
        location: i <= 2 ? fx.location : null,
        facility_id: `F-${i}`,
        asset_tag: `RACK-${i}`,
        status: i === 2 ? "planned" : "active",
        tenant: i === 1 ? fx.tenant : null,
        role: i === 1 ? fx.role : null,
        ...(i === 1
          ? { rack_type: fx.rack_type }
          : { rack_type: null, u_height: 40 + i, starting_unit: i, airflow: i === 3 ? "front-to-rear" : null }),
      })),
    patch: { description: "changed", status: "deprecated" },
    bulkPatch: { serial: "bulk" },
    invalid: { body: { name: "bad", site: 1, width: 20 }, field: "width" },
  },
  {
    objectType: "dcim.rackreservation",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Reserved site", slug: "reserved-site" });
      const users = await api.get("/api/users/users/?limit=1");
      return {
        rack: await make(api, "/api/dcim/racks/", { name: "Reserved", site }),
        user: users.body.results[0].id,
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Reserver", slug: "reserver" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        rack: fx.rack,
        units: [i * 2, i * 2 + 1],
        user: fx.user,
        tenant: i === 1 ? fx.tenant : null,
        description: `reservation ${i}`,
      })),
    patch: { description: "changed", comments: "noted" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { rack: 1, units: [], user: 1, description: "none" }, field: "units" },
  },
  {
    objectType: "dcim.virtualchassis",
    fixtures: async (api) => ({ device: await fixtureDevice(api, "vc") }),
    create: (fx) => [1, 2, 3, 4, 5].map((i) => ({ name: `stack${i}`, domain: `dom${i}`, master: i === 1 ? fx.device : null })),
    patch: { description: "changed", domain: "other" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "" }, field: "name" },
  },
  {
    objectType: "dcim.powerpanel",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Power site", slug: "power-site" });
      return { site, location: await make(api, "/api/dcim/locations/", { name: "Plant room", slug: "plant-room", site }) };
    },
    create: (fx) => [1, 2, 3, 4, 5].map((i) => ({ site: fx.site, name: `Panel ${i}`, location: i === 1 ? fx.location : null })),
    patch: { description: "changed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { site: 1, name: "" }, field: "name" },
  },
  {
    objectType: "dcim.powerfeed",
    fixtures: async (api) => {
      const site = await make(api, "/api/dcim/sites/", { name: "Feed site", slug: "feed-site" });
      return {
        panel: await make(api, "/api/dcim/power-panels/", { site, name: "MDF" }),
        rack: await make(api, "/api/dcim/racks/", { name: "Fed", site }),
        tenant: await make(api, "/api/tenancy/tenants/", { name: "Feeder", slug: "feeder" }),
      };
    },
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        power_panel: fx.panel,
        name: `feed${i}`,
        rack: i === 1 ? fx.rack : null,
        tenant: i === 1 ? fx.tenant : null,
        status: i === 2 ? "planned" : "active",
        type: i === 3 ? "redundant" : "primary",
        supply: "ac",
        phase: i === 4 ? "three-phase" : "single-phase",
        voltage: 230,
        amperage: 15 + i,
        max_utilization: 80,
      })),
    patch: { description: "changed", status: "failed" },
    bulkPatch: { mark_connected: true },
    invalid: { body: { power_panel: 1, name: "bad", amperage: 0 }, field: "amperage" },
  },
];

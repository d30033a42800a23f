import type { ContractSpec } from "../support/contract.ts";
import { make, named } from "./fixtures.ts";

/** Contract rows of contacts (tenancy) and journal entries (extras). */
export const specs: ContractSpec[] = [
  {
    objectType: "tenancy.contactgroup",
    fixtures: async (api) => ({ parent: await make(api, "/api/tenancy/contact-groups/", { name: "Operations", slug: "operations" }) }),
    create: (fx) => named("Team", (i) => ({ parent: i % 2 ? fx.parent : null, description: `team ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", slug: "bad slug" }, field: "slug" },
    existing: 1,
  },
  {
    objectType: "tenancy.contactrole",
    create: () => named("Escalation", (i) => ({ description: `role ${i}` })),
    patch: { description: "changed" },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "", slug: "empty" }, field: "name" },
  },
  {
    objectType: "tenancy.contact",
    fixtures: async (api) => ({ group: await make(api, "/api/tenancy/contact-groups/", { name: "NOC", slug: "noc" }) }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `Person ${i}`,
        group: i % 2 ? fx.group : null,
        title: i === 1 ? "Engineer" : "",
        phone: `+1 555 010${i}`,
        email: `person${i}@example.com`,
        address: i === 1 ? "1 Main St" : "",
        link: i === 1 ? "https://example.com/people/1" : "",
      })),
    patch: { description: "changed", title: "Manager" },
    bulkPatch: { comments: "bulk" },
    invalid: { body: { name: "Bad", email: "not an address" }, field: "email" },
  },
  {
    objectType: "tenancy.contactassignment",
    fixtures: async (api) => ({
      site: await make(api, "/api/dcim/sites/", { name: "HQ", slug: "hq" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Customer", slug: "customer" }),
      alice: await make(api, "/api/tenancy/contacts/", { name: "Alice" }),
      bob: await make(api, "/api/tenancy/contacts/", { name: "Bob" }),
      admin: await make(api, "/api/tenancy/contact-roles/", { name: "Admin", slug: "admin" }),
      billing: await make(api, "/api/tenancy/contact-roles/", { name: "Billing", slug: "billing" }),
    }),
    create: (fx) => [
      { object_type: "dcim.site", object_id: fx.site, contact: fx.alice, role: fx.admin, priority: "primary" },
      { object_type: "dcim.site", object_id: fx.site, contact: fx.bob, role: fx.admin, priority: "secondary" },
      { object_type: "tenancy.tenant", object_id: fx.tenant, contact: fx.alice, role: fx.billing, priority: null },
      { object_type: "dcim.site", object_id: fx.site, contact: fx.alice, role: fx.billing, priority: "tertiary" },
      { object_type: "tenancy.tenant", object_id: fx.tenant, contact: fx.bob, role: null, priority: "inactive" },
    ],
    // The display names the priority, so the single-object change leaves it alone.
    patch: { role: null },
    bulkPatch: { priority: "tertiary" },
    invalid: { body: { object_type: "dcim.interface", object_id: 1, contact: 1 }, field: "object_type" },
  },
  {
    objectType: "extras.journalentry",
    fixtures: async (api) => ({ site: await make(api, "/api/dcim/sites/", { name: "Journaled", slug: "journaled" }) }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        assigned_object_type: "dcim.site",
        assigned_object_id: fx.site,
        kind: i === 2 ? "warning" : "info",
        comments: `Entry ${i}`,
      })),
    // The display names the kind, so the single-object change leaves it alone.
    patch: { comments: "Resolved" },
    bulkPatch: { kind: "danger" },
    invalid: { body: { assigned_object_type: "dcim.site", assigned_object_id: 1, comments: "" }, field: "comments" },
  },
];

import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make, named } from "./fixtures.ts";

/** The second user of each row's fixtures, by tag: its changes hand rows to them (known once the fixtures ran). */
const owners: Record<string, number> = {};

/** Five sites to point at, and a second user to hand rows to. */
const objects = async (api: Harness, tag: string) => {
  const out: Record<string, number> = {};
  for (let i = 0; i < 5; i++) out[`s${i}`] = await make(api, "/api/dcim/sites/", { name: `${tag} ${i}`, slug: `${tag}-${i}` });
  out.user = owners[tag] = await make(api, "/api/users/users/", { username: `${tag}-owner`, password: "A-password-123" });
  return out;
};

/** A change handing a row to the fixtures' second user. */
const handedTo = (tag: string) => ({
  get user() {
    return owners[tag];
  },
});

/** One row per site, on `dcim.site`. */
const onSites = (fx: Record<string, number>, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  [0, 1, 2, 3, 4].map((i) => ({ object_type: "dcim.site", object_id: fx[`s${i}`], ...extra(i) }));

const unknownObject = { body: { object_type: "dcim.site", object_id: 999999 }, field: "object_id" };

/** Contract rows of the extras that came with NetBox 4.x: bookmarks, links, templates, filters, notifications. */
export const specs: ContractSpec[] = [
  {
    objectType: "extras.bookmark",
    fixtures: (api) => objects(api, "marked"),
    create: (fx) => onSites(fx),
    patch: handedTo("marked"),
    bulkPatch: handedTo("marked"),
    invalid: unknownObject,
  },
  {
    objectType: "extras.customlink",
    create: () =>
      named("Link", (i) => ({
        object_types: i % 2 ? ["dcim.site"] : ["dcim.device", "dcim.rack"],
        link_text: `Open {{name}} ${i}`,
        link_url: `https://example.com/${i}/{{id}}`,
        weight: 100 + i,
        group_name: i < 3 ? "Docs" : "",
        button_class: i === 1 ? "green" : "default",
        new_window: i === 2,
      })).map(({ slug: _, ...o }) => o),
    patch: { link_text: "Changed {{name}}", button_class: "red" },
    bulkPatch: { enabled: false },
    invalid: {
      body: { name: "Bad", object_types: ["dcim.site"], link_text: "x", link_url: "y", button_class: "nope" },
      field: "button_class",
    },
  },
  {
    objectType: "extras.exporttemplate",
    create: () =>
      named("Export", (i) => ({
        object_types: ["dcim.site"],
        template_code: `{{#queryset}}{{name}} ${i}\n{{/queryset}}`,
        mime_type: i === 1 ? "text/csv" : "",
        file_extension: i === 1 ? "csv" : "",
        as_attachment: i !== 2,
        description: `export ${i}`,
      })).map(({ slug: _, ...o }) => o),
    patch: { description: "changed", template_code: "{{#queryset}}{{slug}}{{/queryset}}" },
    bulkPatch: { mime_type: "text/plain" },
    invalid: { body: { name: "Bad", object_types: ["dcim.site"], template_code: "{{/open}}" }, field: "template_code" },
  },
  {
    objectType: "extras.savedfilter",
    fixtures: async (api) => ({ user: await make(api, "/api/users/users/", { username: "filterer", password: "A-password-123" }) }),
    create: (fx) =>
      named("Filter", (i) => ({
        object_types: ["dcim.site"],
        parameters: { status: ["active"], q: `n${i}` },
        user: i === 1 ? fx.user : null,
        shared: i !== 2,
      })),
    patch: { description: "changed", parameters: { tenant: ["acme"] } },
    bulkPatch: { weight: 5 },
    invalid: { body: { name: "Bad", slug: "bad", object_types: ["dcim.site"], parameters: [1] }, field: "parameters" },
  },
  {
    objectType: "extras.notificationgroup",
    fixtures: async (api) => ({
      user: await make(api, "/api/users/users/", { username: "paged", password: "A-password-123" }),
      group: await make(api, "/api/users/groups/", { name: "Pagers" }),
    }),
    create: (fx) =>
      named("Group", (i) => ({ users: i % 2 ? [fx.user] : [], groups: i === 2 ? [fx.group] : [] })).map(({ slug: _, ...o }) => o),
    patch: { description: "changed", users: [] },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", users: [999999] }, field: "users" },
  },
  {
    objectType: "extras.notification",
    fixtures: (api) => objects(api, "noted"),
    create: (fx) => onSites(fx, (i) => ({ event_type: i === 1 ? "object_created" : "object_updated" })),
    patch: { event_type: "object_deleted" },
    bulkPatch: { event_type: "job_completed" },
    invalid: { body: { object_type: "dcim.site", object_id: 1, event_type: "nope" }, field: "event_type" },
  },
  {
    objectType: "extras.subscription",
    fixtures: (api) => objects(api, "watched"),
    create: (fx) => onSites(fx),
    patch: handedTo("watched"),
    bulkPatch: handedTo("watched"),
    invalid: unknownObject,
  },
];

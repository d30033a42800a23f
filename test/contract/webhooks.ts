import type { ContractSpec } from "../support/contract.ts";
import { make, named } from "./fixtures.ts";

/** Contract rows of change records, webhooks, event rules and webhook deliveries. */
export const specs: ContractSpec[] = [
  {
    objectType: "core.objectchange",
    readOnly: true,
    fixtures: async (api) => ({
      region: await make(api, "/api/dcim/regions/", { name: "Logged", slug: "logged" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Logged", slug: "logged" }),
    }),
  },
  {
    objectType: "extras.webhookdelivery",
    readOnly: true,
    fixtures: async (api) => {
      const webhook = await make(api, "/api/extras/webhooks/", { name: "Contract", payload_url: "http://127.0.0.1:9/" });
      await make(api, "/api/extras/event-rules/", {
        name: "Contract",
        object_types: ["dcim.region"],
        event_types: ["object_created"],
        action_object_type: "extras.webhook",
        action_object_id: webhook,
      });
      // Queued runs, never sent: the contract is about the endpoint.
      const made = await api.post(
        "/api/dcim/regions/",
        [
          { name: "D1", slug: "d1" },
          { name: "D2", slug: "d2" },
        ],
        { enqueue: false },
      );
      if (made.status !== 201) throw new Error(made.text);
      return { webhook };
    },
  },
  {
    objectType: "extras.webhook",
    fixtures: async (api) => ({ tag: await make(api, "/api/extras/tags/", { name: "Hooks", slug: "hooks" }) }),
    create: (fx) =>
      named("Hook", (i) => ({
        payload_url: `https://hooks.example.com/{{event}}/${i}`,
        http_method: ["POST", "PUT", "PATCH", "GET", "DELETE"][i - 1],
        http_content_type: i === 2 ? "application/x-www-form-urlencoded" : "application/json",
        additional_headers: i === 1 ? "X-Source: inventory" : "",
        body_template: i === 3 ? '{"name": "{{data.name}}"}' : "",
        ssl_verification: i !== 4,
        tags: i === 1 ? [fx.tag] : [],
      })).map(({ slug: _slug, ...o }) => o),
    patch: { description: "changed", http_method: "PATCH", enabled: false },
    bulkPatch: { http_content_type: "text/plain" },
    invalid: { body: { name: "Bad", payload_url: "https://x/", http_method: "FETCH" }, field: "http_method" },
    notEchoed: ["secret"],
  },
  {
    objectType: "extras.eventrule",
    fixtures: async (api) => ({
      webhook: await make(api, "/api/extras/webhooks/", { name: "Target", payload_url: "https://hooks.example.com/" }),
    }),
    create: (fx) =>
      named("Rule", (i) => ({
        object_types: i % 2 ? ["dcim.site"] : ["dcim.site", "dcim.device"],
        event_types: i === 3 ? ["object_deleted"] : ["object_created", "object_updated"],
        enabled: i !== 4,
        conditions: i === 2 ? { attr: "status.value", value: "active" } : null,
        action_type: "webhook",
        action_object_type: "extras.webhook",
        action_object_id: fx.webhook,
      })).map(({ slug: _slug, ...o }) => o),
    patch: { description: "changed", event_types: ["object_deleted"] },
    bulkPatch: { enabled: false },
    invalid: {
      body: {
        name: "Bad",
        object_types: ["dcim.nothing"],
        event_types: ["object_created"],
        action_object_type: "extras.webhook",
        action_object_id: 1,
      },
      field: "object_types",
    },
  },
];

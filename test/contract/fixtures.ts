import { expect } from "vitest";
import type { Harness } from "../support/harness.ts";

/** Creates one fixture object and returns its id; a fixture that fails stops the row loudly. */
export const make = async (api: Harness, path: string, body: Record<string, unknown>) => {
  const reply = await api.post(path, body);
  if (reply.status !== 201) throw new Error(`fixture ${path}: ${reply.text}`);
  return reply.body.id as number;
};

/**
 * A webhook to a port nothing listens on, and an event rule sending it the events `events` of the
 * types `objectTypes`: enough for writes to queue deliveries (which the tests count, never send).
 */
export async function webhookRule(api: Harness, objectTypes: readonly string[], events: readonly string[]): Promise<void> {
  const webhook = await make(api, "/api/extras/webhooks/", { name: "hook", payload_url: "http://127.0.0.1:9/hook" });
  await make(api, "/api/extras/event-rules/", {
    name: "rule",
    object_types: objectTypes,
    event_types: events,
    action_object_type: "extras.webhook",
    action_object_id: webhook,
  });
}

/** Five name/slug pairs with extra fields per index. */
export const named = (prefix: string, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  [1, 2, 3, 4, 5].map((i) => ({ name: `${prefix} ${i}`, slug: `${prefix.toLowerCase()}-${i}`, ...extra(i) }));

/** The `key` (default `name`) of each result of a list, which must answer 200. */
export async function listed(api: Harness, path: string, key = "name"): Promise<unknown[]> {
  const r = await api.get(path);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  return r.body.results.map((o: any) => o[key]);
}

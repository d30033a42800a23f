import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make, webhookRule } from "./contract/fixtures.ts";

/**
 * Bulk PATCH, PUT and DELETE are all or none about their ids too: an id that does not exist, or
 * that the requester may not act on, fails the whole request with errors aligned with the input,
 * the same message either way (existence does not leak), and nothing is written: no object, no
 * change record, no webhook delivery. An id listed twice is refused the same way.
 */
let api: Harness;
let siteIds: number[];
let hidden: number;
let alice: string;
const NOT_FOUND = { id: ["Object not found."] };
const TWICE = { id: ["This object is listed more than once in the request."] };

const changes = async () => (await api.get("/api/core/object-changes/?limit=1")).body.count as number;
const deliveries = async () => (await api.get("/api/extras/webhook-deliveries/?limit=1")).body.count as number;
const sites = async () => (await api.get("/api/dcim/sites/?limit=0&ordering=id")).body.results.map((s: any) => [s.id, s.description]);

beforeAll(async () => {
  api = await createHarness();
  await webhookRule(api, ["dcim.site"], ["object_updated", "object_deleted"]);
  const region = await make(api, "/api/dcim/regions/", { name: "EU", slug: "eu" });
  siteIds = [
    await make(api, "/api/dcim/sites/", { name: "S1", slug: "s1", region }),
    await make(api, "/api/dcim/sites/", { name: "S2", slug: "s2", region }),
  ];
  hidden = await make(api, "/api/dcim/sites/", { name: "Hidden", slug: "hidden" });
  alice = await api.token({ superuser: false, username: "alice" });
  const aliceId = (await api.get("/api/users/users/?username=alice")).body.results[0].id;
  await make(api, "/api/users/permissions/", {
    name: "eu sites",
    object_types: ["dcim.site"],
    actions: ["view", "change", "delete"],
    constraints: { region__slug: "eu" },
    users: [aliceId],
  });
});
afterAll(() => api.close());

/** Every bulk method, with the body it sends for a list of ids. */
const methods: [string, (id: number) => Record<string, unknown>][] = [
  ["PATCH", (id) => ({ id, description: "changed" })],
  ["PUT", (id) => ({ id, name: `N${id}`, slug: `n${id}`, description: "changed" })],
  ["DELETE", (id) => ({ id })],
];

describe("bulk writes with ids that cannot be acted on", () => {
  let before: { changes: number; deliveries: number; sites: unknown };
  beforeEach(async () => {
    await api.queue.drain();
    before = { changes: await changes(), deliveries: await deliveries(), sites: await sites() };
  });
  const nothingWritten = async () => {
    await api.queue.drain();
    expect({ changes: await changes(), deliveries: await deliveries(), sites: await sites() }).toEqual(before);
  };

  for (const [method, item] of methods) {
    it(`${method}: a missing id fails the whole request, aligned, and writes nothing`, async () => {
      const reply = await api.request(method, "/api/dcim/sites/", { body: [item(siteIds[0]), item(987654)] });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toEqual([{}, NOT_FOUND]);
      await nothingWritten();
    });

    it(`${method}: an id outside the requester's constraints answers exactly as a missing one`, async () => {
      const forbidden = await api.request(method, "/api/dcim/sites/", { body: [item(siteIds[0]), item(hidden)], token: alice });
      const missing = await api.request(method, "/api/dcim/sites/", { body: [item(siteIds[0]), item(987654)], token: alice });
      expect(forbidden.status, forbidden.text).toBe(400);
      expect(forbidden.body).toEqual([{}, NOT_FOUND]);
      expect(missing.body).toEqual(forbidden.body);
      await nothingWritten();
    });

    it(`${method}: an id listed twice is refused, aligned with its second mention`, async () => {
      const reply = await api.request(method, "/api/dcim/sites/", { body: [item(siteIds[0]), item(siteIds[1]), item(siteIds[0])] });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toEqual([{}, {}, TWICE]);
      await nothingWritten();
    });
  }

  it("detail endpoints keep answering 404 for missing and forbidden objects", async () => {
    for (const id of [987654, hidden]) {
      expect((await api.patch(`/api/dcim/sites/${id}/`, { description: "x" }, { token: alice })).status).toBe(404);
      expect((await api.delete(`/api/dcim/sites/${id}/`, undefined, { token: alice })).status).toBe(404);
    }
  });

  it("a bulk write of ids that all exist and are permitted still goes through", async () => {
    const reply = await api.patch(
      "/api/dcim/sites/",
      siteIds.map((id) => ({ id, description: "ok" })),
      { token: alice },
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.map((s: any) => s.id)).toEqual(siteIds);
  });
});

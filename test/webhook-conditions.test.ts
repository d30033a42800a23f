/**
 * Event-rule conditions as NetBox evaluates them: a path that names nothing (absent key, null on
 * the way, a list element without the key) reads as null, then the operator and `negate` apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conditionsMatch } from "../src/apps/extras/conditions.ts";
import { createHarness, type Harness } from "./support/harness.ts";
import { startReceiver } from "./support/receiver.ts";

const site = {
  id: 7,
  name: "DC1",
  status: { value: "active", label: "Active" },
  tenant: null,
  region: { id: 1, name: "Europe", slug: "eu" },
  tags: [
    { name: "core", slug: "core" },
    { name: "edge", slug: "edge" },
  ],
  asns: [],
  facility: "",
  latitude: 52.5,
  custom_fields: { rank: 3, flag: true, owner: null },
};
const tenant = { id: 3, name: "Acme", group: null, custom_fields: {} };

/** [condition, data, NetBox's answer, negated answer]: every operator, each with present, absent and null-path values. */
const TABLE: [Record<string, unknown>, unknown, boolean][] = [
  // eq
  [{ attr: "status.value", value: "active" }, site, true],
  [{ attr: "status.value", value: "planned" }, site, false],
  [{ attr: "status.value", value: "active" }, tenant, false],
  [{ attr: "status.value", value: null }, tenant, true],
  [{ attr: "tenant.name", value: null }, site, true],
  [{ attr: "tenant", value: null }, site, true],
  [{ attr: "custom_fields.owner", value: null }, site, true],
  [{ attr: "custom_fields.rank", value: 3 }, site, true],
  [{ attr: "custom_fields.flag", value: 1 }, site, true],
  [{ attr: "tags.slug", value: ["core", "edge"] }, site, true],
  [{ attr: "region", value: { slug: "eu", name: "Europe", id: 1 } }, site, true],
  [{ attr: "facility.x", value: null }, site, true],
  // gt, gte, lt, lte
  [{ attr: "custom_fields.rank", value: 2, op: "gt" }, site, true],
  [{ attr: "custom_fields.rank", value: 3, op: "gt" }, site, false],
  [{ attr: "custom_fields.rank", value: 3, op: "gte" }, site, true],
  [{ attr: "latitude", value: 60, op: "lt" }, site, true],
  [{ attr: "latitude", value: 52.5, op: "lte" }, site, true],
  [{ attr: "latitude", value: 52, op: "lte" }, site, false],
  [{ attr: "custom_fields.rank", value: 2, op: "gt" }, tenant, false],
  [{ attr: "name", value: 2, op: "gt" }, site, false],
  [{ attr: "tenant.id", value: 0, op: "gte" }, site, false],
  // in
  [{ attr: "status.value", value: ["active", "planned"], op: "in" }, site, true],
  [{ attr: "status.value", value: ["retired"], op: "in" }, site, false],
  [{ attr: "status.value", value: ["active"], op: "in" }, tenant, false],
  [{ attr: "status.value", value: [null], op: "in" }, tenant, true],
  [{ attr: "custom_fields.rank", value: [1.0, 3.0], op: "in" }, site, true],
  // contains
  [{ attr: "name", value: "DC", op: "contains" }, site, true],
  [{ attr: "name", value: "dc", op: "contains" }, site, false],
  [{ attr: "tags.slug", value: "edge", op: "contains" }, site, true],
  [{ attr: "tags.slug", value: "dmz", op: "contains" }, site, false],
  [{ attr: "asns", value: 65000, op: "contains" }, site, false],
  [{ attr: "custom_fields", value: "rank", op: "contains" }, site, true],
  [{ attr: "tags.slug", value: "edge", op: "contains" }, tenant, false],
  [{ attr: "tenant.name", value: "Acme", op: "contains" }, site, false],
  // regex (anchored at the start, as Python's re.match)
  [{ attr: "name", value: "DC\\d", op: "regex" }, site, true],
  [{ attr: "name", value: "C1", op: "regex" }, site, false],
  [{ attr: "name", value: ".*1$", op: "regex" }, site, true],
  [{ attr: "status.value", value: "act", op: "regex" }, tenant, false],
  [{ attr: "tenant.name", value: ".*", op: "regex" }, site, false],
];

describe("conditions, as NetBox evaluates them", () => {
  it.each(TABLE.map(([c, data, answer]) => [JSON.stringify(c), data === site ? "site" : "tenant", answer, c, data] as const))(
    "%s on a %s: %s, and the opposite when negated",
    (_text, _kind, answer, condition, data) => {
      expect(conditionsMatch(condition, data)).toBe(answer);
      expect(conditionsMatch({ ...condition, negate: true }, data)).toBe(!answer);
    },
  );

  it("nests and/or sets, whose items may be sets again, and matches everything without a ruleset", () => {
    const rule = {
      or: [
        {
          and: [
            { attr: "status.value", value: "active" },
            { attr: "tags.slug", value: "core", op: "contains" },
          ],
        },
        { attr: "group", value: null },
      ],
    };
    expect(conditionsMatch(rule, site)).toBe(true);
    expect(conditionsMatch(rule, tenant)).toBe(true);
    expect(conditionsMatch(rule, { ...tenant, group: { id: 1 } })).toBe(false);
    expect(
      conditionsMatch(
        {
          AND: [
            { attr: "name", value: "DC1" },
            { attr: "status.value", value: "planned", negate: true },
          ],
        },
        site,
      ),
    ).toBe(true);
    expect(conditionsMatch(null, site)).toBe(true);
    expect(conditionsMatch({}, tenant)).toBe(true);
  });
});

describe("conditions end to end, through a real receiver", () => {
  let api: Harness;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    api = await createHarness();
    rx = await startReceiver();
  });
  afterAll(async () => {
    api.close();
    await rx.close();
  });

  it("sends a tenant's event for a rule `status.value != active` (a tenant has no status), and not an active site's", async () => {
    const webhook = await api.post("/api/extras/webhooks/", { name: "not-active", payload_url: `${rx.url}/hook` });
    const rule = await api.post("/api/extras/event-rules/", {
      name: "not-active",
      object_types: ["dcim.site", "tenancy.tenant"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
      conditions: { attr: "status.value", value: "active", negate: true },
    });
    expect(rule.status, rule.text).toBe(201);
    await api.post("/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
    await api.post("/api/dcim/sites/", [
      { name: "Live", slug: "live" },
      { name: "Later", slug: "later", status: "planned" },
    ]);
    await api.queue.drain();
    expect(rx.received.map((r) => JSON.parse(r.body).data.name).sort()).toEqual(["Acme", "Later"]);
  });

  it("match a deleted object's representation (status.value, a nested region's slug), read before the rows went", async () => {
    const webhook = await api.post("/api/extras/webhooks/", { name: "deletes", payload_url: `${rx.url}/hook` });
    const rule = await api.post("/api/extras/event-rules/", {
      name: "active-eu-deletes",
      object_types: ["dcim.site"],
      event_types: ["object_deleted"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
      conditions: {
        and: [
          { attr: "status.value", value: "active" },
          { attr: "region.slug", value: "eu" },
        ],
      },
    });
    expect(rule.status, rule.text).toBe(201);
    const region = await api.post("/api/dcim/regions/", { name: "Europe", slug: "eu" });
    const sites = await api.post("/api/dcim/sites/", [
      { name: "Gone", slug: "gone", region: region.body.id },
      { name: "Planned", slug: "planned", region: region.body.id, status: "planned" },
      { name: "Elsewhere", slug: "elsewhere" },
    ]);
    // The created events (the rule of the test above) are not what this test looks at.
    await api.queue.drain();
    rx.received.length = 0;
    await api.delete(
      "/api/dcim/sites/",
      sites.body.map((s: any) => ({ id: s.id })),
    );
    await api.queue.drain();
    const bodies = rx.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.event, b.data.name])).toEqual([["deleted", "Gone"]]);
    expect(bodies[0].data).toMatchObject({
      status: { value: "active", label: "Active" },
      region: { slug: "eu", url: `/api/dcim/regions/${region.body.id}/` },
    });
  });
});

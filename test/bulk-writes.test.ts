import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make, webhookRule } from "./contract/fixtures.ts";
import { registry } from "../src/apps/index.ts";
import { updateRowsStatements } from "../src/engine/write-statements.ts";

/**
 * A bulk write costs the same statements whatever its size (its probes, rows and change records
 * are set-wise), and writes what per-object statements wrote: rows in input order, one change
 * record each in that order with its own message and snapshot, m2m links, webhook deliveries.
 */
let api: Harness;
let device: number;
let interfaces: number[];
let tag: number;

// Deliveries stay queued: no consumer sends them (the receiver does not exist).
const quiet = { enqueue: false };

const records = async (requestId: string) =>
  (await api.db.kysely.selectFrom("core_objectchange").selectAll().where("request_id", "=", requestId).orderBy("id").execute()) as any[];

beforeAll(async () => {
  api = await createHarness();
  const site = await make(api, "/api/dcim/sites/", { name: "S1", slug: "s1" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "M", slug: "m" });
  const deviceType = await make(api, "/api/dcim/device-types/", { manufacturer, model: "T", slug: "t" });
  const role = await make(api, "/api/dcim/device-roles/", { name: "R", slug: "r" });
  device = await make(api, "/api/dcim/devices/", { name: "d1", device_type: deviceType, role, site });
  const made = await api.post(
    "/api/dcim/interfaces/",
    Array.from({ length: 4 }, (_, i) => ({ device, name: `eth${i}`, type: "1000base-t" })),
  );
  interfaces = made.body.map((o: any) => o.id);
  tag = await make(api, "/api/extras/tags/", { name: "Edge", slug: "edge" });
  await webhookRule(api, ["ipam.ipaddress"], ["object_created", "object_updated"]);
});
afterAll(() => api.close());

const addresses = (n: number, third: number) =>
  Array.from({ length: n }, (_, i) => ({
    address: `10.${third}.${Math.floor(i / 250)}.${(i % 250) + 1}/24`,
    ...(i % 3 === 0 ? { assigned_object_type: "dcim.interface", assigned_object_id: interfaces[i % interfaces.length] } : {}),
    ...(i === 1 ? { changelog_message: "the second" } : {}),
  }));

describe("bulk writes", () => {
  it("cost the same statements for 10 objects as for 100", async () => {
    const ten = await api.cost(() => api.post("/api/ipam/ip-addresses/", addresses(10, 1), quiet));
    const hundred = await api.cost(() => api.post("/api/ipam/ip-addresses/", addresses(100, 2), quiet));
    expect(hundred).toEqual(ten);
    const created = (await api.get("/api/ipam/ip-addresses/?parent=10.2.0.0/16&limit=0&ordering=id")).body.results;
    const patch = (objects: any[]) => objects.map((o: any, i: number) => ({ id: o.id, description: `d${i}`, status: "reserved" }));
    const few = await api.cost(() => api.patch("/api/ipam/ip-addresses/", patch(created.slice(0, 10)), quiet));
    const many = await api.cost(() => api.patch("/api/ipam/ip-addresses/", patch(created), quiet));
    expect(many).toEqual(few);
  });

  it("give ids in input order and one change record per object, in that order, with its message and snapshot", async () => {
    const sent = addresses(7, 3);
    const reply = await api.post("/api/ipam/ip-addresses/", sent, quiet);
    expect(reply.status).toBe(201);
    const ids = reply.body.map((o: any) => o.id);
    expect(reply.body.map((o: any) => o.address)).toEqual(sent.map((s) => s.address));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(reply.body[0].assigned_object_id).toBe(interfaces[0]);
    expect(reply.body[1].assigned_object).toBeNull();
    const changes = await records(reply.headers.get("X-Request-ID")!);
    expect(changes.map((c) => [c.action, c.changed_object_id, c.message, c.object_repr])).toEqual(
      sent.map((s, i) => ["create", ids[i], i === 1 ? "the second" : "", s.address]),
    );
    expect(JSON.parse(changes[0].postchange_data)).toMatchObject({ address: sent[0].address, assigned_object_id: interfaces[0] });
    // Deliveries for every object, from the records, in the same transaction.
    await api.settle();
    const deliveries = await api.get(`/api/extras/webhook-deliveries/?limit=0`);
    const mine = deliveries.body.results.filter((d: any) => d.request_id === reply.headers.get("X-Request-ID"));
    expect(mine.map((d: any) => d.object_id).sort((a: number, b: number) => a - b)).toEqual(ids);

    const updated = await api.patch(
      "/api/ipam/ip-addresses/",
      [...ids].reverse().map((id, i) => ({ id, description: `u${i}`, changelog_message: `m${i}` })),
      quiet,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.map((o: any) => o.id)).toEqual([...ids].reverse());
    const updates = await records(updated.headers.get("X-Request-ID")!);
    expect(updates.map((c) => [c.action, c.changed_object_id, c.message])).toEqual(
      [...ids].reverse().map((id, i) => ["update", id, `m${i}`]),
    );
    expect(JSON.parse(updates[0].prechange_data).description).toBe("");
    expect(JSON.parse(updates[0].postchange_data).description).toBe("u0");
  });

  it("write m2m links and differing columns item by item, in order, within one request", async () => {
    const reply = await api.post(
      "/api/ipam/ip-addresses/",
      [
        { address: "10.4.0.1/24" },
        { address: "10.4.0.2/24", tags: [tag] },
        { address: "10.4.0.3/24", dns_name: "three.example" },
        { address: "10.4.0.4/24", tags: [tag], status: "reserved" },
        { address: "10.4.0.5/24" },
      ],
      quiet,
    );
    expect(reply.status).toBe(201);
    expect(reply.body.map((o: any) => [o.address, o.tags.map((t: any) => t.id), o.dns_name, o.status.value])).toEqual([
      ["10.4.0.1/24", [], "", "active"],
      ["10.4.0.2/24", [tag], "", "active"],
      ["10.4.0.3/24", [], "three.example", "active"],
      ["10.4.0.4/24", [tag], "", "reserved"],
      ["10.4.0.5/24", [], "", "active"],
    ]);
    const changes = await records(reply.headers.get("X-Request-ID")!);
    expect(changes.map((c) => [c.changed_object_id, JSON.parse(c.postchange_data).tags])).toEqual(
      reply.body.map((o: any) => [o.id, o.tags.length ? ["Edge"] : []]),
    );
  });

  it("refuse a duplicate of a stored row or of an earlier item, all or none", async () => {
    const before = (await api.get("/api/dcim/interfaces/?limit=1")).body.count;
    const reply = await api.post("/api/dcim/interfaces/", [
      { device, name: "eth9", type: "1000base-t" },
      { device, name: "eth0", type: "1000base-t" },
      { device, name: "eth8", type: "1000base-t" },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual([{}, { __all__: ["Interface with this Device and Name already exists."] }, {}]);
    const twice = await api.post("/api/ipam/ip-addresses/", [{ address: "10.5.0.1/24" }, { address: "10.1.0.1/16" }], quiet);
    expect(twice.status).toBe(400);
    expect(twice.body[1]).toEqual({ address: ["Duplicate IP address found in global table: 10.1.0.1/24"] });
    expect((await api.get("/api/dcim/interfaces/?limit=1")).body.count).toBe(before);
    expect((await api.get("/api/ipam/ip-addresses/?address=10.5.0.1/24")).body.count).toBe(0);
  });
});

describe("the UPDATEs of a bulk update's rows", () => {
  it("share one statement for consecutive rows of the same columns, and start another when a row comes again", () => {
    const sites = registry.byObjectType("dcim.site")!;
    const row = (id: number, description: string) => ({ id, columns: new Map<string, unknown>([["description", description]]), after: [] });
    const shared = updateRowsStatements(sites, [row(1, "a"), row(2, "b"), row(3, "c")]);
    expect(shared).toHaveLength(1);
    const again = updateRowsStatements(sites, [row(1, "a"), row(2, "b"), row(1, "c"), row(3, "d")]);
    expect(again).toHaveLength(2);
    expect(again.map((s) => JSON.parse(String(s.parameters.at(-1))))).toEqual([
      [
        [1, "a"],
        [2, "b"],
      ],
      [
        [1, "c"],
        [3, "d"],
      ],
    ]);
  });
});

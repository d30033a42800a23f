import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { fixtureDevice } from "./contract/shared-inventory.ts";

describe("change records", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api.close());

  const changes = async (query: string, path = "/api/core/object-changes/") => {
    const reply = await api.get(`${path}?${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.results as any[];
  };

  it("are served read-only at /api/core/object-changes/ and /api/extras/object-changes/", async () => {
    const made = await api.post("/api/dcim/regions/", { name: "Mars", slug: "mars" });
    const requestId = made.headers.get("X-Request-ID")!;
    const [core] = await changes(`request_id=${requestId}`);
    const [extras] = await changes(`request_id=${requestId}`, "/api/extras/object-changes/");
    expect(extras).toEqual(core);
    expect(core).toMatchObject({
      url: `${ORIGIN}/api/core/object-changes/${core.id}/`,
      display: "DCIM | region Mars created by admin",
      user: { username: "admin" },
      user_name: "admin",
      request_id: requestId,
      action: { value: "create", label: "Created" },
      changed_object_type: "dcim.region",
      changed_object_id: made.body.id,
      changed_object: { id: made.body.id, url: `${ORIGIN}/api/dcim/regions/${made.body.id}/`, name: "Mars", slug: "mars" },
      object_repr: "Mars",
      prechange_data: null,
    });
    expect(core.postchange_data).toMatchObject({ name: "Mars", slug: "mars", parent: null });
    expect((await api.get(`/api/core/object-changes/${core.id}/`)).body).toEqual(core);

    for (const [method, path] of [
      ["POST", "/api/core/object-changes/"],
      ["PATCH", `/api/core/object-changes/${core.id}/`],
      ["DELETE", `/api/extras/object-changes/${core.id}/`],
    ]) {
      const refused = await api.request(method, path, { body: method === "DELETE" ? undefined : {} });
      expect(refused.status, `${method} ${path}`).toBe(405);
      expect(refused.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect((await api.request("OPTIONS", "/api/core/object-changes/")).body.actions).toBeUndefined();
    expect((await api.get("/api/core/object-changes/", { token: null })).status).toBe(403);
  });

  it("keep naming a deleted object, with its pre-change snapshot", async () => {
    const made = await api.post("/api/dcim/regions/", { name: "Venus", slug: "venus" });
    const gone = await api.delete(`/api/dcim/regions/${made.body.id}/`);
    const [record] = await changes(`request_id=${gone.headers.get("X-Request-ID")}`);
    expect(record).toMatchObject({
      action: { value: "delete" },
      changed_object_id: made.body.id,
      changed_object: null,
      postchange_data: null,
    });
    expect(record.prechange_data.name).toBe("Venus");
    const all = await changes(`changed_object_type=dcim.region&changed_object_id=${made.body.id}`);
    expect(all.map((c) => c.action.value)).toEqual(["delete", "create"]);
  });

  it("filter by user, user_name, action, object, time and q", async () => {
    const other = await api.token({ username: "changer" });
    const made = await api.post("/api/tenancy/tenants/", { name: "Filtered", slug: "filtered" }, { token: other });
    await api.patch(`/api/tenancy/tenants/${made.body.id}/`, { description: "x" }, { token: other });
    const ids = async (q: string) => (await changes(`${q}&changed_object_type=tenancy.tenant`)).map((c) => c.action.value);
    expect(await ids("user=changer")).toEqual(["update", "create"]);
    expect(await ids("user_name=changer&action=create")).toEqual(["create"]);
    const [record] = await changes("user=changer&action=create");
    expect(await ids(`user_id=${record.user.id}&action=update`)).toEqual(["update"]);
    expect(await ids(`time__gte=${record.time}&user=changer`)).toEqual(["update", "create"]);
    expect(await ids(`time__lte=2000-01-01&user=changer`)).toEqual([]);
    expect(await ids("q=Filtered")).toEqual(["update", "create"]);
    expect((await api.get("/api/core/object-changes/?action=bogus")).status).toBe(400);
  });

  it("record every row a delete removes in cascade, in the delete's transaction", async () => {
    const device = await fixtureDevice(api, "cascade");
    const made = await api.post(
      "/api/dcim/interfaces/",
      [1, 2, 3].map((i) => ({ device, name: `eth${i}`, type: "1000base-t" })),
    );
    expect(made.status, made.text).toBe(201);
    const gone = await api.delete(`/api/dcim/devices/${device}/`);
    expect(gone.status, gone.text).toBe(204);
    const records = await changes(`request_id=${gone.headers.get("X-Request-ID")}&ordering=id`);
    expect(records.map((r) => [r.action.value, r.changed_object_type, r.changed_object_id])).toEqual([
      ["delete", "dcim.device", device],
      ...made.body.map((i: any) => ["delete", "dcim.interface", i.id]),
    ]);
    expect(records[1]).toMatchObject({ related_object_type: "dcim.device", related_object_id: device, object_repr: "eth1" });
    expect(records[1].prechange_data).toMatchObject({ name: "eth1", device });
  });

  it("record an update on each row a delete clears a reference on, set-wise, in the delete's transaction", async () => {
    const manufacturer = await api.post("/api/dcim/manufacturers/", { name: "Clearing", slug: "clearing" });
    const removePlatformWith = async (count: number) => {
      const platform = await api.post("/api/dcim/platforms/", { name: `Platform ${count}`, slug: `platform-${count}` });
      const types = await api.post(
        "/api/dcim/device-types/",
        Array.from({ length: count }, (_, i) => ({
          manufacturer: manufacturer.body.id,
          model: `Model ${count}-${i}`,
          slug: `model-${count}-${i}`,
          default_platform: platform.body.id,
        })),
      );
      expect(types.status, types.text).toBe(201);
      let gone!: Awaited<ReturnType<typeof api.delete>>;
      const cost = await api.cost(async () => {
        gone = await api.delete(`/api/dcim/platforms/${platform.body.id}/`);
      });
      expect(gone.status, gone.text).toBe(204);
      return { platform: platform.body, types: types.body as any[], requestId: gone.headers.get("X-Request-ID")!, cost };
    };
    const one = await removePlatformWith(1);
    const three = await removePlatformWith(3);
    // The same statements whatever the number of rows cleared.
    expect(three.cost).toEqual(one.cost);

    const records = await changes(`request_id=${three.requestId}&ordering=id`);
    expect(records.map((r) => [r.action.value, r.changed_object_type, r.changed_object_id])).toEqual([
      ["delete", "dcim.platform", three.platform.id],
      ...three.types.map((t) => ["update", "dcim.devicetype", t.id]),
    ]);
    const type = (await api.get(`/api/dcim/device-types/${three.types[0].id}/`)).body;
    expect(type.default_platform).toBeNull();
    expect(type.last_updated > three.types[0].last_updated).toBe(true);
    expect(records[1]).toMatchObject({ object_repr: three.types[0].display, user_name: "admin" });
    expect(records[1].prechange_data).toMatchObject({ model: three.types[0].model, default_platform: three.platform.id });
    expect(records[1].postchange_data).toMatchObject({
      model: three.types[0].model,
      default_platform: null,
      last_updated: type.last_updated,
    });
  });

  it("record clearing a generic reference as an update of its row", async () => {
    const webhook = await api.post("/api/extras/webhooks/", { name: "Doomed hook", payload_url: "http://127.0.0.1:9/" });
    const rule = await api.post("/api/extras/event-rules/", {
      name: "Orphaned rule",
      object_types: ["dcim.site"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
    });
    expect(rule.status, rule.text).toBe(201);
    const gone = await api.delete(`/api/extras/webhooks/${webhook.body.id}/`);
    const records = await changes(`request_id=${gone.headers.get("X-Request-ID")}&ordering=id`);
    expect(records.map((r) => [r.action.value, r.changed_object_type, r.changed_object_id])).toEqual([
      ["delete", "extras.webhook", webhook.body.id],
      ["update", "extras.eventrule", rule.body.id],
    ]);
    expect(records[1].prechange_data).toMatchObject({ action_object_type: "extras.webhook", action_object_id: webhook.body.id });
    expect(records[1].postchange_data).toMatchObject({ action_object_type: null, action_object_id: null });
    expect((await api.get(`/api/extras/event-rules/${rule.body.id}/`)).body.action_object).toBeNull();
    await api.delete(`/api/extras/event-rules/${rule.body.id}/`);
  });

  it("a refused write records nothing", async () => {
    const refused = await api.post("/api/dcim/regions/", [
      { name: "Ok", slug: "ok-region" },
      { name: "", slug: "bad" },
    ]);
    expect(refused.status).toBe(400);
    expect(await changes(`request_id=${refused.headers.get("X-Request-ID")}`)).toEqual([]);
  });
});

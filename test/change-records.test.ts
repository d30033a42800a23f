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
      display: "dcim.region Mars created by admin",
      user: { username: "admin" }, user_name: "admin", request_id: requestId,
      action: { value: "create", label: "Created" },
      changed_object_type: "dcim.region", changed_object_id: made.body.id,
      changed_object: { id: made.body.id, url: `${ORIGIN}/api/dcim/regions/${made.body.id}/`, name: "Mars", slug: "mars" },
      object_repr: "Mars", prechange_data: null,
    });
    expect(core.postchange_data).toMatchObject({ name: "Mars", slug: "mars", parent: null });
    expect((await api.get(`/api/core/object-changes/${core.id}/`)).body).toEqual(core);

    for (const [method, path] of [["POST", "/api/core/object-changes/"], ["PATCH", `/api/core/object-changes/${core.id}/`], ["DELETE", `/api/extras/object-changes/${core.id}/`]]) {
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
    expect(record).toMatchObject({ action: { value: "delete" }, changed_object_id: made.body.id, changed_object: null, postchange_data: null });
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
    const made = await api.post("/api/dcim/interfaces/", [1, 2, 3].map((i) => ({ device, name: `eth${i}`, type: "1000base-t" })));
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

  it("a refused write records nothing", async () => {
    const refused = await api.post("/api/dcim/regions/", [{ name: "Ok", slug: "ok-region" }, { name: "", slug: "bad" }]);
    expect(refused.status).toBe(400);
    expect(await changes(`request_id=${refused.headers.get("X-Request-ID")}`)).toEqual([]);
  });
});

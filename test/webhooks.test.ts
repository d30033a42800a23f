import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness, removeWebhooks } from "./support/harness.ts";
import { startReceiver } from "./support/receiver.ts";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe("webhooks end to end, with a real receiver on 127.0.0.1", () => {
  let api: Harness;
  let rx: Receiver;
  let n = 0;
  beforeAll(async () => {
    api = await createHarness({ WEBHOOK_TIMEOUT: "1" });
    rx = await startReceiver();
  });
  afterAll(async () => {
    api.close();
    await rx.close();
  });
  afterEach(async () => {
    await api.queue.drain();
    rx.received.length = 0;
    rx.state.status = 200;
    rx.state.hang = false;
    // Each test sets up its own webhooks and rules.
    await removeWebhooks(api);
    await api.queue.drain();
    rx.received.length = 0;
  });

  /** A webhook to the receiver and a rule sending `events` of `types` to it. */
  async function hook(fields: Record<string, unknown> = {}, rule: Record<string, unknown> = {}) {
    const name = `hook${++n}`;
    const webhook = await api.post("/api/extras/webhooks/", { name, payload_url: `${rx.url}/hook/{{event}}`, ...fields });
    expect(webhook.status, webhook.text).toBe(201);
    const eventRule = await api.post("/api/extras/event-rules/", {
      name: `rule${n}`,
      object_types: ["dcim.site"],
      event_types: ["object_created", "object_updated", "object_deleted"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
      ...rule,
    });
    expect(eventRule.status, eventRule.text).toBe(201);
    return { webhook: webhook.body, rule: eventRule.body };
  }
  const deliveries = async (query = "") => (await api.get(`/api/extras/webhook-deliveries/?limit=0&${query}`)).body.results as any[];

  it("sends created, updated and deleted events, signed, without the API waiting", async () => {
    const secret = "s3cret-value";
    const { webhook } = await hook({ secret, additional_headers: "X-Event: {{event}}\nX-Model: {{model}}" });
    // Shown to whoever may view the webhook, as NetBox 4.2 does; never in a delivery (webhook-admin.test.ts).
    expect(webhook.secret).toBe(secret);
    expect((await api.get(`/api/extras/webhooks/${webhook.id}/`)).body.secret).toBe(secret);

    const created = await api.post("/api/dcim/sites/", { name: "Hooked", slug: "hooked" });
    const requestId = created.headers.get("X-Request-ID")!;
    const [queued] = await deliveries(`request_id=${requestId}`);
    expect(queued).toMatchObject({
      event: { value: "created" },
      object_type: "dcim.site",
      object_id: created.body.id,
      webhook: { id: webhook.id },
    });
    await api.patch(`/api/dcim/sites/${created.body.id}/`, { description: "changed" });
    const beforeDelete = await api.get(`/api/dcim/sites/${created.body.id}/`);
    await api.delete(`/api/dcim/sites/${created.body.id}/`);
    await api.queue.drain();

    // The events of one object arrive in commit order (test/webhook-order.test.ts).
    const received = rx.received;
    expect(received.map((r) => [r.method, r.path])).toEqual(
      ["/hook/created", "/hook/updated", "/hook/deleted"].map((path) => ["POST", path]),
    );
    const [first, second, third] = received;
    expect(first.headers["content-type"]).toBe("application/json");
    expect([first.headers["x-event"], first.headers["x-model"]]).toEqual(["created", "site"]);
    const body = JSON.parse(first.body);
    expect(Object.keys(body).sort()).toEqual(["data", "event", "model", "request_id", "snapshots", "timestamp", "username"]);
    expect(body).toMatchObject({
      event: "created",
      model: "site",
      username: "admin",
      request_id: requestId,
      snapshots: { prechange: null },
    });
    // URLs in `data` are relative, as NetBox renders them without a request.
    expect(body.data).toMatchObject({
      id: created.body.id,
      name: "Hooked",
      url: `/api/dcim/sites/${created.body.id}/`,
      status: { value: "active" },
    });
    expect(body.data).toEqual(relative(created.body));
    // NetBox's (Python's isoformat) timestamp: microseconds and +00:00, not Z.
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(body.snapshots.postchange).toMatchObject({ name: "Hooked" });
    expect(JSON.parse(second.body).snapshots.prechange.description).toBe("");
    expect(JSON.parse(third.body)).toMatchObject({
      event: "deleted",
      data: { id: created.body.id, name: "Hooked" },
      snapshots: { postchange: null },
    });
    // A deleted object's data is the object as its GET showed it before the delete, as NetBox sends it.
    expect(JSON.parse(third.body).data).toEqual(relative(beforeDelete.body));

    // NetBox's signature over the exact body, and the Standard Webhooks one over id.timestamp.body.
    expect(first.headers["x-hook-signature"]).toBe(createHmac("sha512", secret).update(first.body).digest("hex"));
    const { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": sig } = first.headers as Record<string, string>;
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(sig).toBe(`v1,${createHmac("sha256", secret).update(`${id}.${ts}.${first.body}`).digest("base64")}`);

    const done = await deliveries(`webhook_id=${webhook.id}`);
    expect(done.map((d) => [d.event.value, d.status.value, d.attempts, d.last_status_code])).toEqual([
      ["deleted", "succeeded", 1, 200],
      ["updated", "succeeded", 1, 200],
      ["created", "succeeded", 1, 200],
    ]);
  });

  it("records a failing receiver's answer, and the retry endpoint delivers once it is fixed", async () => {
    const { webhook } = await hook();
    rx.state.status = 500;
    const site = await api.post("/api/dcim/sites/", { name: "Failing", slug: "failing" });
    await api.queue.drain();
    const [failed] = await deliveries(`webhook_id=${webhook.id}`);
    expect(failed).toMatchObject({ status: { value: "failed", label: "Failed" }, attempts: 1, last_status_code: 500 });
    expect(failed.error_log).toContain("HTTP 500: receiver says no");
    expect(failed.response_excerpt.length).toBe(1024);
    expect((await deliveries("status=failed")).map((d) => d.id)).toContain(failed.id);

    const user = await api.token({ superuser: false });
    expect((await api.post(`/api/extras/webhook-deliveries/${failed.id}/retry/`, {}, { token: user })).status).toBe(403);
    rx.state.status = 204;
    const retried = await api.post(`/api/extras/webhook-deliveries/${failed.id}/retry/`, {});
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.status.value).toBe("queued");
    await api.queue.drain();
    const [ok] = await deliveries(`webhook_id=${webhook.id}`);
    expect(ok).toMatchObject({ status: { value: "succeeded" }, attempts: 2, last_status_code: 204 });
    expect(rx.received).toHaveLength(2);
    // Only a failed run can be retried.
    expect((await api.post(`/api/extras/webhook-deliveries/${ok.id}/retry/`, {})).status).toBe(400);
    await api.delete(`/api/dcim/sites/${site.body.id}/`);
  });

  it("retries many failed runs at once, all or none", async () => {
    const { webhook } = await hook();
    rx.state.status = 503;
    await api.post("/api/dcim/sites/", [
      { name: "R1", slug: "r1" },
      { name: "R2", slug: "r2" },
    ]);
    await api.queue.drain();
    const failed = await deliveries(`webhook_id=${webhook.id}&status=failed`);
    expect(failed).toHaveLength(2);
    const refused = await api.post("/api/extras/webhook-deliveries/retry/", [{ id: failed[0].id }, { id: 999999 }]);
    expect(refused.status).toBe(400);
    expect(await deliveries(`webhook_id=${webhook.id}&status=failed`)).toHaveLength(2);
    rx.state.status = 200;
    const retried = await api.post(
      "/api/extras/webhook-deliveries/retry/",
      failed.map((d) => ({ id: d.id })),
    );
    expect(retried.status, retried.text).toBe(200);
    await api.queue.drain();
    expect(await deliveries(`webhook_id=${webhook.id}&status=succeeded`)).toHaveLength(2);
  });

  it("gives up on a hanging receiver after WEBHOOK_TIMEOUT", async () => {
    const { webhook } = await hook();
    rx.state.hang = true;
    await api.post("/api/dcim/sites/", { name: "Hanging", slug: "hanging" });
    await api.queue.drain();
    const [failed] = await deliveries(`webhook_id=${webhook.id}`);
    expect(failed.status.value).toBe("failed");
    expect(failed.error_log).toContain("timed out after 1 s");
  });

  it("heals an enqueue lost after commit with the sweep, and sends a run once", async () => {
    const { webhook } = await hook();
    const site = await api.post("/api/dcim/sites/", { name: "Lost", slug: "lost" }, { enqueue: false });
    await api.queue.drain();
    expect(rx.received).toHaveLength(0);
    const [queued] = await deliveries(`request_id=${site.headers.get("X-Request-ID")}`);
    expect(queued.status.value).toBe("queued");
    expect(await api.app.sweep(api.db)).not.toContain(queued.id);
    const later = new Date(Date.now() + 120_000);
    expect(await api.app.sweep(api.db, later)).toEqual([queued.id]);
    await api.queue.push(await api.app.sweep(api.db, later));
    await api.queue.drain();
    expect(rx.received).toHaveLength(1);
    // A redelivered message for a run that succeeded sends nothing.
    expect(await api.app.deliver(api.db, queued.id)).toEqual({ kind: "done" });
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(`webhook_id=${webhook.id}`))[0].attempts).toBe(1);
  });

  it("writes 100 change records and 100 deliveries in a bulk write's transaction; a refused write neither", async () => {
    await hook();
    const sites = Array.from({ length: 100 }, (_, i) => ({ name: `Bulk ${i}`, slug: `bulk-${i}` }));
    const made = await api.post("/api/dcim/sites/", sites);
    expect(made.status).toBe(201);
    const requestId = made.headers.get("X-Request-ID")!;
    expect((await api.get(`/api/core/object-changes/?request_id=${requestId}`)).body.count).toBe(100);
    expect((await api.get(`/api/extras/webhook-deliveries/?request_id=${requestId}`)).body.count).toBe(100);
    await api.queue.drain();
    expect(rx.received).toHaveLength(100);

    const refused = await api.post("/api/dcim/sites/", [
      { name: "Fine", slug: "fine" },
      { name: "Bulk 1", slug: "bulk-1" },
    ]);
    expect(refused.status).toBe(400);
    const refusedId = refused.headers.get("X-Request-ID")!;
    expect((await api.get(`/api/core/object-changes/?request_id=${refusedId}`)).body.count).toBe(0);
    expect((await api.get(`/api/extras/webhook-deliveries/?request_id=${refusedId}`)).body.count).toBe(0);
    await api.delete(
      "/api/dcim/sites/",
      made.body.map((s: any) => ({ id: s.id })),
    );
  });

  it("conditions select and reject events on the object's data", async () => {
    const { webhook } = await hook(
      {},
      {
        event_types: ["object_created"],
        conditions: {
          and: [
            { attr: "status.value", value: "active" },
            { attr: "name", value: "^Keep", op: "regex" },
          ],
        },
      },
    );
    await api.post("/api/dcim/sites/", [
      { name: "Keep me", slug: "keep-me" },
      { name: "Keep planned", slug: "keep-planned", status: "planned" },
      { name: "Drop me", slug: "drop-me" },
    ]);
    await api.queue.drain();
    expect(rx.received.map((r) => JSON.parse(r.body).data.name)).toEqual(["Keep me"]);
    expect((await deliveries(`webhook_id=${webhook.id}`)).map((d) => d.object_repr)).toEqual(["Keep me"]);
    const bad = await api.post("/api/extras/event-rules/", {
      name: "bad",
      object_types: ["dcim.site"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.id,
      conditions: { attr: "name", value: "x", op: "between" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.conditions[0]).toContain("Unknown operator: between");
  });

  it("sends each event's data as of its commit, whatever happens to the object before it is sent", async () => {
    await hook();
    api.queue.pause();
    const site = await api.post("/api/dcim/sites/", { name: "Frozen", slug: "frozen", status: "planned" });
    await api.patch(`/api/dcim/sites/${site.body.id}/`, { name: "Thawed", status: "active" });
    await api.delete(`/api/dcim/sites/${site.body.id}/`);
    api.queue.resume();
    await api.queue.drain();
    const bodies = rx.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event)).toEqual(["created", "updated", "deleted"]);
    // The created event is the response of the create, not the object as it stood when sent (gone).
    expect(bodies[0].data).toEqual(relative(site.body));
    expect(bodies[0].snapshots).toMatchObject({ prechange: null, postchange: { name: "Frozen", status: "planned" } });
    expect(bodies[1].data).toMatchObject({ id: site.body.id, name: "Thawed", status: { value: "active", label: "Active" } });
    expect(bodies[1].snapshots.prechange).toMatchObject({ name: "Frozen" });
    expect(bodies[2]).toMatchObject({ data: { id: site.body.id, name: "Thawed" }, snapshots: { postchange: null } });
  });

  it("evaluates conditions on the data as of the commit; a rejected event never shows as a delivery", async () => {
    const { webhook, rule } = await hook({}, { event_types: ["object_created"], conditions: { attr: "status.value", value: "active" } });
    api.queue.pause();
    const kept = await api.post("/api/dcim/sites/", { name: "Active then", slug: "active-then" });
    const dropped = await api.post("/api/dcim/sites/", { name: "Planned then", slug: "planned-then", status: "planned" });
    // Changes after the commit change nothing: neither the object's state nor the rule's conditions.
    await api.patch(`/api/dcim/sites/${kept.body.id}/`, { status: "planned" });
    await api.patch(`/api/dcim/sites/${dropped.body.id}/`, { status: "active" });
    await api.patch(`/api/extras/event-rules/${rule.id}/`, { conditions: { attr: "status.value", value: "planned" } });
    // Waiting for their conditions, the runs are no deliveries yet, neither queued nor anything else.
    expect(await deliveries(`webhook_id=${webhook.id}`)).toEqual([]);
    expect(await deliveries("status=queued")).toEqual([]);
    api.queue.resume();
    await api.queue.drain();
    expect(rx.received.map((r) => JSON.parse(r.body).data.name)).toEqual(["Active then"]);
    const done = await deliveries(`webhook_id=${webhook.id}`);
    expect(done.map((d) => [d.object_id, d.status.value])).toEqual([[kept.body.id, "succeeded"]]);
    await api.delete("/api/dcim/sites/", [{ id: kept.body.id }, { id: dropped.body.id }]);
  });

  it("sends an update for each row a delete clears a reference on", async () => {
    await hook({}, { object_types: ["dcim.devicetype"], event_types: ["object_updated"] });
    const maker = await api.post("/api/dcim/manufacturers/", { name: "Hooked maker", slug: "hooked-maker" });
    const platform = await api.post("/api/dcim/platforms/", { name: "Leaving", slug: "leaving" });
    const types = await api.post(
      "/api/dcim/device-types/",
      [1, 2].map((i) => ({
        manufacturer: maker.body.id,
        model: `Hooked ${i}`,
        slug: `hooked-${i}`,
        default_platform: platform.body.id,
      })),
    );
    expect((await api.delete(`/api/dcim/platforms/${platform.body.id}/`)).status).toBe(204);
    await api.queue.drain();
    const bodies = rx.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.event, b.model, b.data.id, b.data.default_platform])).toEqual(
      types.body.map((t: any) => ["updated", "devicetype", t.id, null]),
    );
    expect(bodies[0].data.manufacturer).toMatchObject({ id: maker.body.id, name: "Hooked maker" });
    expect(bodies[0].snapshots.prechange.default_platform).toBe(platform.body.id);
    expect(bodies[0].snapshots.postchange.default_platform).toBeNull();
    await api.delete(
      "/api/dcim/device-types/",
      types.body.map((t: any) => ({ id: t.id })),
    );
    await api.delete(`/api/dcim/manufacturers/${maker.body.id}/`);
  });

  it("sends each row a delete removes in cascade as its GET showed it, and the deleted object too", async () => {
    await hook({}, { object_types: ["dcim.device", "dcim.interface"], event_types: ["object_deleted"] });
    const site = await api.post("/api/dcim/sites/", { name: "Cascade", slug: "cascade" });
    const maker = await api.post("/api/dcim/manufacturers/", { name: "Cascade maker", slug: "cascade-maker" });
    const type = await api.post("/api/dcim/device-types/", { manufacturer: maker.body.id, model: "Cascade", slug: "cascade" });
    const role = await api.post("/api/dcim/device-roles/", { name: "Cascade", slug: "cascade" });
    const device = await api.post("/api/dcim/devices/", {
      name: "doomed",
      site: site.body.id,
      device_type: type.body.id,
      role: role.body.id,
    });
    expect(device.status, device.text).toBe(201);
    const ifaces = await api.post(
      "/api/dcim/interfaces/",
      ["eth0", "eth1"].map((name) => ({ device: device.body.id, name, type: "1000base-t", enabled: false })),
    );
    expect(ifaces.status, ifaces.text).toBe(201);
    await api.patch("/api/dcim/interfaces/", [{ id: ifaces.body[1].id, description: "second" }]);
    const before = await Promise.all(
      [`/api/dcim/devices/${device.body.id}/`, ...ifaces.body.map((i: any) => `/api/dcim/interfaces/${i.id}/`)].map(
        async (p) => (await api.get(p)).body,
      ),
    );
    await api.queue.drain();
    rx.received.length = 0;
    expect((await api.delete(`/api/dcim/devices/${device.body.id}/`)).status).toBe(204);
    await api.queue.drain();
    const bodies = rx.received.map((r) => JSON.parse(r.body));
    const sent = (model: string, id: number) => bodies.find((b) => b.model === model && b.data.id === id);
    expect(bodies).toHaveLength(3);
    expect(sent("device", device.body.id).data).toEqual(relative(before[0]));
    for (const [i, iface] of ifaces.body.entries()) {
      const body = sent("interface", iface.id);
      // As NetBox sends it: the full representation (type as value and label, device nested), not the snapshot.
      expect(body.data).toEqual(relative(before[i + 1]));
      expect(body.data.type).toEqual({ value: "1000base-t", label: "1000BASE-T (1GE)" });
      expect(body.snapshots).toMatchObject({ prechange: { name: iface.name, device: device.body.id }, postchange: null });
    }
    await api.delete(`/api/dcim/device-types/${type.body.id}/`);
  });

  it("renders body, URL and headers by content type, and refuses a broken template on save", async () => {
    await hook({
      body_template: '{"name": "{{data.name}}", "who": "{{username}}"}',
      additional_headers: "X-Name: {{data.name}}",
      payload_url: `${rx.url}/hook?name={{data.name}}`,
    });
    await api.post("/api/dcim/sites/", { name: 'Quote " and\nnewline', slug: "quote" });
    await api.queue.drain();
    const [got] = rx.received;
    expect(JSON.parse(got.body)).toEqual({ name: 'Quote " and\nnewline', who: "admin" });
    expect(got.headers["x-name"]).toBe('Quote " andnewline');
    expect(got.path).toBe(`/hook?name=${encodeURIComponent('Quote " and\nnewline')}`);

    const broken = await api.post("/api/extras/webhooks/", { name: "broken", payload_url: "http://x/", body_template: "{{#data}}" });
    expect(broken.status).toBe(400);
    expect(broken.body.body_template[0]).toContain("Invalid template");
  });

  it("accepts NetBox 3.x webhooks that act as their own event rule", async () => {
    const legacy = await api.post("/api/extras/webhooks/", {
      name: "legacy",
      payload_url: `${rx.url}/legacy`,
      content_types: ["dcim.site"],
      type_create: true,
      http_content_type: "text/plain",
      body_template: "{{event}} {{data.name}}",
    });
    expect(legacy.status, legacy.text).toBe(201);
    expect(legacy.body).toMatchObject({ object_types: ["dcim.site"], content_types: ["dcim.site"], type_create: true, enabled: true });
    const site = await api.post("/api/dcim/sites/", { name: "Old <style>", slug: "old-style" });
    await api.patch(`/api/dcim/sites/${site.body.id}/`, { description: "not sent: type_update is off" });
    await api.queue.drain();
    expect(rx.received.map((r) => r.body)).toEqual(["created Old <style>"]);
  });

  it("refuses destinations in blocked networks, without sending", async () => {
    const { webhook } = await hook({ payload_url: "http://169.254.169.254/latest/meta-data/" });
    await api.post("/api/dcim/sites/", { name: "Metadata", slug: "metadata" });
    await api.queue.drain();
    const [failed] = await deliveries(`webhook_id=${webhook.id}`);
    expect(failed.status.value).toBe("failed");
    expect(failed.error_log).toContain("blocked network");
  });
});

/** A response as a webhook's `data` holds it: every URL into the API without the origin. */
function relative(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(`"${ORIGIN}/`, '"/'));
}

/**
 * Per-object order of webhook deliveries: the events of one object reach one webhook in commit
 * order, each sent only once the previous one is settled (succeeded, or failed for good after its
 * retries), while other objects' events go in parallel. A real receiver on 127.0.0.1 answers
 * slowly and at random; the in-process consumer sends up to WEBHOOK_CONCURRENCY (16) at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, removeWebhooks } from "./support/harness.ts";
import { startReceiver, type Received } from "./support/receiver.ts";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const event = (r: Received) => JSON.parse(r.body) as { event: string; data: { id: number; name: string; description: string } };

/** Polls until `check` holds, for what the queue sends after `drain()` (scheduled retries). */
async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("webhook deliveries of one object arrive in commit order", () => {
  let api: Harness;
  let rx: Receiver;
  let n = 0;
  beforeAll(async () => {
    // One automatic retry, after about a second: a failing run holds back its object's later events meanwhile.
    api = await createHarness({ WEBHOOK_MAX_RETRIES: "1", WEBHOOK_RETRY_BACKOFF: "1" });
    rx = await startReceiver();
  });
  afterAll(async () => {
    api.close();
    await rx.close();
  });
  afterEach(async () => {
    await api.queue.drain();
    // Each test has its own webhook and rule.
    await removeWebhooks(api);
    rx.received.length = 0;
    rx.state.answer = null;
  });

  async function hook() {
    const name = `order${++n}`;
    const webhook = await api.post("/api/extras/webhooks/", { name, payload_url: `${rx.url}/${name}` });
    expect(webhook.status, webhook.text).toBe(201);
    const rule = await api.post("/api/extras/event-rules/", {
      name,
      object_types: ["dcim.site"],
      event_types: ["object_created", "object_updated", "object_deleted"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
    });
    expect(rule.status, rule.text).toBe(201);
    return webhook.body;
  }
  const runs = async (webhook: number) =>
    (await api.get(`/api/extras/webhook-deliveries/?webhook_id=${webhook}&limit=0&ordering=id`)).body.results as any[];

  it("keeps create, updates (single and bulk) and delete of each object in order, while objects overlap", async () => {
    const webhook = await hook();
    rx.state.answer = () => ({ delayMs: Math.floor(Math.random() * 40) });
    const K = 8;
    // Nothing waits for delivery between the requests: every event is queued while others are in flight.
    const created = await api.post(
      "/api/dcim/sites/",
      Array.from({ length: K }, (_, i) => ({ name: `Ordered ${n}-${i}`, slug: `ordered-${n}-${i}` })),
    );
    expect(created.status, created.text).toBe(201);
    const ids: number[] = created.body.map((s: any) => s.id);
    await Promise.all(
      ids.map(async (id) => {
        for (const step of ["1", "2", "3"]) expect((await api.patch(`/api/dcim/sites/${id}/`, { description: step })).status).toBe(200);
      }),
    );
    expect(
      (
        await api.patch(
          "/api/dcim/sites/",
          ids.map((id) => ({ id, description: "bulk" })),
        )
      ).status,
    ).toBe(200);
    await Promise.all(ids.map(async (id) => expect((await api.delete(`/api/dcim/sites/${id}/`)).status).toBe(204)));
    await api.queue.drain();

    expect(rx.received).toHaveLength(K * 6);
    for (const id of ids) {
      const mine = rx.received.filter((r) => event(r).data.id === id);
      expect(mine.map((r) => [event(r).event, event(r).data.description])).toEqual([
        ["created", ""],
        ["updated", "1"],
        ["updated", "2"],
        ["updated", "3"],
        ["updated", "bulk"],
        ["deleted", "bulk"],
      ]);
      // Each was sent only once the previous one had its answer.
      for (let i = 1; i < mine.length; i++) expect(mine[i].arrived).toBeGreaterThanOrEqual(mine[i - 1].answered!);
    }
    // Different objects did not wait for each other: requests of two objects were at the receiver at once.
    const overlapping = rx.received.some((a) =>
      rx.received.some((b) => event(a).data.id !== event(b).data.id && b.arrived > a.arrived && b.arrived < a.answered!),
    );
    expect(overlapping).toBe(true);
    expect((await runs(webhook.id)).every((d) => d.status.value === "succeeded" && d.attempts === 1)).toBe(true);
  });

  it("holds an object's later events while its earlier one waits for a retry, and lets other objects go", async () => {
    const webhook = await hook();
    const held = await api.post("/api/dcim/sites/", { name: `Held ${n}`, slug: `held-${n}` });
    await api.queue.drain();
    rx.received.length = 0;
    // The held site's first update fails once; its automatic retry comes about a second later.
    let failed = false;
    rx.state.answer = (r) => {
      const e = event(r);
      if (e.data.id !== held.body.id || e.data.description !== "first" || failed) return {};
      failed = true;
      return { status: 503 };
    };
    await api.patch(`/api/dcim/sites/${held.body.id}/`, { description: "first" });
    await api.patch(`/api/dcim/sites/${held.body.id}/`, { description: "second" });
    const free = await api.post("/api/dcim/sites/", { name: `Free ${n}`, slug: `free-${n}` });
    await api.queue.drain();

    // While the first update waits for its retry, the second is neither sent nor attempted; the other site went.
    const waiting = (await runs(webhook.id)).filter((d) => d.object_id === held.body.id && d.event.value === "updated");
    expect(waiting.map((d) => [d.status.value, d.attempts])).toEqual([
      ["queued", 1],
      ["queued", 0],
    ]);
    expect(rx.received.map((r) => [event(r).data.id, event(r).data.description])).toEqual([
      [held.body.id, "first"],
      [free.body.id, ""],
    ]);
    // Nor does the sweep hand it out: it is not due before the first one is settled.
    expect(await api.app.sweep(api.db, new Date(Date.now() + 3_600_000))).not.toContain(waiting[1].id);

    await eventually(() => rx.received.length === 4);
    await api.queue.drain();
    expect(rx.received.map((r) => [event(r).data.id, event(r).data.description])).toEqual([
      [held.body.id, "first"],
      [free.body.id, ""],
      [held.body.id, "first"],
      [held.body.id, "second"],
    ]);
    const done = (await runs(webhook.id)).filter((d) => d.object_id === held.body.id && d.event.value === "updated");
    expect(done.map((d) => [d.status.value, d.attempts])).toEqual([
      ["succeeded", 2],
      ["succeeded", 1],
    ]);
    expect(Date.parse(done[1].started)).toBeGreaterThanOrEqual(Date.parse(done[0].finished));
  });

  it("sends the next event once the earlier one has failed for good", async () => {
    const webhook = await hook();
    const site = await api.post("/api/dcim/sites/", { name: `Doomed ${n}`, slug: `doomed-${n}` });
    await api.queue.drain();
    rx.received.length = 0;
    rx.state.answer = (r) => (event(r).data.description === "refused" ? { status: 500 } : {});
    await api.patch(`/api/dcim/sites/${site.body.id}/`, { description: "refused" });
    await api.patch(`/api/dcim/sites/${site.body.id}/`, { description: "accepted" });
    await eventually(() => rx.received.length === 3);
    await api.queue.drain();
    expect(rx.received.map((r) => event(r).data.description)).toEqual(["refused", "refused", "accepted"]);
    const updates = (await runs(webhook.id)).filter((d) => d.event.value === "updated");
    expect(updates.map((d) => [d.status.value, d.attempts])).toEqual([
      ["failed", 2],
      ["succeeded", 1],
    ]);
  });

  it("a run that waited is sent when the earlier one settles, or found by the sweep if that hand-over is lost", async () => {
    const webhook = await hook();
    // The create's enqueue is lost: its run stays queued, unsent, and the update waits behind it.
    const site = await api.post("/api/dcim/sites/", { name: `Lost ${n}`, slug: `lost-${n}` }, { enqueue: false });
    await api.patch(`/api/dcim/sites/${site.body.id}/`, { description: "after" });
    await api.queue.drain();
    expect(rx.received).toHaveLength(0);
    const [create, update] = await runs(webhook.id);
    expect([create.status.value, update.status.value, update.attempts]).toEqual(["queued", "queued", 0]);
    // The sweep hands out only the create; once it is sent, the update follows by itself.
    const later = new Date(Date.now() + 120_000);
    const swept = await api.app.sweep(api.db, later);
    expect([swept.includes(create.id), swept.includes(update.id)]).toEqual([true, false]);
    await api.queue.push([create.id]);
    await api.queue.drain();
    expect(rx.received.map((r) => event(r).event)).toEqual(["created", "updated"]);

    // Another object: its create goes out by hand, the update's hand-over is dropped; the sweep finds the update.
    rx.received.length = 0;
    const other = await api.post("/api/dcim/sites/", { name: `Orphan ${n}`, slug: `orphan-${n}` }, { enqueue: false });
    await api.patch(`/api/dcim/sites/${other.body.id}/`, { description: "after" }, { enqueue: false });
    const [first, second] = (await runs(webhook.id)).filter((d) => d.object_id === other.body.id);
    expect(await api.app.deliver(api.db, first.id)).toEqual({ kind: "done", next: second.id });
    expect(await api.app.sweep(api.db, later)).toContain(second.id);
    expect(await api.app.deliver(api.db, second.id)).toEqual({ kind: "done" });
    expect(rx.received.map((r) => event(r).event)).toEqual(["created", "updated"]);
  });
});

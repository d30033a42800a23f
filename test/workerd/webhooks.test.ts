/**
 * The worker's webhook path under workerd: the write enqueues to the Cloudflare Queue binding,
 * the `queue()` consumer acks or retries each message, the dead-letter consumer marks a run
 * failed, and the cron `scheduled()` sweep re-enqueues a run whose message was lost; a run waits
 * for the earlier runs of its webhook and object, and is enqueued when they settle.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { createClient } from "@libsql/client/web";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/worker.ts";
import { call, unique } from "./support.ts";

const RECEIVER = String(env.RECEIVER_URL);
const received = async () => (await (await fetch(`${RECEIVER}/_received`)).json()) as { path: string; body: string }[];
const answerWith = (status: number) => fetch(`${RECEIVER}/_status/${status}`, { method: "POST" });
const delivery = async (id: number) => (await call("GET", `/api/extras/webhook-deliveries/${id}/`)).body;
const message = (id: number, attempts = 1) => ({ id: `m${id}-${attempts}`, timestamp: Date.now(), attempts, body: { id } });

/** Runs the worker's queue handler on a batch, as the Queues runtime would. */
async function consume(queue: string, messages: ReturnType<typeof message>[]) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env as never);
  return getQueueResult(batch, ctx);
}

/** Polls until `check` holds (the real queue consumer runs on its own schedule). */
async function eventually<T>(read: () => Promise<T>, check: (x: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhooks on Workers", () => {
  let path: string;
  let webhookId: number;
  beforeAll(async () => {
    path = `/w-${unique()}`;
    const webhook = await call("POST", "/api/extras/webhooks/", {
      body: { name: `wh ${unique()}`, payload_url: `${RECEIVER}${path}/{{event}}` },
    });
    expect(webhook.status, webhook.text).toBe(201);
    webhookId = webhook.body.id;
    const rule = await call("POST", "/api/extras/event-rules/", {
      body: {
        name: `rule ${unique()}`,
        object_types: ["tenancy.tenant"],
        event_types: ["object_created"],
        action_object_type: "extras.webhook",
        action_object_id: webhook.body.id,
      },
    });
    expect(rule.status, rule.text).toBe(201);
  });

  /** A tenant whose creation queues one delivery; returns the delivery's id. */
  async function queuedDelivery(): Promise<number> {
    const id = unique();
    const tenant = await call("POST", "/api/tenancy/tenants/", { body: { name: `T ${id}`, slug: `t-${id}` } });
    expect(tenant.status, tenant.text).toBe(201);
    const list = await call("GET", `/api/extras/webhook-deliveries/?request_id=${tenant.headers.get("X-Request-ID")}`);
    expect(list.body.count).toBe(1);
    return list.body.results[0].id;
  }

  it("acks a delivered message; a redelivered one sends nothing again", async () => {
    await answerWith(200);
    const id = await queuedDelivery();
    const result = await consume("inventory-webhooks", [message(id)]);
    expect(result.explicitAcks).toEqual([`m${id}-1`]);
    const done = await eventually(
      () => delivery(id),
      (d) => d.status.value === "succeeded",
    );
    expect(done).toMatchObject({ status: { value: "succeeded" }, last_status_code: 200, attempts: 1 });
    // The binding's own consumer got the write's message too: the run is sent once.
    await new Promise((r) => setTimeout(r, 500));
    expect((await received()).filter((r) => r.path === `${path}/created` && JSON.parse(r.body).data.id === done.object_id)).toHaveLength(1);
    const again = await consume("inventory-webhooks", [message(id, 2)]);
    expect(again.explicitAcks).toEqual([`m${id}-2`]);
  });

  it("delivers a batch of messages together, each acked on its own and sent once", async () => {
    await answerWith(200);
    const ids = [await queuedDelivery(), await queuedDelivery(), await queuedDelivery()];
    // A redelivered message in the same batch as its original.
    const result = await consume("inventory-webhooks", [...ids.map((id) => message(id)), message(ids[0], 2)]);
    expect([...result.explicitAcks].sort()).toEqual([...ids.map((id) => `m${id}-1`), `m${ids[0]}-2`].sort());
    const done = await Promise.all(
      ids.map((id) =>
        eventually(
          () => delivery(id),
          (d) => d.status.value === "succeeded",
        ),
      ),
    );
    expect(done.map((d) => [d.status.value, d.attempts])).toEqual(ids.map(() => ["succeeded", 1]));
    await new Promise((r) => setTimeout(r, 500));
    const got = (await received()).filter((r) => r.path === `${path}/created`).map((r) => JSON.parse(r.body).data.id);
    for (const d of done) expect(got.filter((x) => x === d.object_id)).toHaveLength(1);
  });

  it("retries a failed send with backoff while the policy allows, then records it failed", async () => {
    await answerWith(500);
    // Claimed by the test before the binding's consumer: hold the real consumer off by failing first.
    const id = await queuedDelivery();
    const first = await eventually(
      () => delivery(id),
      (d) => d.error_log !== "",
    );
    expect(first.error_log).toContain("HTTP 500");
    // With WEBHOOK_MAX_RETRIES=2 the run stays queued for its next attempt, or has used them all.
    const final = await eventually(
      () => delivery(id),
      (d) => d.status.value === "failed",
      15_000,
    );
    expect(final).toMatchObject({ status: { value: "failed" }, attempts: 3, last_status_code: 500 });
    await answerWith(200);
  }, 30_000);

  it("asks the queue to retry a message whose run failed but may be retried", async () => {
    await answerWith(502);
    const id = await queuedDelivery();
    const result = await consume("inventory-webhooks", [message(id)]);
    const state = await delivery(id);
    if (state.attempts === 1) {
      // The test's consumer made the first attempt: the message goes back with the backoff.
      expect(result.retryMessages.map((m) => m.msgId)).toEqual([`m${id}-1`]);
      expect(result.explicitAcks).toEqual([]);
    }
    expect(state.status.value).toBe("queued");
    await answerWith(200);
  });

  it("marks a dead-lettered run failed", async () => {
    await answerWith(200);
    const client = createClient({ url: String(env.LIBSQL_URL) });
    // A run the queue gave up on (held by a crashed consumer, so nothing sends it meanwhile).
    const id = await queuedDelivery();
    await client.execute({
      sql: "UPDATE extras_webhookdelivery SET status = 'queued', lease_until = '2999-01-01' WHERE id = ?",
      args: [id],
    });
    const result = await consume("inventory-webhooks-dlq", [message(id, 11)]);
    expect(result.explicitAcks).toEqual([`m${id}-11`]);
    const dead = await delivery(id);
    expect(dead.status.value === "failed" || dead.status.value === "succeeded").toBe(true);
    if (dead.status.value === "failed") expect(dead.error_log).toContain("dead-lettered");
    client.close();
  });

  it("the cron sweep re-enqueues a run whose message was lost", async () => {
    await answerWith(200);
    const client = createClient({ url: String(env.LIBSQL_URL) });
    const id = await queuedDelivery();
    // As if the send() after commit was lost: queued, due long ago, held by nobody.
    await client.execute({
      sql: "UPDATE extras_webhookdelivery SET status = 'queued', next_attempt = '2000-01-01T00:00:00.000Z', lease_until = NULL WHERE id = ?",
      args: [id],
    });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env as never, ctx as never);
    await waitOnExecutionContext(ctx);
    const done = await eventually(
      () => delivery(id),
      (d) => d.status.value === "succeeded",
    );
    expect(done.status.value).toBe("succeeded");
    client.close();
  });

  it("holds a run while an earlier run of its webhook and object is unsettled, and enqueues it once that one settles", async () => {
    await answerWith(200);
    const client = createClient({ url: String(env.LIBSQL_URL) });
    // Two events of one object, written as the outbox writes them but sent to no queue: the first
    // held by a consumer that crashed, the second due now.
    const object = 900_000 + Math.floor(Math.random() * 99_999);
    const insert = (event: string, lease: string | null) =>
      client.execute({
        sql: `INSERT INTO extras_webhookdelivery (uuid, webhook_id, event, object_type, object_id, object_repr, request_id, status, created, last_updated,
          next_attempt, lease_until, postchange_data) VALUES (lower(hex(randomblob(16))), ?, ?, 'tenancy.tenant', ?, 'T', ?, 'queued', ?, ?, ?, ?, ?)
        RETURNING id`,
        args: [
          webhookId,
          event,
          object,
          crypto.randomUUID(),
          "2000-01-01T00:00:00.000Z",
          "2000-01-01T00:00:00.000Z",
          "2000-01-01T00:00:00.000Z",
          lease,
          JSON.stringify({ name: `T ${object}` }),
        ],
      });
    const first = Number((await insert("created", "2999-01-01")).rows[0].id);
    const second = Number((await insert("updated", null)).rows[0].id);

    // Its message is acked without sending: the earlier run is not settled.
    const held = await consume("inventory-webhooks", [message(second)]);
    expect(held.explicitAcks).toEqual([`m${second}-1`]);
    expect(await delivery(second)).toMatchObject({ status: { value: "queued" }, attempts: 0 });
    // The queue gives up on the first run: failed, it settles, and the second goes to the queue.
    await consume("inventory-webhooks-dlq", [message(first, 11)]);
    expect((await delivery(first)).status.value).toBe("failed");
    const done = await eventually(
      () => delivery(second),
      (d) => d.status.value === "succeeded",
    );
    expect(done).toMatchObject({ status: { value: "succeeded" }, attempts: 1 });
    expect((await received()).filter((r) => r.path === `${path}/updated` && JSON.parse(r.body).data.id === object)).toHaveLength(1);
    client.close();
  });
});

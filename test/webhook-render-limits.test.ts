import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness, type Harness } from "./support/harness.ts";
import { startReceiver } from "./support/receiver.ts";
import { startProcess, stop, tokenCall, type ServiceProcess } from "./support/processes.ts";
import { renderThread } from "../src/runtime/render-thread.ts";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Three nested loops over a custom-field list: n^3 iterations over data any writer controls. */
const LIST = "data.custom_fields.items";
const nested = (inner: string) => `{{#${LIST}}}{{#${LIST}}}{{#${LIST}}}${inner}{{/${LIST}}}{{/${LIST}}}{{/${LIST}}}`;
const items = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A json custom field on sites, a webhook to `url` with `fields`, and a rule sending site creations to it. */
async function hostileHook(
  call: (method: string, path: string, body: unknown) => Promise<{ status: number; body: any }>,
  url: string,
  fields: Record<string, unknown>,
) {
  await call("POST", "/api/extras/custom-fields/", { name: "items", type: "json", object_types: ["dcim.site"] });
  const webhook = await call("POST", "/api/extras/webhooks/", { name: "hostile", payload_url: url, ...fields });
  expect(webhook.status).toBe(201);
  await call("POST", "/api/extras/event-rules/", {
    name: "hostile",
    object_types: ["dcim.site"],
    event_types: ["object_created"],
    action_object_type: "extras.webhook",
    action_object_id: webhook.body.id,
  });
  return webhook.body;
}

describe("webhook template and render limits", () => {
  let api: Harness;
  let rx: Receiver;
  beforeAll(async () => {
    api = await createHarness({ WEBHOOK_TEMPLATE_MAX_SIZE: "1000", WEBHOOK_RENDER_MAX_SIZE: "65536" });
    rx = await startReceiver();
    await hostileHook((m, p, b) => api.request(m, p, { body: b }), `${rx.url}/hook`, { body_template: nested("x") });
  });
  afterAll(async () => {
    api.close();
    await rx.close();
  });
  afterEach(async () => {
    await api.queue.drain();
    rx.received.length = 0;
  });

  it("refuses templates over WEBHOOK_TEMPLATE_MAX_SIZE on save, naming the field", async () => {
    const big = "y".repeat(1001);
    const refused = await api.post("/api/extras/webhooks/", { name: "big", payload_url: `${rx.url}/`, body_template: big });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      body_template: ["Ensure this template has at most 1000 bytes (it has 1001; WEBHOOK_TEMPLATE_MAX_SIZE)."],
    });
    const headers = await api.post("/api/extras/webhooks/", {
      name: "big",
      payload_url: `${rx.url}/`,
      additional_headers: `X-Big: ${big}`,
    });
    expect(Object.keys(headers.body)).toEqual(["additional_headers"]);
    // Bytes, not characters: 400 three-byte characters are 1200 bytes.
    const wide = await api.post("/api/extras/webhooks/", { name: "big", payload_url: `${rx.url}/`, body_template: "€".repeat(400) });
    expect(wide.body.body_template[0]).toContain("it has 1200");
    const [hook] = (await api.get("/api/extras/webhooks/?name=hostile")).body.results;
    const patched = await api.patch(`/api/extras/webhooks/${hook.id}/`, { body_template: big });
    expect(patched.status).toBe(400);
    expect(
      (await api.post("/api/extras/webhooks/", { name: "fits", payload_url: `${rx.url}/`, body_template: "y".repeat(1000) })).status,
    ).toBe(201);
    await api.delete("/api/extras/webhooks/", [{ id: (await api.get("/api/extras/webhooks/?name=fits")).body.results[0].id }]);
  });

  it("fails a run whose render passes WEBHOOK_RENDER_MAX_SIZE, stopping early and sending nothing", async () => {
    const start = performance.now();
    const site = await api.post("/api/dcim/sites/", { name: "Hostile", slug: "hostile", custom_fields: { items: items(300) } });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    await api.queue.drain();
    // 27 million iterations and 27 MB in full; stopped after 64 KiB.
    expect(performance.now() - start).toBeLessThan(5000);
    const [run] = (await api.get("/api/extras/webhook-deliveries/?object_type=dcim.site")).body.results;
    expect(run.status.value).toBe("failed");
    expect(run.error_log).toContain("passes WEBHOOK_RENDER_MAX_SIZE (65536 bytes)");
    expect(rx.received).toEqual([]);
  });

  it("stops loops that print nothing after their steps, and counts the default body too", async () => {
    const [hook] = (await api.get("/api/extras/webhooks/?name=hostile")).body.results;
    expect((await api.patch(`/api/extras/webhooks/${hook.id}/`, { body_template: nested("") })).status).toBe(200);
    await api.post("/api/dcim/sites/", { name: "Quiet", slug: "quiet", custom_fields: { items: items(300) } });
    await api.queue.drain();
    expect((await api.patch(`/api/extras/webhooks/${hook.id}/`, { body_template: "" })).status).toBe(200);
    await api.post("/api/dcim/sites/", {
      name: "Large",
      slug: "large",
      description: "d".repeat(150),
      custom_fields: { items: items(20_000) },
    });
    await api.queue.drain();
    const runs = (await api.get("/api/extras/webhook-deliveries/?object_type=dcim.site&status=failed&ordering=id")).body.results;
    const byName = Object.fromEntries(runs.map((r: any) => [r.object_repr, r.error_log]));
    expect(byName.Quiet).toContain("steps (4 x WEBHOOK_RENDER_MAX_SIZE)");
    expect(byName.Large).toContain("passes WEBHOOK_RENDER_MAX_SIZE");
    expect(rx.received).toEqual([]);
  });
});

describe("rendering off the thread that answers HTTP (node src/node.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "inventory-render-"));
  const token = "cd".repeat(20);
  let service: ServiceProcess;
  let rx: Receiver;
  afterAll(async () => {
    if (service) await stop(service.child, "SIGKILL");
    await rx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps /api/status/ answering while a long render runs, and stops the render after WEBHOOK_TIMEOUT", async () => {
    rx = await startReceiver();
    // Caps high enough that this render (64 million iterations, each a lookup that writes nothing:
    // 9 s here, where 8 million writing a character each took 1.2 s and once ended inside the
    // limit) runs far past the limit: only the time limit stops it.
    service = await startProcess({
      LIBSQL_URL: `file:${dir}/inventory.db`,
      PORT: "0",
      SUPERUSER_NAME: "root",
      SUPERUSER_PASSWORD: "root-password",
      SUPERUSER_API_TOKEN: token,
      WEBHOOK_TIMEOUT: "2",
      WEBHOOK_RENDER_MAX_SIZE: String(64 * 1024 * 1024),
    });
    const headers = { Authorization: `Token ${token}`, "Content-Type": "application/json" };
    const call = tokenCall(service.url, token);
    const webhook = await hostileHook(call, `${rx.url}/hook`, { body_template: nested("{{x}}") });
    const created = await call("POST", "/api/dcim/sites/", { name: "Hostile", slug: "hostile", custom_fields: { items: items(400) } });
    expect(created.status).toBe(201);

    const latencies: number[] = [];
    const started = performance.now();
    let run: any;
    for (;;) {
      const t = performance.now();
      expect((await fetch(`${service.url}/api/status/`, { headers })).status).toBe(200);
      latencies.push(performance.now() - t);
      [run] = (await call("GET", `/api/extras/webhook-deliveries/?webhook_id=${webhook.id}`)).body.results;
      if (run.status.value !== "queued") break;
      expect(performance.now() - started).toBeLessThan(20_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    const slowest = Math.max(...latencies);
    console.log(
      `/api/status/ during a hostile render: ${latencies.length} requests, max ${slowest.toFixed(0)} ms; run ${run.status.value} after ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(run.status.value).toBe("failed");
    expect(run.error_log).toContain("rendering took longer than 2 s");
    expect(rx.received).toEqual([]);
    expect(latencies.length).toBeGreaterThan(5);
    expect(slowest).toBeLessThan(1000);
  });
});

describe("the render thread", () => {
  it("terminates a render past its time limit, fails that job alone, and renders the next on a fresh thread", async () => {
    const thread = renderThread({ timeLimitMs: 500 });
    try {
      const job = (bodyTemplate: string, list: number[]) => ({
        payloadUrl: "http://127.0.0.1/{{event}}",
        bodyTemplate,
        additionalHeaders: "X-Event: {{event}}",
        contentType: "application/json",
        context: { event: "created", data: { custom_fields: { items: list } } },
        maxSize: 1 << 30,
      });
      const stuck = thread.render(job(nested("x"), items(300)));
      const behind = thread.render(job('{"event": "{{event}}"}', []));
      await expect(stuck).rejects.toThrow("rendering took longer than 0.5 s");
      await expect(behind).resolves.toEqual({
        url: "http://127.0.0.1/created",
        headers: [["X-Event", "created"]],
        body: '{"event": "created"}',
      });
      await expect(thread.render(job("{{#data.custom_fields.items}}{{.}}{{/data.custom_fields.items}}", items(3)))).resolves.toMatchObject({
        body: "012",
      });
    } finally {
      await thread.close();
    }
  });
});

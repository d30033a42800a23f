import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";
import { serveFiles } from "./support/file-server.ts";

/** NetBox's background queues, workers and tasks, answered from the webhook delivery queue. */
describe("background queues, workers and tasks", () => {
  let api: Harness;
  let server: Awaited<ReturnType<typeof serveFiles>>;
  let staff: string;
  let plain: string;
  const tasks = async () => (await api.get("/api/core/background-tasks/?limit=0")).body.results as any[];
  const deliveryOf = async (task: any) => (await api.get(`/api/extras/webhook-deliveries/${task.kwargs.delivery}/`)).body;

  beforeAll(async () => {
    api = await createHarness({ WEBHOOK_TIMEOUT: "2" });
    // The receiver refuses everything: every sent run fails.
    server = await serveFiles({});
    const webhook = await make(api, "/api/extras/webhooks/", { name: "Refused", payload_url: `${server.url}/hook` });
    await make(api, "/api/extras/event-rules/", {
      name: "Regions",
      object_types: ["dcim.region"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook,
    });
    await api.post("/api/dcim/regions/", { name: "Sent", slug: "sent" });
    await api.queue.drain();
    // Queued and never sent: its id is not handed to the queue.
    await api.post("/api/dcim/regions/", { name: "Waiting", slug: "waiting" }, { enqueue: false });
    const staffUser = await make(api, "/api/users/users/", { username: "operator", password: "A-password-123", is_staff: true });
    staff = (await api.post("/api/users/tokens/", { user: staffUser })).body.key;
    plain = await api.token({ superuser: false });
  });
  afterAll(async () => {
    api.close();
    await server.close();
  });

  it("are for staff and superusers only, and listed in the core root", async () => {
    for (const path of ["background-queues/", "background-workers/", "background-tasks/"]) {
      expect((await api.get(`/api/core/${path}`, { token: null })).status).toBe(403);
      expect((await api.get(`/api/core/${path}`, { token: plain })).status).toBe(403);
      expect((await api.get(`/api/core/${path}`, { token: staff })).status, path).toBe(200);
    }
    const root = (await api.get("/api/core/")).body;
    expect(root["background-tasks"]).toBe(`${ORIGIN}/api/core/background-tasks/`);
    expect(root["data-sources"]).toBe(`${ORIGIN}/api/core/data-sources/`);
    expect((await api.get("/api/core/background-tasks/", { token: plain })).body.detail).toBe(
      "You do not have permission to perform this action.",
    );
  });

  it("show one queue, `default`, with the deliveries' figures", async () => {
    const list = await api.get("/api/core/background-queues/");
    expect(list.body.count).toBe(1);
    const queue = list.body.results[0];
    expect(queue).toMatchObject({ name: "default", url: `${ORIGIN}/api/core/background-queues/default/`, jobs: 1, failed_jobs: 1 });
    expect(queue.oldest_job_timestamp).toMatch(/^\d{4}-/);
    expect((await api.get("/api/core/background-queues/default/")).body).toEqual(queue);
    expect((await api.get("/api/core/background-queues/high/")).status).toBe(404);
  });

  it("show each delivery as a task, by its webhook-id", async () => {
    const all = await tasks();
    expect(all.map((t) => t.status)).toEqual(["queued", "failed"]);
    const [queued, failed] = all;
    expect(failed).toMatchObject({ origin: "default", func_name: "extras.webhooks.send_webhook", is_failed: true, position: null });
    expect(failed.kwargs).toMatchObject({ event: "created", object_type: "dcim.region" });
    expect(failed.description).toContain("Webhook Refused: created dcim.region");
    expect(queued).toMatchObject({ is_queued: true, position: 0 });
    expect(queued.url).toBe(`${ORIGIN}/api/core/background-tasks/${queued.id}/`);
    expect((await api.get(`/api/core/background-tasks/${queued.id}/`)).body).toEqual(queued);
    expect((await api.get("/api/core/background-tasks/no-such-task/")).status).toBe(404);
    const page = await api.get("/api/core/background-tasks/?limit=1");
    expect(page.body).toMatchObject({ count: 2, previous: null, next: `${ORIGIN}/api/core/background-tasks/?limit=1&offset=1` });
  });

  it("show the consumer that sent deliveries as a worker", async () => {
    const workers = (await api.get("/api/core/background-workers/")).body;
    expect(workers.count).toBe(1);
    expect(workers.results[0]).toMatchObject({ state: "idle", queue_names: ["default"], failed_job_count: 1 });
    const name = encodeURIComponent(workers.results[0].name);
    expect((await api.get(`/api/core/background-workers/${name}/`)).body).toEqual(workers.results[0]);
    expect((await api.get("/api/core/background-workers/nobody/")).status).toBe(404);
  });

  it("requeue a failed task, enqueue a queued one, stop nothing, delete one, and refuse what does not apply", async () => {
    const [queued, failed] = await tasks();
    const action = (task: any, name: string, token?: string) =>
      api.request("POST", `/api/core/background-tasks/${task.id}/${name}/`, token ? { token } : {});
    expect((await action(failed, "requeue", plain)).status).toBe(403);
    expect((await action(queued, "requeue")).status).toBe(400);
    const requeued = await action(failed, "requeue");
    expect(requeued.status, requeued.text).toBe(200);
    expect((await deliveryOf(failed)).status.value).toBe("queued");

    expect((await action(queued, "stop")).status).toBe(204);
    expect((await action(queued, "enqueue", staff)).status).toBe(200);
    await api.queue.drain();
    expect((await deliveryOf(queued)).status.value).toBe("failed");

    const deleted = await action(queued, "delete", staff);
    expect(deleted.status).toBe(200);
    expect((await api.get(`/api/core/background-tasks/${queued.id}/`)).status).toBe(404);
    expect((await action(queued, "bogus")).status).toBe(404);
    expect((await api.get(`/api/core/background-tasks/${failed.id}/requeue/`)).status).toBe(405);
  });
});

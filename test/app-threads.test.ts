import { afterAll, describe, expect, it, vi } from "vitest";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { PER_THREAD } from "../src/runtime/admission.ts";
import { startThread } from "../src/runtime/threads.ts";
import { listen, type Answer } from "../src/runtime/node-http.ts";
import { Worker } from "node:worker_threads";
import { holdWriteLock, tempDirs, tokenCall } from "./support/processes.ts";
import { startReceiver } from "./support/receiver.ts";

const dirs = tempDirs();
const TOKEN = "cd".repeat(20);
const services: NodeService[] = [];
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  dirs.cleanup();
});

async function start(env: Record<string, string> = {}) {
  const service = await startNodeService({
    LIBSQL_URL: `file:${dirs.make()}/inventory.db`,
    PORT: "0",
    SUPERUSER_NAME: "root",
    SUPERUSER_PASSWORD: "root-password",
    SUPERUSER_API_TOKEN: TOKEN,
    ...env,
  });
  services.push(service);
  return { service, call: tokenCall(service.url, TOKEN) };
}

describe("the Node server's app threads (WORKERS)", () => {
  it("serves on WORKERS threads over one file: concurrent writes from every thread all commit, each with its change record", async () => {
    const { service, call } = await start({ WORKERS: "2" });
    expect(service.workers).toBe(2);
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call("POST", "/api/dcim/sites/", { name: `Site ${i}`, slug: `site-${i}` })),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(60);
    const changes = await call("GET", "/api/core/object-changes/?changed_object_type=dcim.site&action=create&limit=0");
    expect(changes.body.count).toBe(60);
    // A bulk write is still one transaction, whichever thread runs it.
    const bulk = await call("PATCH", "/api/dcim/sites/", [
      { id: replies[0].body.id, status: "planned" },
      { id: 999_999, status: "planned" },
    ]);
    expect(bulk.status).toBe(400);
    expect((await call("GET", `/api/dcim/sites/${replies[0].body.id}/`)).body.status.value).toBe("active");
  });

  it("answers long text as the bytes it was made of: a page past 16 KB with text beyond ASCII arrives whole", async () => {
    const { service, call } = await start({ WORKERS: "2" });
    const description = "Zürich — 東京 ✓ 🛰️".repeat(8);
    const created = await call(
      "POST",
      "/api/dcim/sites/",
      Array.from({ length: 80 }, (_, i) => ({ name: `Long ${i}`, slug: `long-${i}`, description })),
    );
    expect(created.status).toBe(201);
    const reply = await fetch(`${service.url}/api/dcim/sites/?limit=80&brief=1`, { headers: { Authorization: `Token ${TOKEN}` } });
    const bytes = new Uint8Array(await reply.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(16 * 1024);
    expect(reply.headers.get("content-length")).toBe(String(bytes.byteLength));
    const page = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    expect(page.results).toHaveLength(80);
    expect(page.results.every((site: { description: string }) => site.description === description)).toBe(true);
    // A short answer (a string on its way) reads the same text, with its length in bytes.
    const short = await fetch(`${service.url}/api/dcim/sites/${created.body[0].id}/`, { headers: { Authorization: `Token ${TOKEN}` } });
    const text = await short.text();
    expect(JSON.parse(text).description).toBe(description);
    expect(short.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(short.headers.get("transfer-encoding")).toBeNull();
  });

  it("frees an answer's own bytes once they are written, and leaves bytes it does not own alone", async () => {
    const text = JSON.stringify({ results: "Zürich ✓ ".repeat(20_000) });
    const owned = new TextEncoder().encode(text);
    const shared = new TextEncoder().encode(text);
    const headers = { "content-type": "application/json" };
    const answers: Answer[] = [
      { status: 200, headers, body: owned, owned: true },
      { status: 200, headers, body: shared },
    ];
    const { server, url } = await listen(async () => answers.shift()!, "127.0.0.1", 0);
    try {
      const size = owned.byteLength;
      expect(await (await fetch(`${url}/owned`)).text()).toBe(text);
      // A view of a detached buffer is empty: its memory went back.
      await vi.waitFor(() => expect(owned.byteLength).toBe(0));
      expect(await (await fetch(`${url}/shared`)).text()).toBe(text);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(shared.byteLength).toBe(size);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("hands the deliveries a thread commits to the one webhook consumer of the process", async () => {
    const rx = await startReceiver();
    try {
      const { call } = await start({ WORKERS: "2", WEBHOOK_BLOCKED_NETWORKS: "169.254.0.0/16" });
      const webhook = await call("POST", "/api/extras/webhooks/", { name: "rx", payload_url: `${rx.url}/hook` });
      await call("POST", "/api/extras/event-rules/", {
        name: "rx",
        object_types: ["tenancy.tenant"],
        event_types: ["object_created"],
        action_object_type: "extras.webhook",
        action_object_id: webhook.body.id,
      });
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call("POST", "/api/tenancy/tenants/", { name: `T${i}`, slug: `t${i}` })),
      );
      while (rx.received.length < 8) await new Promise((r) => setTimeout(r, 10));
      const ids = rx.received.map((r) => JSON.parse(r.body).data.id).sort((a: number, b: number) => a - b);
      expect(ids).toEqual(created.map((c) => c.body.id).sort((a, b) => a - b));
    } finally {
      await rx.close();
    }
  });

  it("answers /api/status/ while every app thread's requests wait for a lock another process holds", async () => {
    const { service, call } = await start({ WORKERS: "2", DATABASE_BUSY_TIMEOUT: "20000" });
    const lock = await holdWriteLock(new URL(service.config.LIBSQL_URL.replace(/^file:/, "file://")).pathname);
    let settled = 0;
    const writes = Array.from({ length: 2 * PER_THREAD + 2 }, (_, i) =>
      call("POST", "/api/tenancy/tenants/", { name: `Locked ${i}`, slug: `locked-${i}` }).finally(() => settled++),
    );
    try {
      // Every slot of both threads holds a write waiting for the lock; the status check does not wait.
      await new Promise((r) => setTimeout(r, 300));
      const status = await call("GET", "/api/status/");
      expect(status.status).toBe(200);
      expect(status.body["netbox-version"]).toBeDefined();
      expect(settled).toBe(0);
    } finally {
      await lock.release();
    }
    expect((await Promise.all(writes)).map((w) => w.status)).toEqual(writes.map(() => 201));
  });

  it("serves light reads on the HTTP thread once an app thread has measured them, the same answers; heavy reads and writes on app threads", async () => {
    const { service, call } = await start({ WORKERS: "2" });
    const sites = Array.from({ length: 1000 }, (_, i) => ({ name: `Site ${i}`, slug: `site-${i}`, description: "é".repeat(i % 7) }));
    expect((await call("POST", "/api/dcim/sites/", sites)).status).toBe(201);
    expect(service.served).toEqual({ threads: 1, light: 0 });

    const detail = await Promise.all([1, 2, 3].map((i) => call("GET", `/api/dcim/sites/${i}/`)));
    const answers = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const read = await call("GET", `/api/dcim/sites/${1 + (i % 3)}/`);
      expect(read).toEqual(detail[i % 3]);
      answers.add(JSON.stringify(read));
    }
    expect(answers.size).toBe(3);
    // The first reads of the shape are measured on app threads; once light, most are served here.
    expect(service.served.light).toBeGreaterThan(60);
    const { light, threads } = service.served;

    // A page of 1,000 sites costs far more than the threshold: every one goes to an app thread.
    for (let i = 0; i < 4; i++) expect((await call("GET", "/api/dcim/sites/?limit=1000")).body.results).toHaveLength(1000);
    expect(service.served).toEqual({ threads: threads + 4, light });
    // So does every write, whatever its path's reads cost.
    expect((await call("PATCH", "/api/dcim/sites/1/", { description: "patched" })).status).toBe(200);
    expect(service.served).toEqual({ threads: threads + 5, light });
    // What a write on an app thread committed is what the next read here sees.
    let seen = "";
    for (let i = 0; i < 3; i++) seen += (await call("GET", "/api/dcim/sites/1/")).body.description;
    expect(seen).toBe("patched".repeat(3));
    expect(service.served.light).toBeGreaterThan(light);
  });

  it("serves on the HTTP thread with WORKERS=0, and always for :memory:", async () => {
    const none = await start({ WORKERS: "0" });
    expect(none.service.workers).toBe(0);
    expect((await none.call("POST", "/api/dcim/sites/", { name: "A", slug: "a" })).status).toBe(201);
    const memory = await startNodeService({
      LIBSQL_URL: ":memory:",
      PORT: "0",
      WORKERS: "4",
      SUPERUSER_NAME: "root",
      SUPERUSER_PASSWORD: "root-password",
    });
    services.push(memory);
    expect(memory.workers).toBe(0);
  });

  it("starts its threads on sources stripped once for the process: no thread loads Node's TypeScript stripper", async () => {
    const probe = new URL("./support/thread-probe.mjs", import.meta.url);
    const report = (worker: Worker) =>
      new Promise<{ value: number; stripper: boolean }>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      }).finally(() => worker.terminate());
    // The probe imports src/lib/memo.ts: through startThread it is the stripped copy; loaded as Node loads it, the stripper comes along.
    expect(await report(startThread(probe))).toEqual({ value: 42, stripper: false });
    expect(await report(new Worker(probe))).toEqual({ value: 42, stripper: true });
  });

  it("replaces a thread that outgrows WORKER_HEAP_MB: its request is answered 500, the next one served", async () => {
    const { call } = await start({ WORKERS: "1", WORKER_HEAP_MB: "32" });
    expect((await call("GET", "/api/dcim/sites/")).status).toBe(200);
    // Ten thousand objects of a kilobyte each: parsed and validated, far more than 32 MB of heap.
    const heavy = Array.from({ length: 10_000 }, (_, i) => ({ name: `tag ${i}`, slug: `tag-${i}`, description: "x".repeat(190) }));
    const outgrown = await call("POST", "/api/extras/tags/", heavy);
    expect(outgrown.status).toBe(500);
    expect(outgrown.body).toEqual({ detail: "Server error." });
    // A new thread serves what follows. (Where the thread ran out decides whether the bulk had
    // committed, with its change records, or not at all: never a part of it.)
    const after = await call("GET", "/api/extras/tags/?limit=1");
    expect(after.status).toBe(200);
    expect([0, 10_000]).toContain(after.body.count);
    const changes = await call("GET", "/api/core/object-changes/?changed_object_type=extras.tag&limit=1");
    expect(changes.body.count).toBe(after.body.count);
    expect((await call("POST", "/api/extras/tags/", { name: "after", slug: "after" })).status).toBe(201);
  });

  it("refuses to start on a WORKERS that is not a whole number", async () => {
    await expect(startNodeService({ LIBSQL_URL: ":memory:", PORT: "0", WORKERS: "two" })).rejects.toThrow(
      /WORKERS: must be a whole number/,
    );
  });
});

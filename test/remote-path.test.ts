/**
 * The round-trip promise on the real remote path: the app over `@libsql/client/web` (the Worker
 * and Turso path) talking Hrana over HTTP to `scripts/libsql-server.ts` on 127.0.0.1. The figures
 * are counted where they cost: HTTP requests the libSQL server receives, not the app's own stats.
 *
 * What is counted, and what is left out:
 * - Counted: `POST /v2/pipeline`. @libsql/client sends each `execute()`/`batch()` as one pipeline
 *   that opens a stream, runs it and closes the stream (the `close` rides in the same request; no
 *   baton is ever continued), so one `Database.batch()` is one pipeline request. Checked below
 *   three ways: against `db.stats.roundTrips`, by what each pipeline carried (recorded through the
 *   client's `fetch` option), and by the server's own count.
 * - Left out: every other request (`requests.other`), i.e. the client's protocol version probe
 *   (`GET /v3-protobuf`, once per client, its answer cached; this server answers 404 and the client
 *   keeps Hrana 2). The pinned @libsql/client 0.18 (hrana-client 0.10) defaults to Hrana 2 and
 *   sends no probe at all, so the count is 0 here; a client that probes does so on its first
 *   batch(), during migration. Measured requests still assert that no request other than a
 *   pipeline reached the server, so nothing hides there.
 * Each measure follows a warm-up request, as the engine's promise holds once the token is cached:
 * the first request of a token authenticates in one more round trip, and the warm-up also takes
 * the token's once-a-minute `last_used` write (a background batch) out of the measured request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client/web";
import { startLibsqlServer } from "../scripts/libsql-server.ts";
import { createApp, type App } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import type { Database } from "../src/db/database.ts";
import { libsqlClientDatabase } from "../src/db/libsql-client.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";

const TOKEN = "0123456789abcdef0123456789abcdef01234567";
const ORIGIN = "http://inventory.test";

let dir: string;
let server: Awaited<ReturnType<typeof startLibsqlServer>>;
let db: Database;
let app: App;
/** Each pipeline the client sent, in order, summarised by describePipeline(). */
const sent: string[] = [];
const pending: Promise<unknown>[] = [];

async function call(method: string, path: string, body?: unknown, token = TOKEN) {
  const headers: Record<string, string> = { Authorization: `Token ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await app.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { db, clientAddress: "127.0.0.1", waitUntil: (p) => void pending.push(p) },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

const settle = async () => {
  while (pending.length) await Promise.all(pending.splice(0));
};

/** A warm-up request, then the HTTP requests the libSQL server receives while `fn` runs. */
async function wire<T>(fn: () => Promise<T>) {
  const warm = await call("GET", "/api/dcim/sites/?limit=1");
  expect(warm.status).toBe(200);
  await settle();
  const before = { ...server.requests, roundTrips: db.stats.roundTrips, sent: sent.length };
  const result = await fn();
  await settle();
  const pipelines = server.requests.pipeline - before.pipeline;
  return {
    result,
    pipelines,
    other: server.requests.other - before.other,
    roundTrips: db.stats.roundTrips - before.roundTrips,
    /** What each pipeline carried. */
    sent: sent.slice(before.sent),
    trace: JSON.stringify(sent.slice(before.sent), null, 1),
  };
}

function expectRequests(cost: Awaited<ReturnType<typeof wire>>, expected: number) {
  expect(cost.pipelines, `POST /v2/pipeline requests; pipelines sent: ${cost.trace}`).toBe(expected);
  // Each one opened its stream, ran one execute or batch and closed the stream: no baton, no
  // request of its own for the close.
  for (const pipeline of cost.sent) expect(pipeline).toMatch(/^(execute|batch)\[[^\]]*\], close$/);
  expect(cost.other, "HTTP requests other than /v2/pipeline").toBe(0);
  expect(cost.roundTrips, "Database.batch() calls counted in-process").toBe(cost.pipelines);
}

type HranaStmt = { sql?: string; sql_id?: number };
type HranaRequest = { type: string; sql?: string; sql_id?: number; stmt?: HranaStmt; batch?: { steps: { stmt: HranaStmt }[] } };

/** One pipeline as its statements' first words, e.g. `batch[BEGIN IMMEDIATE; INSERT INTO ...; COMMIT]`. */
function describePipeline(body: { baton: string | null; requests: HranaRequest[] }): string {
  const stored = new Map<number, string>();
  const text = (stmt: HranaStmt) => (stmt.sql ?? stored.get(stmt.sql_id!) ?? "?").replace(/\s+/g, " ").trim().slice(0, 48);
  const parts: string[] = [];
  for (const r of body.requests) {
    if (r.type === "store_sql") stored.set(r.sql_id!, r.sql!);
    else if (r.type === "execute") parts.push(`execute[${text(r.stmt!)}]`);
    else if (r.type === "batch") parts.push(`batch[${r.batch!.steps.map((step) => text(step.stmt)).join("; ")}]`);
    else parts.push(r.type);
  }
  return `${body.baton ? "(baton) " : ""}${parts.join(", ")}`;
}

const siteIds: number[] = [];
let deviceId: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "inventory-remote-"));
  server = await startLibsqlServer({ path: join(dir, "inventory.db"), host: "127.0.0.1", port: 0 });
  const recordingFetch = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === "POST" && new URL(request.url).pathname === "/v2/pipeline")
      sent.push(describePipeline(await request.clone().json()));
    return fetch(request);
  };
  db = libsqlClientDatabase(createClient({ url: server.url, intMode: "number", fetch: recordingFetch }));
  const config = parseConfig({
    LIBSQL_URL: server.url,
    SUPERUSER_NAME: "admin",
    SUPERUSER_PASSWORD: "admin-password",
    SUPERUSER_API_TOKEN: TOKEN,
    MAX_BULK_OBJECTS: "1000",
  });
  app = await createApp({ config, secretKey: "test-secret-key-0123456789abcdef0123456789", runtime: "test" });
  // Migrations and the superuser go over HTTP too, through the same client.
  await app.prepare(db, loadMigrations());

  const fixtures = async (path: string, body: unknown) => {
    const reply = await call("POST", path, body);
    if (reply.status !== 201) throw new Error(`${path}: ${reply.status} ${reply.text}`);
    return reply.body;
  };
  await fixtures("/api/dcim/regions/", [
    { name: "Europe", slug: "europe" },
    { name: "Asia", slug: "asia" },
  ]);
  await fixtures("/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
  await fixtures("/api/extras/tags/", [
    { name: "Prod", slug: "prod" },
    { name: "Edge", slug: "edge" },
  ]);
  const sites = await fixtures(
    "/api/dcim/sites/",
    Array.from({ length: 60 }, (_, i) => ({
      name: `Site ${i}`,
      slug: `site-${i}`,
      region: { slug: i % 2 ? "europe" : "asia" },
      tenant: { slug: "acme" },
      tags: [{ slug: "prod" }, { slug: "edge" }],
      status: "active",
    })),
  );
  siteIds.push(...sites.map((s: { id: number }) => s.id));
  const manufacturer = await fixtures("/api/dcim/manufacturers/", { name: "Nokia", slug: "nokia" });
  const type = await fixtures("/api/dcim/device-types/", { manufacturer: manufacturer.id, model: "7750", slug: "7750" });
  const role = await fixtures("/api/dcim/device-roles/", { name: "PE", slug: "pe" });
  const device = await fixtures("/api/dcim/devices/", { name: "pe1", device_type: type.id, role: role.id, site: siteIds[0] });
  deviceId = device.id;
  await settle();
});

afterAll(async () => {
  await settle();
  db?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the remote path (@libsql/client over HTTP to a libSQL server)", () => {
  it("reads in one HTTP request, related objects and filters included, whatever the page size", async () => {
    const filtered = await wire(() => call("GET", "/api/dcim/sites/?region=europe&tenant=acme&tag=prod&limit=50"));
    expect(filtered.result.status).toBe(200);
    expect(filtered.result.body.count).toBe(30);
    expect(filtered.result.body.results[0]).toMatchObject({
      region: { slug: "europe" },
      tenant: { slug: "acme" },
      tags: [{ slug: "edge" }, { slug: "prod" }],
    });
    expectRequests(filtered, 1);

    const detail = await wire(() => call("GET", `/api/dcim/sites/${siteIds[1]}/`));
    expect(detail.result.status).toBe(200);
    expect(detail.result.body).toMatchObject({ region: { slug: "europe" }, tenant: { slug: "acme" } });
    expect(detail.result.body.tags).toHaveLength(2);
    expectRequests(detail, 1);

    const fifty = await wire(() => call("GET", "/api/dcim/sites/?limit=50"));
    expect(fifty.result.body.results).toHaveLength(50);
    expect(fifty.result.body.results.every((s: any) => s.region && s.tenant && s.tags.length === 2)).toBe(true);
    expectRequests(fifty, 1);

    const one = await wire(() => call("GET", "/api/dcim/sites/?limit=1"));
    expect(one.result.body.results).toHaveLength(1);
    expectRequests(one, 1);
  });

  it("writes in two HTTP requests, whatever the bulk size", async () => {
    const created = await wire(() =>
      call("POST", "/api/dcim/sites/", {
        name: "New",
        slug: "new",
        region: { slug: "asia" },
        tenant: { slug: "acme" },
        tags: [{ slug: "prod" }],
      }),
    );
    expect(created.result.status, created.result.text).toBe(201);
    expectRequests(created, 2);

    const targets = siteIds.slice(0, 50);
    const patched = await wire(() =>
      call(
        "PATCH",
        "/api/dcim/sites/",
        targets.map((id) => ({ id, description: "bulk", status: "planned" })),
      ),
    );
    expect(patched.result.status, patched.result.text).toBe(200);
    expect(patched.result.body).toHaveLength(50);
    expect(patched.result.body.every((s: any) => s.description === "bulk" && s.status.value === "planned")).toBe(true);
    expectRequests(patched, 2);

    // The device sits on siteIds[0]; delete 50 others.
    const doomed = siteIds.slice(10, 60);
    const deleted = await wire(() =>
      call(
        "DELETE",
        "/api/dcim/sites/",
        doomed.map((id) => ({ id })),
      ),
    );
    expect(deleted.result.status, deleted.result.text).toBe(204);
    expectRequests(deleted, 2);
    const left = await call("GET", `/api/dcim/sites/?id=${doomed[0]}&id=${doomed[49]}`);
    expect(left.body.count).toBe(0);

    const iface = await wire(() => call("POST", "/api/dcim/interfaces/", { device: deviceId, name: "eth0", type: "1000base-t" }));
    expect(iface.result.status, iface.result.text).toBe(201);
    expect(iface.result.body).toMatchObject({ device: { id: deviceId }, name: "eth0", type: { value: "1000base-t" } });
    expectRequests(iface, 2);
  });

  it("authenticates a new token in one more HTTP request, and re-authenticates after a change", async () => {
    /** HTTP requests `fn` causes, split into the request's own and the background `last_used` write. */
    const count = async (fn: () => Promise<{ status: number; text: string }>) => {
      await settle();
      const before = { ...server.requests, sent: sent.length };
      const reply = await fn();
      expect(reply.status, reply.text).toBeLessThan(300);
      await settle();
      const pipelines = sent.slice(before.sent);
      const background = pipelines.filter((p) => p.includes("SET last_used")).length;
      expect(server.requests.pipeline - before.pipeline).toBe(pipelines.length);
      expect(server.requests.other - before.other).toBe(0);
      return { request: pipelines.length - background, background, trace: JSON.stringify(pipelines, null, 1) };
    };
    const made = await call("POST", "/api/users/tokens/", { user: 1, description: "extra" });
    expect(made.status, made.text).toBe(201);
    const key = made.body.key as string;

    // First request of a token: read the token (1), then the detail (1); its never-used token
    // also gets its `last_used` written after the response (1, once a minute at most).
    const first = await count(() => call("GET", `/api/dcim/sites/${siteIds[1]}/`, undefined, key));
    expect(first.request, first.trace).toBe(2);
    expect(first.background, first.trace).toBe(1);
    const second = await count(() => call("GET", `/api/dcim/sites/${siteIds[1]}/`, undefined, key));
    expect(second, second.trace).toMatchObject({ request: 1, background: 0 });

    // A change to a token moves the auth version. The next request of every cached token first
    // runs its batch with the cached data (1, refused: stale version), then reads its token (1)
    // and runs the batch again (1): three requests for a read, two more than warm, not one.
    // The cost is paid once per app instance, by the first request after the change.
    const changed = await call("PATCH", `/api/users/tokens/${made.body.id}/`, { write_enabled: false });
    expect(changed.status, changed.text).toBe(200);
    const staleRead = await count(() => call("GET", `/api/dcim/sites/${siteIds[1]}/`));
    expect(staleRead.request, staleRead.trace).toBe(3);
    expect(staleRead.background).toBe(0);

    // A write after a change: the refused first read batch (1), the token (1), then the write's
    // two (2).
    const again = await call("PATCH", `/api/users/tokens/${made.body.id}/`, { write_enabled: true });
    expect(again.status, again.text).toBe(200);
    const staleWrite = await count(() => call("POST", "/api/dcim/sites/", { name: "After", slug: "after" }));
    expect(staleWrite.request, staleWrite.trace).toBe(4);
  });
});

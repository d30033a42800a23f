/**
 * The Deno entry end to end: `deno serve src/deno.ts` (the npm package's binary, offline, over the
 * existing node_modules) on a free 127.0.0.1 port with an embedded libSQL file, driven with real
 * HTTP requests over the socket.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { freePort } from "../scripts/bench-service.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startReceiver } from "./support/receiver.ts";
import { DENO_SERVE_FLAGS } from "./support/processes.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DENO = join(ROOT, "node_modules", ".bin", "deno");
const TOKEN = "0123456789abcdef0123456789abcdef01234567";

let dir: string;
let child: ChildProcess | undefined;
let base: string;
let output = "";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the server answers, the process dies, or the time is up. */
async function waitUntilServing(url: string, proc: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`deno serve exited (${proc.exitCode ?? proc.signalCode}) before serving:\n${output}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`deno serve did not answer ${url} within ${timeoutMs} ms:\n${output}`);
}

/** Ends the process group (deno and anything it started), SIGKILL if SIGTERM is not enough. */
async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid!, sig);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
  signal("SIGKILL"); // any straggler left in the group
}

async function api(method: string, path: string, options: { token?: string | null; body?: unknown } = {}) {
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = options.token === undefined ? TOKEN : options.token;
  if (token) headers.Authorization = `Token ${token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "inventory-deno-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  child = spawn(DENO, ["serve", "--port", String(port), "--host", "127.0.0.1", ...DENO_SERVE_FLAGS, "src/deno.ts"], {
    cwd: ROOT,
    detached: true, // its own process group, so afterAll can end it and its children together
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? dir,
      DENO_DIR: join(dir, "deno-cache"),
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      LIBSQL_URL: `file:${join(dir, "deno.db")}`,
      SECRET_KEY: "deno-test-secret-key-0123456789abcdef0123",
      SUPERUSER_NAME: "admin",
      SUPERUSER_PASSWORD: "admin-password-1",
      SUPERUSER_API_TOKEN: TOKEN,
    },
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await waitUntilServing(`${base}/api/`, child, 30_000);
  console.log(`deno serve answered after ${Date.now() - started} ms`);
}, 45_000);

afterAll(async () => {
  if (child) await stop(child);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("deno serve src/deno.ts", () => {
  it("announces its address and serves the API root with API-Version", async () => {
    expect(output).toContain(`Inventory API listening on ${base}/api/`);
    const root = await api("GET", "/api/");
    expect(root.status).toBe(200);
    expect(root.headers.get("API-Version")).toBe("4.2");
    expect(root.body).toHaveProperty("dcim");
  });

  it("reports the Deno runtime", async () => {
    const status = await api("GET", "/api/status/");
    expect(status.status).toBe(200);
    expect(status.body.runtime).toMatch(/^deno \d+\.\d+/);
  });

  it("serves Swagger UI's files from the installed package", async () => {
    const page = await api("GET", "/api/schema/swagger-ui/", { token: null });
    expect(page.status).toBe(200);
    const bundle = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page.text)![1];
    const file = await api("GET", bundle, { token: null });
    expect(file.status).toBe(200);
    expect(file.text).toContain("SwaggerUIBundle");
  });

  it("serves GraphiQL's and React's files from the installed packages", async () => {
    const page = await fetch(`${base}/graphql/`, { headers: { Accept: "text/html", Authorization: `Token ${TOKEN}` } });
    const urls = [...(await page.text()).matchAll(/(?:src|href)="(\/static\/(?:graphiql|react|react-dom)\/[^"]+)"/g)].map((m) => m[1]);
    expect(urls).toHaveLength(4);
    for (const url of urls) expect((await api("GET", url, { token: null })).status, url).toBe(200);
  });

  it("refuses anonymous reads", async () => {
    expect((await api("GET", "/api/dcim/sites/", { token: null })).status).toBe(403);
  });

  it("creates and lists a site with the superuser token", async () => {
    const created = await api("POST", "/api/dcim/sites/", { body: { name: "DC1", slug: "dc1" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "DC1", slug: "dc1" });
    const list = await api("GET", "/api/dcim/sites/");
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results.map((s: any) => s.slug)).toEqual(["dc1"]);
  });

  it("answers a GraphQL query", async () => {
    const reply = await api("POST", "/graphql/", {
      body: { query: `{ site_list(filters: {slug: {exact: "dc1"}}) { name devices { name } } }` },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ data: { site_list: [{ name: "DC1", devices: [] }] } });
  });

  it("checks a token's allowed_ips against the socket's client address", async () => {
    const user = await api("POST", "/api/users/users/", {
      body: { username: "ipuser", password: "A-password-123", is_superuser: true },
    });
    expect(user.status, user.text).toBe(201);
    const token = async (allowed_ips: string[]) => {
      const res = await api("POST", "/api/users/tokens/", { body: { user: user.body.id, allowed_ips } });
      expect(res.status, res.text).toBe(201);
      return res.body.key as string;
    };
    const loopback = await token(["127.0.0.0/8"]);
    const elsewhere = await token(["10.0.0.0/8"]);

    const allowed = await api("GET", "/api/dcim/sites/", { token: loopback });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.count).toBe(1);

    const refused = await api("GET", "/api/dcim/sites/", { token: elsewhere });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("Source IP 127.0.0.1 is not permitted");
  });

  it("renders webhooks on the render thread (node:worker_threads under Deno)", async () => {
    const rx = await startReceiver();
    try {
      const hook = async (name: string, body_template: string) => {
        const webhook = await api("POST", "/api/extras/webhooks/", { body: { name, payload_url: `${rx.url}/${name}`, body_template } });
        expect(webhook.status, webhook.text).toBe(201);
        const rule = await api("POST", "/api/extras/event-rules/", {
          body: {
            name,
            object_types: ["dcim.site"],
            event_types: ["object_created"],
            action_object_type: "extras.webhook",
            action_object_id: webhook.body.id,
          },
        });
        expect(rule.status, rule.text).toBe(201);
      };
      await hook("plain", '{"site": "{{data.name}}"}');
      await hook("wide", "{{data.name}}".repeat(4000));
      expect((await api("POST", "/api/dcim/sites/", { body: { name: "Rendered", slug: "rendered" } })).status).toBe(201);
      let runs: any[] = [];
      for (let i = 0; i < 100; i++) {
        runs = (await api("GET", "/api/extras/webhook-deliveries/?object_type=dcim.site")).body.results;
        if (runs.length === 2 && runs.every((r) => r.status.value !== "queued")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(runs.map((r) => r.status.value)).toEqual(["succeeded", "succeeded"]);
      expect(rx.received.find((r) => r.path === "/plain")?.body).toBe('{"site": "Rendered"}');
      expect(rx.received.find((r) => r.path === "/wide")?.body).toBe("Rendered".repeat(4000));
    } finally {
      await rx.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN, createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import type { QuickAnswer } from "../src/http/quick-request.ts";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { tempDirs } from "./support/processes.ts";

/*
 * The plain `GET /api/` is answered before any Request is made (src/http/quick-root.ts). Every
 * request it answers must get exactly what the pipeline gives; everything else it must leave to
 * the pipeline.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ ALLOWED_HOSTS: "inventory.test,.example.com" });
});
afterAll(() => h.close());

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path?: string;
  readonly headers: Record<string, string>;
  readonly clientAddress?: string;
}

const host = { Host: "inventory.test" };
const asked = (c: Case) => ({ method: c.method ?? "GET", url: `${ORIGIN}${c.path ?? "/api/"}`, headers: c.headers });

/** What the quick path answers, or null when it leaves the request to the pipeline. */
function quick(c: Case): Promise<QuickAnswer | null> {
  const { method, url, headers } = asked(c);
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return h.app.quick({ method, url, header: (name) => lower.get(name), clientAddress: c.clientAddress ?? "127.0.0.1" });
}

/** What the pipeline answers, as the quick path gives it (lowercase headers, text). */
async function pipeline(c: Case): Promise<QuickAnswer> {
  const { method, url, headers } = asked(c);
  const response = await h.app.fetch(new Request(url, { method, headers }), { db: h.db, clientAddress: c.clientAddress ?? "127.0.0.1" });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

const withoutRequestId = ({ headers, ...rest }: QuickAnswer) => {
  const { "x-request-id": id, ...kept } = headers;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return { ...rest, headers: kept };
};

describe("the API root answered without the pipeline", () => {
  it("answers what the pipeline answers: anonymous, a cached token, Bearer, another scheme, JSON asked for, a host ALLOWED_HOSTS matches", async () => {
    // The token is cached by a first request through the pipeline, as any client's first request is.
    expect((await h.get("/api/dcim/sites/")).status).toBe(200);
    const answered: Case[] = [
      { name: "anonymous", headers: host },
      { name: "token", headers: { ...host, Authorization: `Token ${ADMIN_TOKEN}` } },
      { name: "bearer, upper case", headers: { ...host, Authorization: `Bearer ${ADMIN_TOKEN.toUpperCase()}` } },
      { name: "another scheme is anonymous", headers: { ...host, Authorization: "Basic YWRtaW46YWRtaW4=" } },
      { name: "empty authorization", headers: { ...host, Authorization: "" } },
      { name: "JSON first", headers: { ...host, Accept: "application/json, text/html" } },
      { name: "any", headers: { ...host, Accept: "*/*" } },
      { name: "subdomain with port", headers: { Host: "api.example.com:8080" } },
    ];
    for (const c of answered) {
      const fast = await quick(c);
      expect(fast, c.name).not.toBeNull();
      expect(withoutRequestId(fast!), c.name).toEqual(withoutRequestId(await pipeline(c)));
    }
    const other = (await quick({ name: "other host", headers: { Host: "api.example.com:8080" } }))!;
    expect(JSON.parse(other.body as string).dcim).toBe("http://api.example.com:8080/api/dcim/");
  });

  it("leaves everything else to the pipeline: refused or unknown tokens and hosts, pages, queries, sessions, other methods and paths", async () => {
    const stranger = "f".repeat(40);
    const left: Case[] = [
      { name: "unknown token", headers: { ...host, Authorization: `Token ${stranger}` } },
      { name: "malformed token", headers: { ...host, Authorization: "Token abc" } },
      { name: "token with spaces", headers: { ...host, Authorization: `Token ${ADMIN_TOKEN} x` } },
      { name: "no credentials", headers: { ...host, Authorization: "Token" } },
      { name: "refused host", headers: { Host: "elsewhere.test" } },
      { name: "malformed host", headers: { Host: "bad host" } },
      { name: "a browser", headers: { ...host, Accept: "text/html,application/xhtml+xml" } },
      { name: "format=api", path: "/api/?format=api", headers: host },
      { name: "format=json", path: "/api/?format=json", headers: host },
      { name: "session cookie", headers: { ...host, Cookie: "sessionid=abc.def" } },
      { name: "HEAD", method: "HEAD", headers: host },
      { name: "OPTIONS", method: "OPTIONS", headers: host },
      { name: "status", path: "/api/status/", headers: host },
      { name: "an app root", path: "/api/dcim/", headers: host },
    ];
    for (const c of left) expect(await quick(c), c.name).toBeNull();
    // Refusals the pipeline makes stay its own.
    expect((await pipeline(left[0])).status).toBe(403);
    expect((await pipeline(left[4])).status).toBe(400);
  });

  it("accepts a cached token only as the pipeline would now: not expired, from an allowed address, with no last use to record", async () => {
    const user = await h.post("/api/users/users/", { username: "quick-root", password: "A-password-123", is_superuser: true });
    const token = (await h.post("/api/users/tokens/", { user: user.body.id })).body;
    const key = token.key as string;
    const asKey: Case = { name: "token", headers: { ...host, Authorization: `Token ${key}` } };
    // Not yet cached: the pipeline reads it.
    expect(await quick(asKey)).toBeNull();
    expect((await pipeline(asKey)).status).toBe(200);
    expect(await quick(asKey)).not.toBeNull();
    // A minute on, its use is due to be recorded, which the pipeline does.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await quick(asKey)).toBeNull();
      expect((await pipeline(asKey)).status).toBe(200);
      expect(await quick(asKey)).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }

    expect((await h.patch(`/api/users/tokens/${token.id}/`, { allowed_ips: ["10.0.0.0/8"] })).status).toBe(200);
    await h.settle();
    // A request through the pipeline that reads finds the change and caches the token anew.
    expect((await h.get("/api/dcim/sites/", { token: key, clientAddress: "10.1.2.3" })).status).toBe(200);
    expect(await quick({ ...asKey, clientAddress: "10.1.2.3" })).not.toBeNull();
    expect(await quick({ ...asKey, clientAddress: "192.0.2.1" })).toBeNull();
    expect((await pipeline({ ...asKey, clientAddress: "192.0.2.1" })).status).toBe(403);

    expect((await h.patch(`/api/users/tokens/${token.id}/`, { allowed_ips: [], expires: "2020-01-01T00:00:00Z" })).status).toBe(200);
    expect((await h.get("/api/dcim/sites/", { token: key })).status).toBe(403);
    expect(await quick(asKey)).toBeNull();
  });
});

describe("the API root over node:http", () => {
  const dirs = tempDirs();
  let service: NodeService;
  beforeAll(async () => {
    service = await startNodeService({
      LIBSQL_URL: `file:${dirs.make()}/inventory.db`,
      PORT: "0",
      WORKERS: "1",
      SUPERUSER_NAME: "root",
      SUPERUSER_PASSWORD: "root-password",
      SUPERUSER_API_TOKEN: ADMIN_TOKEN,
    });
  });
  afterAll(async () => {
    await service.close();
    dirs.cleanup();
  });

  it("answers the same with a token before and after it is cached, and refuses a second Authorization header as the pipeline does", async () => {
    const get = async (headers: [string, string][]) => {
      const reply = await fetch(`${service.url}/api/`, { headers });
      const { "x-request-id": _, date: __, ...kept } = Object.fromEntries(reply.headers);
      return { status: reply.status, headers: kept, body: await reply.text() };
    };
    const auth: [string, string] = ["Authorization", `Token ${ADMIN_TOKEN}`];
    const first = await get([auth]);
    const again = await get([auth]);
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(JSON.parse(again.body).status).toBe(`${service.url}/api/status/`);
    expect(await get([])).toEqual(first);
    // Two Authorization headers reach the app joined, as one malformed token header.
    const twice = await fetch(`${service.url}/api/`, { headers: [auth, auth] });
    expect(twice.status).toBe(403);
  });
});

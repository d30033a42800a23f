/**
 * Hostile or careless requests: bad Host headers and ALLOWED_HOSTS, methods no endpoint answers,
 * bodies over MAX_BODY_SIZE, and writes refused before their body is read. Each one gets a
 * NetBox-shaped `{"detail": ...}`, the usual headers, no change and no error log; through
 * `app.fetch`, over a real socket on Node, and over `deno serve`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config.ts";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { ADMIN_TOKEN, createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { DENO_SERVE_FLAGS } from "./support/processes.ts";

const MiB = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A body stream of `total` spaces that counts what the app pulled from it. */
function countingStream(total: number, chunk = 64 * 1024) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        const size = Math.min(chunk, total - counter.pulled);
        counter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

/** Sends `init` with a streamed body straight to the app, as a runtime would. */
async function sendStream(api: Harness, method: string, path: string, stream: ReadableStream, headers: Record<string, string> = {}) {
  const request = new Request(`${ORIGIN}${path}`, { method, headers, body: stream, duplex: "half" } as RequestInit);
  const response = await api.app.fetch(request, { db: api.db, clientAddress: "127.0.0.1" });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The headers every response carries, refusals included. */
function expectPipelineHeaders(headers: Headers) {
  expect(headers.get("API-Version")).toBe("4.2");
  expect(headers.get("X-Request-ID")).toMatch(UUID);
}

const errors = vi.spyOn(console, "error");
afterEach(() => errors.mockClear());

describe("settings", () => {
  it("defaults ALLOWED_HOSTS to *, MAX_BODY_SIZE to 10 MiB and MAX_BULK_OBJECTS to 10000", () => {
    const config = parseConfig({});
    expect(config.ALLOWED_HOSTS).toEqual(["*"]);
    expect(config.MAX_BODY_SIZE).toBe(10_485_760);
    expect(config.MAX_BULK_OBJECTS).toBe(10_000);
    expect(parseConfig({ ALLOWED_HOSTS: " " }).ALLOWED_HOSTS).toEqual(["*"]);
  });

  it("reads ALLOWED_HOSTS as a comma-separated or JSON list of names, .domains and *", () => {
    expect(parseConfig({ ALLOWED_HOSTS: "api.example.com, .example.net,[::1],10.0.0.1" }).ALLOWED_HOSTS).toEqual([
      "api.example.com",
      ".example.net",
      "[::1]",
      "10.0.0.1",
    ]);
    expect(parseConfig({ ALLOWED_HOSTS: '["inventory.test", "*"]' }).ALLOWED_HOSTS).toEqual(["inventory.test", "*"]);
  });

  it("refuses to start on a bad value, naming it", () => {
    expect(() => parseConfig({ ALLOWED_HOSTS: "http://api.example.com/" })).toThrow(/ALLOWED_HOSTS: must list host names/);
    expect(() => parseConfig({ ALLOWED_HOSTS: "[]" })).toThrow(/ALLOWED_HOSTS/);
    expect(() => parseConfig({ MAX_BODY_SIZE: "10MB" })).toThrow(/MAX_BODY_SIZE: must be a whole number/);
    expect(() => parseConfig({ MAX_BULK_OBJECTS: "0" })).toThrow(/MAX_BULK_OBJECTS: must be at least 1/);
  });
});

describe("through app.fetch", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness();
  });
  afterAll(() => api.close());

  describe("Host validation", () => {
    it("answers a malformed Host with 400 in NetBox's words, without logging an error", async () => {
      for (const host of ["a b", "user@host:99999", "user@host:99", "host:99999", "host:65536", "", "1.2.3.4.5", "[::1", "host:port"]) {
        const reply = await api.get("/api/", { headers: { Host: host } });
        expect(reply.status, host).toBe(400);
        expect(reply.body, host).toEqual({
          detail: `Invalid HTTP_HOST header: '${host}'. The domain name provided is not valid according to RFC 1034/1035.`,
        });
        expectPipelineHeaders(reply.headers);
      }
      expect(errors).not.toHaveBeenCalled();
    });

    it("builds absolute URLs, redirects and pages from the validated Host, port kept", async () => {
      const host = { Host: "API.Example.com:8443" };
      expect((await api.get("/api/", { headers: host })).body.dcim).toBe("http://api.example.com:8443/api/dcim/");
      const redirect = await api.get("/api/dcim/sites?limit=1", { headers: host });
      expect(redirect.headers.get("Location")).toBe("http://api.example.com:8443/api/dcim/sites/?limit=1");
      expect((await api.get("/", { headers: host })).headers.get("Location")).toBe("http://api.example.com:8443/api/");

      await api.post("/api/tenancy/tenant-groups/", [
        { name: "H1", slug: "h1" },
        { name: "H2", slug: "h2" },
      ]);
      const page = await api.get("/api/tenancy/tenant-groups/?limit=1", { headers: host });
      expect(page.body.next).toBe("http://api.example.com:8443/api/tenancy/tenant-groups/?limit=1&offset=1");
      expect(page.body.results[0].url).toMatch(/^http:\/\/api\.example\.com:8443\/api\/tenancy\/tenant-groups\/\d+\/$/);
    });

    it("keeps a path that starts with // a path, never a host", async () => {
      const reply = await api.get("//evil.test/api", { headers: { Host: "inventory.test" } });
      expect(reply.headers.get("Location")).toBe("http://inventory.test//evil.test/api/");
    });

    it("uses the request URL's host when there is no Host header (HTTP/1.0, HTTP/2)", async () => {
      expect((await api.get("/api/")).body.dcim).toBe(`${ORIGIN}/api/dcim/`);
    });

    it("answers only the names in ALLOWED_HOSTS: exact, .domain with its subdomains, any case and port", async () => {
      const strict = await createHarness({ ALLOWED_HOSTS: "inventory.test,.example.com,[::1]" });
      try {
        for (const host of ["INVENTORY.test", "inventory.test:8080", "example.com", "a.b.EXAMPLE.com", "example.com.", "[::1]:8787"]) {
          expect((await strict.get("/api/", { headers: { Host: host } })).status, host).toBe(200);
        }
        expect((await strict.get("/api/")).status).toBe(200); // no Host header: the URL's host, also checked
        for (const [host, name] of [
          ["evil.test", "evil.test"],
          ["notexample.com:80", "notexample.com"],
          ["example.com.evil.test", "example.com.evil.test"],
          ["127.0.0.1", "127.0.0.1"],
        ]) {
          const reply = await strict.get("/api/", { headers: { Host: host } });
          expect(reply.status, host).toBe(400);
          expect(reply.body.detail).toBe(`Invalid HTTP_HOST header: '${host}'. You may need to add '${name}' to ALLOWED_HOSTS.`);
          expectPipelineHeaders(reply.headers);
        }
        const write = await strict.post("/api/dcim/sites/", { name: "X", slug: "x" }, { headers: { Host: "evil.test" } });
        expect(write.status).toBe(400);
        expect((await strict.get("/api/dcim/sites/")).body.count).toBe(0);
      } finally {
        strict.close();
      }
      expect(errors).not.toHaveBeenCalled();
    });
  });

  describe("methods", () => {
    /** node's Request refuses TRACE and CONNECT; Deno and the Node adapter hand them over like this. */
    const withMethod = (method: string, path: string) =>
      Object.defineProperty(new Request(`${ORIGIN}${path}`, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } }), "method", {
        value: method,
      });

    it("answers TRACE, CONNECT and unknown methods with 405, Allow and the usual headers, anywhere", async () => {
      for (const method of ["TRACE", "CONNECT", "TRACK", "PROPFIND", "FOO"]) {
        for (const path of ["/", "/api/", "/api/dcim/sites", "/api/dcim/sites/", "/api/dcim/sites/1/", "/api/nowhere/at/all/"]) {
          const response = await api.app.fetch(withMethod(method, path), { db: api.db });
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(await response.json()).toEqual({ detail: `Method "${method}" not allowed.` });
          expect(response.headers.get("Allow")).toBe("GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
          expectPipelineHeaders(response.headers);
        }
      }
      expect(errors).not.toHaveBeenCalled();
    });

    it("still answers a known method an endpoint lacks with that endpoint's Allow", async () => {
      const reply = await api.post("/api/", {});
      expect(reply.status).toBe(405);
      expect(reply.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    });
  });

  describe("MAX_BODY_SIZE", () => {
    let small: Harness;
    beforeAll(async () => {
      small = await createHarness({ MAX_BODY_SIZE: "1000" });
    });
    afterAll(() => small.close());
    const tooLarge = { detail: "Request body is larger than 1000 bytes." };

    it("refuses a declared Content-Length over the limit with 413 before reading anything", async () => {
      const { stream, counter } = countingStream(5000);
      const reply = await sendStream(small, "POST", "/api/dcim/sites/", stream, {
        Authorization: `Token ${ADMIN_TOKEN}`,
        "Content-Length": "5000",
      });
      expect(reply.status).toBe(413);
      expect(reply.body).toEqual(tooLarge);
      expectPipelineHeaders(reply.headers);
      expect(counter.pulled).toBe(0);
    });

    it("stops reading a body without Content-Length, or with a lying one, once it is over", async () => {
      for (const headers of [{}, { "Content-Length": "10" }] as Record<string, string>[]) {
        const { stream, counter } = countingStream(50 * MiB, 256);
        const reply = await sendStream(small, "PATCH", "/api/dcim/sites/", stream, { Authorization: `Token ${ADMIN_TOKEN}`, ...headers });
        expect(reply.status).toBe(413);
        expect(reply.body).toEqual(tooLarge);
        expect(counter.pulled).toBeLessThanOrEqual(1000 + 256);
      }
      expect((await small.get("/api/dcim/sites/")).body.count).toBe(0);
      expect(errors).not.toHaveBeenCalled();
    });

    it("counts bytes, not characters", async () => {
      const under = await small.post("/api/dcim/sites/", `"${"é".repeat(450)}`); // 901 bytes, 451 characters
      expect(under.status).toBe(400);
      expect(under.body.detail).toMatch(/^JSON parse error/);
      const over = await small.post("/api/dcim/sites/", `"${"é".repeat(500)}"`); // 1002 bytes, 502 characters
      expect(over.status).toBe(413);
      expect(over.body).toEqual(tooLarge);
    });

    it("applies to every body the API reads: single delete, bulk writes, token provisioning", async () => {
      const body = `[${" ".repeat(1200)}]`;
      for (const [method, path] of [
        ["DELETE", "/api/dcim/sites/1/"],
        ["DELETE", "/api/dcim/sites/"],
        ["PUT", "/api/dcim/sites/"],
        ["POST", "/api/users/tokens/provision/"],
      ]) {
        const reply = await small.request(method, path, { body, token: path.includes("provision") ? null : undefined });
        expect(reply.status, `${method} ${path}`).toBe(413);
      }
    });
  });

  describe("authorization before the body", () => {
    it("refuses an anonymous write with 403 without reading its body", async () => {
      for (const [method, path] of [
        ["POST", "/api/dcim/sites/"],
        ["PUT", "/api/dcim/sites/"],
        ["PATCH", "/api/dcim/sites/"],
        ["DELETE", "/api/dcim/sites/"],
        ["PUT", "/api/dcim/sites/1/"],
        ["PATCH", "/api/dcim/sites/1/"],
        ["DELETE", "/api/dcim/sites/1/"],
      ]) {
        const { stream, counter } = countingStream(60 * MiB);
        const reply = await sendStream(api, method, path, stream, { "Content-Type": "application/json" });
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body).toEqual({ detail: "Authentication credentials were not provided." });
        expectPipelineHeaders(reply.headers);
        expect(counter.pulled, `${method} ${path}`).toBe(0);
      }
    });

    it("refuses a read-only token's write with 403 before its body, and one in maintenance mode with 503", async () => {
      const readOnly = await api.token({ write_enabled: false });
      const { stream, counter } = countingStream(60 * MiB);
      const reply = await sendStream(api, "POST", "/api/dcim/sites/", stream, { Authorization: `Token ${readOnly}` });
      expect(reply.status).toBe(403);
      expect(counter.pulled).toBe(0);

      const frozen = await createHarness({ MAINTENANCE_MODE: "true" });
      try {
        const held = countingStream(60 * MiB);
        const refused = await sendStream(frozen, "PATCH", "/api/dcim/sites/", held.stream, { Authorization: `Token ${ADMIN_TOKEN}` });
        expect(refused.status).toBe(503);
        expect(held.counter.pulled).toBe(0);
      } finally {
        frozen.close();
      }
    });

    it("answers an anonymous malformed body with 403, not a parse error", async () => {
      const reply = await api.post("/api/dcim/sites/", "{bad", { token: null });
      expect(reply.status).toBe(403);
    });
  });
});

/** One HTTP exchange on a raw socket, for what fetch cannot send (bad Host, TRACE, CONNECT, a body that never ends). */
interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Writes `head`, then the chunks `body` yields (stopping as soon as a response arrives), and
 * resolves with the first response. The body is never finished, so an answer proves the server
 * did not wait for the whole upload.
 */
function raw(port: number, head: string, body?: () => Iterable<Buffer>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let answered = false;
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no response to ${head.split("\r\n")[0]}`))), 20_000);
    socket.on("error", (error) => answered || reject(error));
    socket.on("data", (data) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const text =
        headers["transfer-encoding"] === "chunked"
          ? unchunk(received.subarray(end + 4))
          : sized(received.subarray(end + 4), Number(headers["content-length"] ?? 0));
      if (text === null) return;
      answered = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text ? JSON.parse(text) : undefined });
    });
    socket.on("connect", async () => {
      socket.write(head);
      if (!body) return;
      for (const chunk of body()) {
        if (answered) return;
        if (!socket.write(chunk)) await new Promise((r) => socket.once("drain", r));
      }
    });
  });
}

/** A body of `length` bytes, or null until all of it has arrived. */
const sized = (data: Buffer, length: number) => (data.length < length ? null : data.subarray(0, length).toString());

/** A chunked body decoded, or null until its last chunk has arrived. */
function unchunk(data: Buffer): string | null {
  let text = "";
  for (let at = 0; ; ) {
    const line = data.indexOf("\r\n", at);
    if (line < 0) return null;
    const size = parseInt(data.subarray(at, line).toString(), 16);
    if (size === 0) return text;
    if (data.length < line + 2 + size + 2) return null;
    text += data.subarray(line + 2, line + 2 + size).toString();
    at = line + 2 + size + 2;
  }
}

const request = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

/** `total` bytes in 1 MiB chunks of chunked transfer encoding, never terminated. */
function* chunked(total: number): Iterable<Buffer> {
  const data = Buffer.alloc(MiB, 0x20);
  for (let sent = 0; sent < total; sent += MiB) yield Buffer.concat([Buffer.from(`${MiB.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
}

/**
 * The refusals every runtime's socket must give. `port` serves ALLOWED_HOSTS=127.0.0.1,.example.com
 * and MAX_BODY_SIZE=1048576 with ADMIN_TOKEN as the superuser's token.
 */
function socketSuite(port: () => number) {
  const auth = { Authorization: `Token ${ADMIN_TOKEN}` };

  it("answers malformed and unlisted Host headers with 400", async () => {
    for (const [host, detail] of [
      ["a b", "Invalid HTTP_HOST header: 'a b'. The domain name provided is not valid according to RFC 1034/1035."],
      ["user@host:99999", "Invalid HTTP_HOST header: 'user@host:99999'. The domain name provided is not valid according to RFC 1034/1035."],
      ["host:99999", "Invalid HTTP_HOST header: 'host:99999'. The domain name provided is not valid according to RFC 1034/1035."],
      ["", "Invalid HTTP_HOST header: ''. The domain name provided is not valid according to RFC 1034/1035."],
      ["evil.test", "Invalid HTTP_HOST header: 'evil.test'. You may need to add 'evil.test' to ALLOWED_HOSTS."],
    ]) {
      const reply = await raw(port(), request("GET", "/api/", { Host: host, ...auth }));
      expect(reply.status, host).toBe(400);
      expect(reply.body).toEqual({ detail });
      expect(reply.headers["api-version"]).toBe("4.2");
      expect(reply.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("builds URLs from an accepted Host", async () => {
    const reply = await raw(port(), request("GET", "/api/dcim/sites?limit=2", { Host: "API.example.com:8443", ...auth }));
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe("http://api.example.com:8443/api/dcim/sites/?limit=2");
    const root = await raw(port(), request("GET", "/api/", { Host: "api.example.com", ...auth }));
    expect(root.body.dcim).toBe("http://api.example.com/api/dcim/");
  });

  it("answers TRACE, CONNECT and PROPFIND with 405 and Allow", async () => {
    for (const [method, target] of [
      ["TRACE", "/api/"],
      ["TRACE", "/api/dcim/sites/1/"],
      ["CONNECT", "api.example.com:443"],
      ["PROPFIND", "/api/dcim/sites/"],
    ]) {
      const reply = await raw(port(), request(method, target, { Host: "api.example.com", ...auth }));
      expect(reply.status, method).toBe(405);
      expect(reply.body).toEqual({ detail: `Method "${method}" not allowed.` });
      expect(reply.headers.allow).toBe("GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
      expect(reply.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("answers 413 from Content-Length before the body is sent", async () => {
    const reply = await raw(
      port(),
      request("POST", "/api/dcim/sites/", {
        Host: "api.example.com",
        ...auth,
        "Content-Type": "application/json",
        "Content-Length": "300000000",
      }),
    );
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ detail: "Request body is larger than 1048576 bytes." });
  });

  it("answers 413 while a chunked body streams in, without waiting for its end", async () => {
    const head = request("POST", "/api/dcim/sites/", {
      Host: "api.example.com",
      ...auth,
      "Content-Type": "application/json",
      "Transfer-Encoding": "chunked",
    });
    const reply = await raw(port(), head, () => chunked(64 * MiB));
    expect(reply.status).toBe(413);
    expect(reply.headers["api-version"]).toBe("4.2");
  });

  it("answers an anonymous 60 MB POST with 403 before its body is sent", async () => {
    const reply = await raw(
      port(),
      request("POST", "/api/dcim/sites/", {
        Host: "api.example.com",
        "Content-Type": "application/json",
        "Content-Length": String(60 * MiB),
      }),
    );
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: "Authentication credentials were not provided." });
  });
}

const HARDENED = {
  ALLOWED_HOSTS: "127.0.0.1,.example.com",
  MAX_BODY_SIZE: String(MiB),
  SUPERUSER_NAME: "admin",
  SUPERUSER_PASSWORD: "admin-password",
  SUPERUSER_API_TOKEN: ADMIN_TOKEN,
};

describe("Node over a real socket on 127.0.0.1", () => {
  let service: NodeService;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "inventory-hardening-"));
    service = await startNodeService({ ...HARDENED, LIBSQL_URL: `file:${dir}/inventory.db`, PORT: "0" });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The service runs in this process: a refusal must not reach console.error.
  afterEach(() => expect(errors).not.toHaveBeenCalled());

  socketSuite(() => Number(new URL(service.url).port));

  it("serves well-formed requests as before", async () => {
    const root = await fetch(`${service.url}/api/`, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } });
    expect(root.status).toBe(200);
    expect((await root.json()).dcim).toBe(`${service.url}/api/dcim/`);
    const created = await fetch(`${service.url}/api/tenancy/tenant-groups/`, {
      method: "POST",
      headers: { Authorization: `Token ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "G", slug: "g" }),
    });
    expect(created.status).toBe(201);
  });
});

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("deno serve src/deno.ts over a real socket", () => {
  let child: ChildProcess;
  let dir: string;
  let port: number;
  let output = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "inventory-hardening-deno-"));
    child = spawn(
      join(ROOT, "node_modules", ".bin", "deno"),
      ["serve", "--host", "127.0.0.1", "--port", "0", ...DENO_SERVE_FLAGS, "src/deno.ts"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME ?? dir,
          DENO_DIR: join(dir, "deno-cache"),
          DENO_NO_UPDATE_CHECK: "1",
          NO_COLOR: "1",
          ...HARDENED,
          LIBSQL_URL: `file:${join(dir, "deno.db")}`,
          SECRET_KEY: "deno-test-secret-key-0123456789abcdef0123",
        },
      },
    );
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`deno serve did not start:\n${output}`)), 30_000);
      child.once("exit", (code) => reject(new Error(`deno serve exited with ${code}:\n${output}`)));
      const poll = setInterval(() => {
        const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
        if (!listening) return;
        port = Number(listening[1]);
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 50);
    });
  }, 45_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  socketSuite(() => port);

  it("logged no error for any refusal", () => {
    expect(output).not.toMatch(/unhandled error|Server error|TypeError/);
  });
});

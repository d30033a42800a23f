import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { ADMITTED, admission, isPriority } from "./admission.ts";

/** A fetch-style handler with the client's socket address. */
export type NodeHandler = (request: Request, clientAddress: string | null) => Promise<Response>;

/** Methods the Fetch API's `new Request` refuses to carry. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * Serves a fetch handler on node:http. Written here rather than taken from a generic adapter
 * because node:http with a thin conversion is 2-3x faster than those adapters (STACK.md).
 */
export function listen(handler: NodeHandler, host: string, port: number): Promise<{ server: Server; url: string }> {
  let origin = "";
  const answer = async (req: IncomingMessage): Promise<Response> => {
    try {
      return await handler(toRequest(req, origin), req.socket.remoteAddress ?? null);
    } catch (error) {
      console.error("unhandled error serving a request:", error);
      return Response.json({ detail: "Server error." }, { status: 500 });
    }
  };
  const admit = admission(ADMITTED);
  const server = createServer((req, res) => {
    const serve = async () => send(res, await answer(req));
    return isPriority(req.method, req.url) ? serve() : admit(serve);
  });
  // node:http hands CONNECT to this event, not to the request listener, and drops the connection
  // when nobody listens: answer it through the app too (405), then close, as no tunnel follows.
  server.on("connect", async (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    try {
      const response = await answer(req);
      const body = Buffer.from(await response.arrayBuffer());
      const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`, ...[...response.headers].map(([k, v]) => `${k}: ${v}`)];
      socket.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
    } catch (error) {
      console.error("unhandled error answering CONNECT:", error);
      socket.destroy();
    }
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
      origin = `http://${shown}:${address.port}`;
      resolve({ server, url: origin });
    });
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  try {
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
    const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
    // Each cookie is its own Set-Cookie line (a session and its CSRF token); fromEntries would keep only the last.
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    res.writeHead(response.status, headers);
    res.end(body);
  } catch (error) {
    console.error("unhandled error writing a response:", error);
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ detail: "Server error." }));
  }
}

/**
 * The web Request for a node:http request. Its URL is the listen address and the request's path,
 * never the Host header, so no Host can make `new Request` throw; the Host header is passed along
 * and the app validates it (src/http/host.ts) before building any URL from it.
 */
function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = `${origin}${targetPath(req.url)}`;
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  // Fetch refuses TRACE and CONNECT in `new Request`; they reach the app bodiless, reporting the
  // method the client sent, so the pipeline answers them with its 405.
  if (FORBIDDEN_METHODS.has(method)) return Object.defineProperty(new Request(url, { headers }), "method", { value: method });
  return new Request(url, { method, headers, body: bodyStream(req), duplex: "half" } as RequestInit);
}

/** A request target's path and query: origin-form as sent, absolute-form's path, else `/`. */
function targetPath(target = "/"): string {
  if (target.startsWith("/")) return target;
  const url = /^https?:\/\//i.test(target) && URL.canParse(target) ? new URL(target) : null;
  return url ? url.pathname + url.search : "/"; // "/" for CONNECT's host:port and OPTIONS *
}

/**
 * The request body as a web stream that reads from the socket only as the app pulls, so a large
 * upload is never buffered here (MAX_BODY_SIZE is enforced by the reader, src/http/body.ts).
 * Unlike Readable.toWeb, cancelling (the app refusing the body) discards the rest instead of
 * destroying the socket, so the client still receives the 413 on a usable connection; a body the
 * app never reads is discarded by node:http after the response.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => open && controller.close());
        req.on("error", (error) => open && controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        req.removeAllListeners("data");
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

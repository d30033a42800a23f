import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { bodyOf } from "../lib/responses.ts";
import { freeBuffer } from "../lib/buffers.ts";
import type { QuickAnswer, QuickRequest } from "../http/quick-request.ts";

/** A response as node:http writes it: what an app thread sends back, or a web Response converted. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  /** Bytes, or text written as UTF-8 (an app thread sends long text as bytes: app-thread.ts). */
  readonly body: Uint8Array | string | null;
  /** The body's bytes were made for this answer alone and moved here (app-thread.ts): freed once written. */
  readonly owned?: boolean;
}

/** Serves one request: `url` is the listen address joined with the request's path (see `targetUrl`). */
export type NodeHandler = (req: IncomingMessage, url: string) => Promise<Answer>;

/** Methods the Fetch API's `new Request` refuses to carry. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** An answer in NetBox's error shape, `{"detail": ...}`, made on this side (no app involved). */
export const detailAnswer = (status: number, detail: string): Answer => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ detail }),
});

export const SERVER_ERROR = detailAnswer(500, "Server error.");

/**
 * Serves a handler on node:http. Written here rather than taken from a generic adapter
 * because node:http with a thin conversion is 2-3x faster than those adapters (STACK.md).
 */
export function listen(handler: NodeHandler, host: string, port: number): Promise<{ server: Server; url: string }> {
  let origin = "";
  const answer = async (req: IncomingMessage): Promise<Answer> => {
    try {
      return await handler(req, `${origin}${targetPath(req.url)}`);
    } catch (error) {
      console.error("unhandled error serving a request:", error);
      return SERVER_ERROR;
    }
  };
  const server = createServer(async (req, res) => send(res, await answer(req)));
  // node:http hands CONNECT to this event, not to the request listener, and drops the connection
  // when nobody listens: answer it through the app too (405), then close, as no tunnel follows.
  server.on("connect", async (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    const { status, headers, body } = await answer(req);
    const lines = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${x}`));
    const bytes = typeof body === "string" ? Buffer.from(body) : (body ?? new Uint8Array());
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...lines, `Content-Length: ${bytes.byteLength}`, "Connection: close"];
    socket.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), bytes]));
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

/**
 * Frees the memory of an answer's own bytes once they are written, instead of at this thread's
 * next garbage collection. This thread allocates little, so that comes rarely: under 8 clients
 * reading 1,000-interface pages, 38-43 MB of answers already written waited for it, and the
 * service's peak RSS was 413-418 MB against 377-379 MB with this, at the same rate. Only after the
 * write finished without error, when nothing below holds the bytes any more.
 */
function written({ body, owned }: Answer): ((error?: Error | null) => void) | undefined {
  if (!owned || !(body instanceof Uint8Array)) return undefined;
  return (error) => void (error || freeBuffer(body.buffer));
}

function send(res: ServerResponse, answer: Answer): void {
  try {
    res.writeHead(answer.status, headersWithLength(answer));
    res.end(answer.body, written(answer));
  } catch (error) {
    console.error("unhandled error writing a response:", error);
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
    res.end(SERVER_ERROR.body);
  }
}

/**
 * The answer's headers with its body's length: node:http sends a body written after `writeHead`
 * chunked, where NetBox (and a client showing progress) gives Content-Length.
 */
function headersWithLength({ headers, body }: Answer): Record<string, string | string[]> {
  if (body === null || "content-length" in headers) return headers;
  return { ...headers, "content-length": String(bodyLength(body)) };
}

/** The bytes of an answer's body as it goes out. */
export const bodyLength = (body: Answer["body"]): number =>
  body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;

/** A web Response as node:http writes it. */
export async function toAnswer(response: Response): Promise<Answer> {
  const made = bodyOf(response);
  const body = made ?? (response.body ? new Uint8Array(await response.arrayBuffer()) : null);
  const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
  // Each cookie is its own Set-Cookie line (a session and its CSRF token); fromEntries would keep only the last.
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  return { status: response.status, headers, body, owned: body instanceof Uint8Array };
}

/**
 * A header of the raw list as `Headers.get` has it (the web Request `fetch` is given): repeated
 * ones joined with ", ", where node:http's `headers` keeps only the first Host or Authorization.
 */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === name.length && raw[i].toLowerCase() === name)
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/** A request as `App.quick` looks at it, from what node:http (or an app thread's message) has. */
export const quickRequest = (method: string, url: string, rawHeaders: readonly string[], clientAddress: string | null): QuickRequest => ({
  method,
  url,
  header: (name) => rawHeader(rawHeaders, name),
  clientAddress,
});

/** The answer `App.quick` made; its bytes, when long, were made for it alone. */
export const quickAnswer = ({ status, headers, body }: QuickAnswer): Answer => ({
  status,
  headers,
  body,
  owned: body instanceof Uint8Array,
});

/** Whether a request of this method carries no body for the app (Fetch cannot give it one). */
export const bodiless = (method: string): boolean => method === "GET" || method === "HEAD" || FORBIDDEN_METHODS.has(method);

/**
 * The web Request for a request. Its URL is the listen address and the request's path, never the
 * Host header, so no Host can make `new Request` throw; the Host header is passed along and the
 * app validates it (src/http/host.ts) before building any URL from it.
 */
export function webRequest(method: string, url: string, rawHeaders: readonly string[], body: BodyInit | null): Request {
  const headers = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) headers.append(rawHeaders[i], rawHeaders[i + 1]);
  // Fetch refuses TRACE and CONNECT in `new Request`; they reach the app bodiless, reporting the
  // method the client sent, so the pipeline answers them with its 405.
  if (FORBIDDEN_METHODS.has(method)) return Object.defineProperty(new Request(url, { headers }), "method", { value: method });
  if (bodiless(method)) return new Request(url, { method, headers });
  return new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
}

/** The web Request for a node:http request, its body streamed from the socket as the app reads it. */
export function toRequest(req: IncomingMessage, url: string): Request {
  const method = req.method ?? "GET";
  return webRequest(method, url, req.rawHeaders, bodiless(method) ? null : bodyStream(req));
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

/**
 * The body of a request bound for an app thread, read whole (a thread gets it in one message),
 * but never more than `maxBytes` + 1: past that the app answers 413 from what it was given, as it
 * would from a stream, and the rest is discarded. A body announced larger by Content-Length is not
 * read at all. Copied into a buffer of its own, so it can be transferred to the thread.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | null> {
  const method = req.method ?? "GET";
  if (bodiless(method) || Number(req.headers["content-length"]) > maxBytes) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.removeListener("data", onData);
      const body = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.byteLength;
      }
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.removeListener("end", done);
        done();
        req.resume(); // discard the rest, keeping the connection usable for the 413
      }
    };
    req.on("data", onData);
    req.once("end", done);
    req.once("error", reject);
  });
}

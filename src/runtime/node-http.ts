import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A fetch-style handler with the client's socket address. */
export type NodeHandler = (request: Request, clientAddress: string | null) => Promise<Response>;

/**
 * Serves a fetch handler on node:http. Written here rather than taken from a generic adapter
 * because node:http with a thin conversion is 2-3x faster than those adapters (STACK.md).
 */
export function listen(handler: NodeHandler, host: string, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    try {
      const response = await handler(await toRequest(req, host), req.socket.remoteAddress ?? null);
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(body);
    } catch (error) {
      console.error("unhandled error serving a request:", error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ detail: "Server error." }));
    }
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({ server, url: `http://${shown}:${address.port}` });
    });
  });
}

async function toRequest(req: IncomingMessage, host: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = `http://${req.headers.host ?? host}${req.url ?? "/"}`;
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(url, { method, headers, body: Buffer.concat(chunks) });
}

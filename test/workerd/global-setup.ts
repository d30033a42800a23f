/**
 * Runs in Node before the workerd pool starts: a local libSQL (Hrana over HTTP) server on a fresh
 * SQLite file, on 127.0.0.1 and a free port. Its URL reaches the worker as the LIBSQL_URL binding
 * (vitest.workerd.config.ts reads it with `inject("libsqlUrl")`). The worker applies the migrations
 * and creates the superuser itself, on its first request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startLibsqlServer } from "../../scripts/libsql-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    libsqlUrl: string;
    receiverUrl: string;
  }
}

/**
 * A webhook receiver in Node for the worker's deliveries: records what it gets; `GET /_received`
 * lists it, `POST /_status/<code>` sets the status it answers with (default 200).
 */
async function startControlledReceiver() {
  const received: { method: string; path: string; headers: Record<string, unknown>; body: string }[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/_received") return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(received));
      const set = /^\/_status\/(\d{3})$/.exec(req.url ?? "");
      if (set) {
        status = Number(set[1]);
        return void res.writeHead(204).end();
      }
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status).end(status < 300 ? "ok" : "broken");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "inventory-workerd-"));
  const server = await startLibsqlServer({ path: join(dir, "inventory.db"), host: "127.0.0.1", port: 0 });
  project.provide("libsqlUrl", server.url);
  const receiver = await startControlledReceiver();
  project.provide("receiverUrl", receiver.url);
  return async () => {
    await receiver.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

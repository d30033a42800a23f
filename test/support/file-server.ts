import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What one path answers: a body (200), or a status with headers and a body. */
export type Served = string | { status: number; body?: string; headers?: Record<string, string> };

/** A local HTTP server on 127.0.0.1 serving `files` by path (tests never reach the internet); `files` may change while it runs. */
export async function serveFiles(files: Record<string, Served>): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? "");
    const served = files[req.url ?? ""];
    if (served === undefined) return void res.writeHead(404).end("not found");
    if (typeof served === "string") return void res.writeHead(200, { "Content-Type": "text/plain" }).end(served);
    res.writeHead(served.status, served.headers ?? {}).end(served.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first bytes of a PNG of this size: enough for any reader of its header (the pixels are not there). */
export function pngBytes(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/** A PNG of this size as a `data:` URL, how JSON clients may send an image. */
export const pngDataUrl = (width: number, height: number) =>
  `data:image/png;base64,${Buffer.from(pngBytes(width, height)).toString("base64")}`;

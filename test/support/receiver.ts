import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a test receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request arrived and when it was answered (performance.now()), to tell which overlapped. */
  arrived: number;
  answered?: number;
}

/** How to answer one request, chosen per request (a receiver that is slow or fails at random). */
export interface Answer {
  status?: number;
  delayMs?: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers with
 * `status` (default 200), after `delayMs` (a slow receiver), or as `answer` decides per request;
 * `hang` keeps requests open until the receiver closes.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200, hang: false, delayMs: 0, answer: null as ((r: Received) => Answer) | null };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        arrived: performance.now(),
      };
      received.push(r);
      if (state.hang) return;
      const { status = state.status, delayMs = state.delayMs } = state.answer?.(r) ?? {};
      const answer = () => {
        r.answered = performance.now();
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status < 300 ? "ok" : `receiver says no ${"x".repeat(3000)}`);
      };
      if (delayMs) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `/api/status/` latency while the in-process consumer works on a hostile webhook: a body template
 * with three nested loops over a 300-item custom-field list (27 million iterations, 27 MB if
 * nothing stops it), data any writer controls. Polls the status on its own connection from the
 * write until the delivery is recorded; prints the latencies and what the run became.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { NodeService } from "../src/runtime/node-service.ts";
import { BENCH_TOKEN, type apiClient } from "./bench-client.ts";

const LIST = "data.custom_fields.hostile";
export const HOSTILE_TEMPLATE = `{{#${LIST}}}{{#${LIST}}}{{#${LIST}}}x{{/${LIST}}}{{/${LIST}}}{{/${LIST}}}`;

export async function benchHostileRender(service: NodeService, call: ReturnType<typeof apiClient>) {
  let bytes = 0;
  const receiver = createServer((req, res) => {
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    await call("POST", "/api/extras/custom-fields/", { name: "hostile", type: "json", object_types: ["dcim.site"] });
    const webhook = JSON.parse(
      (
        await call("POST", "/api/extras/webhooks/", {
          name: "hostile",
          payload_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
          body_template: HOSTILE_TEMPLATE,
        })
      ).text,
    );
    await call("POST", "/api/extras/event-rules/", {
      name: "hostile",
      object_types: ["dcim.site"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.id,
    });
    // The client shares this process with the service, so it would stall with it and not see the
    // stall: a separate process polls the status and reports each latency.
    const poller = spawn(process.execPath, ["--input-type=module", "-e", POLLER, `${service.url}/api/status/`, BENCH_TOKEN], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let lines = "";
    poller.stdout!.on("data", (c: Buffer) => (lines += c.toString()));
    const latencies = () => lines.trim().split("\n").filter(Boolean).map(Number);
    while (latencies().length < 20) await new Promise((r) => setTimeout(r, 20));
    const quiet = latencies();

    const start = performance.now();
    const made = await call("POST", "/api/dcim/sites/", {
      name: `Hostile ${Date.now()}`,
      slug: `hostile-${Date.now()}`,
      custom_fields: { hostile: Array.from({ length: 300 }, (_, i) => i) },
    });
    if (made.status !== 201) throw new Error(`site: ${made.text.slice(0, 300)}`);
    let run: { status: string; error_log: string } | undefined;
    for (;;) {
      const [rows] = await service.db.batch(
        [{ sql: "SELECT status, error_log FROM extras_webhookdelivery WHERE webhook_id = ?", parameters: [webhook.id] }],
        "read",
      );
      run = rows.rows[0] as unknown as typeof run;
      if (run && run.status !== "queued") break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 100));
    poller.kill();
    const busy = latencies().slice(quiet.length);
    const total = performance.now() - start;
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `p50 ${s[Math.floor(s.length / 2)].toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms over ${s.length} requests`;
    };
    console.log(`GET /api/status/, consumer idle:                 ${stats(quiet)}`);
    console.log(`GET /api/status/, hostile render in progress:    ${stats(busy)}`);
    console.log(
      `hostile run ${run!.status} after ${(total / 1000).toFixed(2)} s; receiver got ${bytes} bytes; ${run!.error_log.trim().split("\n").pop()?.slice(0, 160) ?? ""}`,
    );
    return { idle_max_ms: Math.max(...quiet), busy_max_ms: Math.max(...busy), run_seconds: total / 1000, received_bytes: bytes };
  } finally {
    receiver.close();
  }
}

/** The poller: GET the status every 10 ms, one latency in ms per line (argv: URL, token). */
const POLLER = `
const [url, token] = process.argv.slice(1);
for (;;) {
  const t = performance.now();
  await (await fetch(url, { headers: { Authorization: "Token " + token } })).arrayBuffer();
  process.stdout.write((performance.now() - t).toFixed(1) + "\\n");
  await new Promise((r) => setTimeout(r, 10));
}`;

/**
 * The webhook section of `npm run bench` (`--webhooks` runs it alone). It needs the in-process
 * consumer (pausing it, reading its database), so it runs on a service started in the bench process
 * with startNodeService, the only section that does; the client shares that process.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { NodeService } from "../src/runtime/node-service.ts";
import { type apiClient, runLoad } from "./bench-client.ts";

type Call = ReturnType<typeof apiClient>;
type Measure = (name: string, make: (i: number) => [string, string, unknown?]) => Promise<{ rate: number }>;

/**
 * The two webhook figures, each measured on its own:
 * - the request path: a single-object POST with its event rule disabled and enabled, in short
 *   alternating rounds compared pair by pair (the shared machine's drift falls on both alike), with the in-process
 *   consumer paused during each timed round and drained between rounds, so the figure is the
 *   write and its outbox row, not deliveries competing for the same process; the same POST with
 *   the consumer delivering meanwhile is printed for reference;
 * - the consumer: deliveries per second from the in-process consumer to a local receiver, timed
 *   from resuming it over runs queued beforehand until none is left queued.
 */
export async function benchWebhooks(service: NodeService, call: Call, seconds: number, concurrency: number, measure: Measure) {
  const SECONDS = seconds;
  const CONCURRENCY = concurrency;
  const drained = () => drainedOf(service);
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const queue = service.deliveries;
  let k = 0;
  const post = (): [string, string, unknown] => {
    const n = `${++k}-${Math.floor(Math.random() * 1e12)}`;
    return ["POST", "/api/tenancy/tenants/", { name: `t${n}`, slug: `t-${n}` }];
  };
  try {
    const webhook = JSON.parse((await call("POST", "/api/extras/webhooks/", { name: "bench", payload_url: target })).text);
    const rule = JSON.parse(
      (
        await call("POST", "/api/extras/event-rules/", {
          name: "bench",
          object_types: ["tenancy.tenant"],
          event_types: ["object_created"],
          action_object_type: "extras.webhook",
          action_object_id: webhook.id,
        })
      ).text,
    );
    // Short alternating rounds, compared pair by pair: the machine's load drifts between pairs,
    // hardly within one, and the median pair ignores the odd disturbed one.
    const PAIRS = 10;
    const per = Math.max(0.5, SECONDS / 4);
    const rounds: { on: boolean; rate: number; cpu: number; p50: number }[] = [];
    for (let r = 0; r < PAIRS; r++) {
      for (const enabled of r % 2 ? [true, false] : [false, true]) {
        await call("PATCH", `/api/extras/event-rules/${rule.id}/`, { enabled });
        queue.pause();
        const cpu = process.cpuUsage();
        const load = await runLoad(call, CONCURRENCY, per, post);
        const used = process.cpuUsage(cpu);
        queue.resume();
        await drained();
        // Client and server share this process; the client's part is the same in both.
        rounds.push({ on: enabled, rate: load.count / per, cpu: (used.user + used.system) / 1000 / load.count, p50: Number(load.pct(50)) });
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const of = (on: boolean, key: "rate" | "cpu" | "p50") => rounds.filter((x) => x.on === on).map((x) => x[key]);
    const pairs = (key: "rate" | "cpu") => of(true, key).map((on, i) => on / of(false, key)[i]);
    for (const [name, on] of [
      ["rule disabled", false],
      ["matching rule", true],
    ] as const) {
      console.log(
        `${`POST /api/tenancy/tenants/ (${name})`.padEnd(44)} ${median(of(on, "rate")).toFixed(0).padStart(7)} req/s   p50 ${median(of(on, "p50")).toFixed(1).padStart(7)} ms   ${median(of(on, "cpu")).toFixed(3)} CPU ms/request   (medians of ${PAIRS} rounds, consumer paused)`,
      );
    }
    const added = 100 * (1 - median(pairs("rate")));
    const addedCpu = 100 * (median(pairs("cpu")) - 1);
    const offRate = median(of(false, "rate"));
    await call("PATCH", `/api/extras/event-rules/${rule.id}/`, { enabled: true });
    const delivering = await measure("POST tenants (matching rule, consumer busy)", post);
    await drained();

    // The consumer alone: runs queued while it is paused, then timed from resume until drained.
    queue.pause();
    const n = 3000;
    for (let start = 0; start < n; start += 1000) {
      const made = await call(
        "POST",
        "/api/tenancy/tenants/",
        Array.from({ length: 1000 }, (_, i) => ({ name: `c${start + i}`, slug: `c-${start + i}` })),
      );
      if (made.status !== 201) throw new Error(`bulk create failed: ${made.text.slice(0, 300)}`);
    }
    const t = performance.now();
    const before = service.db.stats.roundTrips;
    queue.resume();
    await drained();
    const deliveries = n / ((performance.now() - t) / 1000);
    const calls = service.db.stats.roundTrips - before;
    const [sent] = await service.db.batch(
      [{ sql: "SELECT count(*) AS n FROM extras_webhookdelivery WHERE status = 'succeeded'", parameters: [] }],
      "read",
    );
    console.log(
      `${"deliveries from the in-process consumer".padEnd(44)} ${deliveries.toFixed(0).padStart(7)} /s     (${n} queued, then sent to a local receiver in ${calls} database calls; ${sent.rows[0].n} succeeded in all)`,
    );
    return { added, addedCpu, busy: (100 * (offRate - delivering.rate)) / offRate, rate: deliveries };
  } finally {
    receiver.close();
  }
}

/** Waits until no delivery is left queued (or waiting for its conditions). */
async function drainedOf(service: NodeService) {
  for (;;) {
    const [left] = await service.db.batch(
      [{ sql: "SELECT count(*) AS n FROM extras_webhookdelivery WHERE status IN ('queued', 'pending')", parameters: [] }],
      "read",
    );
    if (Number(left.rows[0].n) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

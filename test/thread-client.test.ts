import { afterAll, describe, expect, it } from "vitest";
import type { Worker } from "node:worker_threads";
import { startThread } from "../src/runtime/threads.ts";
import { threadClient, type ThreadPort } from "../src/runtime/thread-client.ts";
import type { ThreadData } from "../src/runtime/database-thread.ts";

/*
 * The sending side of a database thread against a real one (database-thread.ts over :memory:):
 * the batches of one turn of the event loop travel in one message each way, each answered as if
 * sent alone, and one that cannot be sent fails alone.
 */

const workerData: ThreadData = { path: ":memory:", role: "both", busyTimeoutMs: 1000 };
const worker: Worker = startThread(new URL("../src/runtime/database-thread.ts", import.meta.url), { workerData });
afterAll(() => worker.terminate());

/** The thread's own Worker, counting the messages sent to it. */
let sent = 0;
const port: ThreadPort = {
  postMessage: (message) => {
    sent++;
    worker.postMessage(message);
  },
  on: (event, listener) => worker.on(event, listener),
  ref: () => worker.ref(),
  unref: () => worker.unref(),
};
const client = threadClient(port, 1000);
const select = (n: unknown) => [{ sql: "SELECT ? AS n", parameters: [n] }];

describe("a database thread's client", () => {
  it("sends the batches of one turn in one message, each answered as sent alone", async () => {
    await client.send("write", [{ sql: "CREATE TABLE t (v INTEGER)", parameters: [] }]);
    sent = 0;
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => client.send("read", select(i))),
      client.send("write", [{ sql: "INSERT INTO t VALUES (?)", parameters: [7] }]),
      client.send("read", [{ sql: "SELECT v FROM t", parameters: [] }]),
      client.send("read", [{ sql: "SELECT * FROM no_such_table", parameters: [] }]).catch((error: Error) => error.message),
    ]);
    expect(sent).toBe(1);
    expect(answers.slice(0, 10).map((a) => (a as [{ n: number }[], number][])[0][0][0].n)).toEqual([...Array(10).keys()]);
    expect(answers[10]).toEqual([[[], 1]]);
    expect((answers[11] as [{ v: number }[], number][])[0][0]).toEqual([{ v: 7 }]);
    expect(answers[12]).toMatch(/no such table/);
    // A later turn is a message of its own.
    await client.send("read", select(1));
    expect(sent).toBe(2);
  });

  it("fails only the batch that cannot be sent, and numbers its SQL afresh for the rest", async () => {
    const batches = [
      client.send("read", [{ sql: "SELECT ? + 1 AS n", parameters: [1] }]),
      client.send("read", [{ sql: "SELECT ? + 2 AS n", parameters: [() => 0] }]),
      client.send("read", [{ sql: "SELECT ? + 3 AS n", parameters: [1] }]),
    ].map((p) =>
      p.then(
        (r) => (r as [{ n: number }[], number][])[0][0][0].n,
        (error: Error) => error.name,
      ),
    );
    expect(await Promise.all(batches)).toEqual([2, "DataCloneError", 4]);
    // The texts the failed message carried are sent again, not referred to by number.
    expect(await client.send("read", [{ sql: "SELECT ? + 1 AS n", parameters: [5] }])).toEqual([[[{ n: 6 }], 0]]);
  });
});

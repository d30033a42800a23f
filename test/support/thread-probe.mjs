// Started as a thread by test/app-threads.test.ts: imports a source file, then reports whether
// this isolate loaded Node's TypeScript stripper to do it.
import { parentPort } from "node:worker_threads";
import { remembered } from "../../src/lib/memo.ts";

const cache = new Map();
parentPort.postMessage({
  value: remembered(cache, "k", () => 42, 4),
  stripper: process.moduleLoadList.some((name) => name.includes("amaro")),
});

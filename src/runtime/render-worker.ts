/** The render thread's code (src/runtime/render-thread.ts): renders each job it is sent, in order, and answers. */
import { parentPort } from "node:worker_threads";
import { renderRequest, type RenderJob } from "../apps/extras/render.ts";

parentPort!.on("message", ({ id, job }: { id: number; job: RenderJob }) => {
  try {
    parentPort!.postMessage({ id, ok: true, value: renderRequest(job) });
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, error: (error as Error).message });
  }
});

parentPort!.postMessage("ready");

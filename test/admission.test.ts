import { describe, expect, it } from "vitest";
import { admission, isPriority } from "../src/runtime/admission.ts";

describe("the Node server's admission gate", () => {
  it("works on at most `limit` requests at once and admits the others first come, first served", async () => {
    const admit = admission(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const task = (n: number) =>
      admit(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return n;
      });
    const all = Promise.all([1, 2, 3, 4, 5].map(task));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([1, 2]);
    while (started.length < 5 || releases.length) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await all).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it("frees the slot of a request that failed", async () => {
    const admit = admission(1);
    await expect(admit(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await admit(async () => "next")).toBe("next");
  });

  it("lets the status check and the API root past the queue, nothing else", () => {
    expect(isPriority("GET", "/api/status/")).toBe(true);
    expect(isPriority("HEAD", "/api/?format=json")).toBe(true);
    expect(isPriority("POST", "/api/status/")).toBe(false);
    expect(isPriority("GET", "/api/dcim/sites/")).toBe(false);
    expect(isPriority("GET", "/api/status")).toBe(false);
  });
});

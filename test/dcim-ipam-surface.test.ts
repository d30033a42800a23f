import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

let api: Harness;
beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

describe("debug", () => {
  it("creates a manufacturer", async () => {
    const r = await api.post("/api/dcim/manufacturers/", { name: "X", slug: "x" });
    expect(r.status, r.text).toBe(201);
  });
});

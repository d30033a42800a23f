import { registry } from "../src/apps/index.ts";
import { describe, expect, it } from "vitest";
import { describeContract } from "./support/contract.ts";
import { allSpecs as specs } from "./support/specs.ts";

// One row per registered model, kept in `test/contract/<area>.ts` files: adding a model adds its
// row to its area's file.

for (const spec of specs) describeContract(spec);

// The same contract through @libsql/client (the Turso, worker and Deno path).
for (const spec of specs) describeContract(spec, "client");

describe("the contract table", () => {
  it("has a row for every registered model", () => {
    expect(specs.map((s) => s.objectType).sort()).toEqual(registry.models.map((m) => m.objectType).sort());
  });
});

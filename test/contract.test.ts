/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { registry } from "../src/models/registry.ts";
import { describeContract, type ContractSpec } from "./support/contract.ts";

/**
 * One row per registered model, kept in `test/contract/<area>.ts` files that each export `specs`:
 * adding a model adds its row to its area's file.
 */
const files = import.meta.glob<{ specs: ContractSpec[] }>("./contract/*.ts", { eager: true });
const specs = Object.keys(files).sort().flatMap((name) => files[name].specs ?? []);

for (const spec of specs) describeContract(spec);

// The same contract through @libsql/client (the Turso, worker and Deno path).
for (const spec of specs) describeContract(spec, "client");

describe("the contract table", () => {
  it("has a row for every registered model", () => {
    expect(specs.map((s) => s.objectType).sort()).toEqual(registry.models.map((m) => m.objectType).sort());
  });
});

/// <reference types="vite/client" />
import type { ContractSpec } from "./contract.ts";

/**
 * Every model's contract row, from the `test/contract/<area>.ts` files (each exports `specs`):
 * the contract suite and the security suite both run over all of them.
 */
const files = import.meta.glob<{ specs: ContractSpec[] }>("../contract/*.ts", { eager: true });
export const allSpecs: ContractSpec[] = Object.keys(files)
  .sort()
  .flatMap((name) => files[name].specs ?? []);

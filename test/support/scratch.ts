/**
 * Vitest's global setup: one folder for the test run's scratch files (harnesses' media folders and
 * database files), named to the test processes by INVENTORY_TEST_SCRATCH and removed when the run
 * ends, as test processes are stopped rather than left to exit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "inventory-test-"));
  process.env.INVENTORY_TEST_SCRATCH = root;
  return () => rmSync(root, { recursive: true, force: true });
}

/**
 * Fills build/worker-assets/, the folder wrangler.toml `[assets]` uploads as Workers static assets,
 * with the other projects' files the pages load (VENDOR_FILES in src/ui/assets.ts), copied from the
 * installed packages as `<package>/<path in the package>`: only those files, so nothing else of the
 * packages is uploaded. wrangler runs it before `wrangler dev` and `wrangler deploy` (`[build]`);
 * vitest.workerd.config.ts runs it before the workerd tests. It fails when an installed package is
 * not the version VENDOR_FILES names (its URLs carry that version).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { VENDOR_FILES } from "../src/ui/assets.ts";

/** The folder wrangler.toml's `[assets]` names. */
export const WORKER_ASSETS_DIR = fileURLToPath(new URL("../build/worker-assets/", import.meta.url));

/** Copies every file of VENDOR_FILES into WORKER_ASSETS_DIR, emptied first. */
export function prepareWorkerAssets(): void {
  rmSync(WORKER_ASSETS_DIR, { recursive: true, force: true });
  for (const vendor of Object.values(VENDOR_FILES)) {
    const manifest = fileURLToPath(import.meta.resolve(`${vendor.package}/package.json`));
    const installed = JSON.parse(readFileSync(manifest, "utf8")).version;
    if (installed !== vendor.version) {
      throw new Error(`${vendor.package} ${installed} is installed, but src/ui/assets.ts VENDOR_FILES names ${vendor.version}`);
    }
    for (const path of Object.values(vendor.files)) {
      const target = `${WORKER_ASSETS_DIR}${vendor.package}/${path}`;
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(`${dirname(manifest)}/${path}`, target);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) prepareWorkerAssets();

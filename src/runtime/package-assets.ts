import { readFile } from "node:fs/promises";
import type { AssetSource } from "../ui/assets.ts";

/** Where swagger-ui-dist is installed, found as Node and Deno resolve packages. */
const SWAGGER_UI_DIR = new URL("./", import.meta.resolve("swagger-ui-dist/package.json"));

/** Files of the installed swagger-ui-dist package, read from disk on Node and Deno. */
export const packageAssets: AssetSource = async (file) => {
  if (!/^[\w.-]+$/.test(file)) return null;
  try {
    return new Response(await readFile(new URL(file, SWAGGER_UI_DIR)));
  } catch {
    return null;
  }
};

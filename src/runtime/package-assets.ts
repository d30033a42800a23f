import { readFile } from "node:fs/promises";
import { type AssetSource, VENDOR_FILES } from "../ui/assets.ts";

/** Where each package of VENDOR_FILES is installed, found as Node and Deno resolve packages. */
const PACKAGE_DIRS = new Map<string, URL>(
  Object.values(VENDOR_FILES).map((v) => [v.package, new URL("./", import.meta.resolve(`${v.package}/package.json`))]),
);

/** Files of the installed packages of VENDOR_FILES (`<package>/<path>`), read from disk on Node and Deno. */
export const packageAssets: AssetSource = async (path) => {
  const slash = path.indexOf("/");
  const dir = PACKAGE_DIRS.get(path.slice(0, slash));
  const file = path.slice(slash + 1);
  if (!dir || !/^[\w.-]+(\/[\w.-]+)*$/.test(file) || file.split("/").includes("..")) return null;
  try {
    return new Response(await readFile(new URL(file, dir)));
  } catch {
    return null;
  }
};

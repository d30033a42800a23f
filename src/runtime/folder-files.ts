import { mkdir, readFile, rm, writeFile, rename } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../config.ts";
import { contentTypeOf, isSafeFileName, type FileStore } from "../lib/file-store.ts";
import { randomHex } from "../lib/crypto.ts";
import { localPath } from "./local-path.ts";

/**
 * The folder uploaded files are kept in on Node and Deno: MEDIA_ROOT, else `media/` beside the
 * database file, else (`:memory:`, a remote database) `data/media`.
 */
export function mediaRoot(config: Config): string {
  if (config.MEDIA_ROOT) return resolve(config.MEDIA_ROOT);
  const path = localPath(config.LIBSQL_URL);
  return path === null || path === ":memory:" ? resolve("data/media") : join(dirname(resolve(path)), "media");
}

/**
 * A file store over a folder (`FileStore`): each name is a relative path below `root`, written
 * through a temporary file and a rename, so a reader never sees half a file.
 */
export function folderFiles(root: string): FileStore {
  const at = (name: string) => {
    if (!isSafeFileName(name)) throw new Error(`not a stored file name: ${name}`);
    return join(root, name);
  };
  return {
    async put(name, data) {
      const path = at(name);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomHex(4)}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, path);
    },
    async get(name) {
      if (!isSafeFileName(name)) return null;
      try {
        return { data: new Uint8Array(await readFile(at(name))), contentType: contentTypeOf(name) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(name) {
      if (isSafeFileName(name)) await rm(at(name), { force: true });
    },
  };
}

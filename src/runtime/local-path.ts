import { availableParallelism } from "node:os";

/** The local file path of a `file:` URL (or `:memory:`), or null for a remote database. */
export function localPath(url: string): string | null {
  if (url === ":memory:" || url === "file::memory:") return ":memory:";
  if (!url.startsWith("file:")) return null;
  return decodeURIComponent(url.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

/**
 * How many app threads the Node service runs over `url`: WORKERS (default one per core) over a
 * database file; none over `:memory:`, which one connection alone can hold, or a remote database.
 */
export function appThreadCount(url: string, workers: number | undefined): number {
  const path = localPath(url);
  return path === null || path === ":memory:" ? 0 : (workers ?? availableParallelism());
}

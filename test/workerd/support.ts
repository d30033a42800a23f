/** Requests through the real worker entry (src/worker.ts, as wrangler.toml builds it) under workerd. */
import { exports } from "cloudflare:workers";

/** Must match SUPERUSER_API_TOKEN in vitest.workerd.config.ts (WORKERD_SUPERUSER). */
export const ADMIN_TOKEN = "feedfacecafebeef0123456789abcdef01234567";
const ORIGIN = "http://inventory.test";

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export interface Options {
  body?: unknown;
  /** A token key, or null for no Authorization header (default: the superuser's). */
  token?: string | null;
  headers?: Record<string, string>;
}

/** The worker's default export, reached the way the plugin documents (`exports.default`). */
const worker = exports.default;

export async function call(method: string, path: string, options: Options = {}): Promise<Reply> {
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  if (token !== null) headers.set("Authorization", `Token ${token}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("Content-Type", "application/json");
  }
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}

/** A suffix that keeps names unique across test files sharing the one database. */
export const unique = () => crypto.randomUUID().slice(0, 8);

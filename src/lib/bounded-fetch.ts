import { urlProblem, type UrlPolicy } from "./url-policy.ts";
import { readUpTo } from "./read-bytes.ts";

/** What a bounded fetch may do: where it may go, how long it may take and how much it may read. */
export interface FetchBounds {
  readonly policy: UrlPolicy;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Redirects followed, each checked against the policy (default 5). */
  readonly maxRedirects?: number;
  /** The runtime's fetch (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** Why a bounded fetch got nothing: shown as the job's error and the sync's reason. */
export class FetchRefused extends Error {}

/**
 * GETs `url` within `bounds`: the URL and every redirect target must pass the policy (so a
 * redirect cannot lead to a blocked network), the whole exchange must end within the timeout,
 * the answer must be 2XX, and reading stops once the body passes `maxBytes` (refused, not cut).
 * Returns the body's bytes and the URL they came from.
 */
export async function boundedFetch(url: string, bounds: FetchBounds): Promise<{ bytes: Uint8Array; url: string }> {
  const send = bounds.fetch ?? fetch;
  const signal = AbortSignal.timeout(bounds.timeoutMs);
  let at = url;
  try {
    for (let hop = 0; hop <= (bounds.maxRedirects ?? 5); hop++) {
      const problem = urlProblem(bounds.policy, at);
      if (problem) throw new FetchRefused(`Refused to fetch ${at}: ${problem}.`);
      const response = await send(at, { redirect: "manual", signal, headers: { Accept: "*/*" } });
      const location = response.headers.get("Location");
      if (response.status >= 300 && response.status < 400 && location) {
        void response.body?.cancel().catch(() => {});
        at = new URL(location, at).toString();
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        void response.body?.cancel().catch(() => {});
        throw new FetchRefused(`Fetching ${at} answered HTTP ${response.status}.`);
      }
      return { bytes: await readCapped(response, bounds.maxBytes, at), url: at };
    }
    throw new FetchRefused(`Fetching ${url} was redirected more than ${bounds.maxRedirects ?? 5} times.`);
  } catch (error) {
    if (error instanceof FetchRefused) throw error;
    if (signal.aborted) throw new FetchRefused(`Fetching ${at} took longer than ${bounds.timeoutMs / 1000} seconds.`);
    throw new FetchRefused(`Fetching ${at} failed: ${(error as Error).message}`);
  }
}

/** The body's bytes, refused once it passes `maxBytes` (by Content-Length first, then as it streams in). */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLarge = () => new FetchRefused(`The file at ${url} is larger than ${maxBytes} bytes (DATA_SOURCE_MAX_SIZE).`);
  if (Number(response.headers.get("Content-Length")) > maxBytes) {
    void response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const bytes = await readUpTo(response.body, maxBytes);
  if (!bytes) throw tooLarge();
  return bytes;
}

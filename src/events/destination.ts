import type { Config } from "../config.ts";
import { urlProblem } from "../lib/url-policy.ts";

/**
 * The destination policy, checked on the rendered URL before anything is sent: an allowed scheme
 * (WEBHOOK_ALLOWED_SCHEMES), no address in WEBHOOK_BLOCKED_NETWORKS (link-local and cloud metadata
 * by default), and, when WEBHOOK_ALLOWED_HOSTS is set, one of those hosts. Returns why the URL is
 * refused, or null.
 */
export function destinationProblem(config: Config, raw: string): string | null {
  return urlProblem(
    {
      schemes: config.WEBHOOK_ALLOWED_SCHEMES,
      blocked: config.WEBHOOK_BLOCKED_NETWORKS,
      allowedHosts: config.WEBHOOK_ALLOWED_HOSTS,
      names: { schemes: "WEBHOOK_ALLOWED_SCHEMES", blocked: "WEBHOOK_BLOCKED_NETWORKS", allowedHosts: "WEBHOOK_ALLOWED_HOSTS" },
    },
    raw,
  );
}

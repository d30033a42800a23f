import ipaddr from "ipaddr.js";
import type { Config } from "../config.ts";

/**
 * The destination policy, checked on the rendered URL before anything is sent: an allowed scheme,
 * no address in WEBHOOK_BLOCKED_NETWORKS (link-local and cloud metadata by default), and, when
 * WEBHOOK_ALLOWED_HOSTS is set, one of those hosts. Returns why the URL is refused, or null.
 * Host names are matched as written: resolving them is not portable (Workers has no DNS API), so
 * a locked-down deployment lists its allowed hosts.
 */
export function destinationProblem(config: Config, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `not a valid URL: ${raw.slice(0, 200)}`;
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (!config.WEBHOOK_ALLOWED_SCHEMES.includes(scheme)) return `scheme ${scheme} is not allowed (WEBHOOK_ALLOWED_SCHEMES)`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (ipaddr.isValid(host)) {
    const address = ipaddr.process(host);
    for (const network of config.WEBHOOK_BLOCKED_NETWORKS) {
      const [base, bits] = network.includes("/") ? ipaddr.parseCIDR(network) : [ipaddr.parse(network), network.includes(":") ? 128 : 32];
      if (base.kind() === address.kind() && address.match(base, bits)) return `address ${host} is in a blocked network (${network}, WEBHOOK_BLOCKED_NETWORKS)`;
    }
  }
  const allowed = config.WEBHOOK_ALLOWED_HOSTS;
  if (allowed.length && !allowed.some((h) => (h.startsWith(".") ? host.endsWith(h) || host === h.slice(1) : host === h.toLowerCase()))) {
    return `host ${host} is not in WEBHOOK_ALLOWED_HOSTS`;
  }
  return null;
}

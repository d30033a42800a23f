import ipaddr from "ipaddr.js";
import type { Config } from "../config.ts";
import { embeddedIPv4 } from "../lib/embedded-ipv4.ts";

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
    const blocked = blockedNetwork(config, ipaddr.parse(host));
    if (blocked) return `address ${host} is in a blocked network (${blocked}, WEBHOOK_BLOCKED_NETWORKS)`;
  }
  const allowed = config.WEBHOOK_ALLOWED_HOSTS;
  if (allowed.length && !allowed.some((h) => (h.startsWith(".") ? host.endsWith(h) || host === h.slice(1) : host === h.toLowerCase()))) {
    return `host ${host} is not in WEBHOOK_ALLOWED_HOSTS`;
  }
  return null;
}

/**
 * The blocked network the address is in, or null: the address itself and, for IPv6, every IPv4
 * address written inside it (`embeddedIPv4`), which reaches the same host through a translator.
 */
function blockedNetwork(config: Config, address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const candidates = address.kind() === "ipv6" ? [address, ...embeddedIPv4(address as ipaddr.IPv6)] : [address];
  for (const network of config.WEBHOOK_BLOCKED_NETWORKS) {
    const [base, bits] = network.includes("/") ? ipaddr.parseCIDR(network) : [ipaddr.parse(network), network.includes(":") ? 128 : 32];
    if (candidates.some((a) => a.kind() === base.kind() && a.match(base, bits))) return network;
  }
  return null;
}

import ipaddr from "ipaddr.js";
import { embeddedIPv4 } from "./embedded-ipv4.ts";

/** Where an outgoing request (a webhook, a data source's fetch) may go. */
export interface UrlPolicy {
  /** Schemes allowed (`http`, `https`). */
  readonly schemes: readonly string[];
  /** Networks never reached (link-local, cloud metadata), as CIDR. */
  readonly blocked: readonly string[];
  /** When not empty, the only hosts (`hooks.example.com`, `.example.com`) reached. */
  readonly allowedHosts: readonly string[];
  /** The settings' names, for the messages. */
  readonly names: { readonly schemes: string; readonly blocked: string; readonly allowedHosts: string };
}

/**
 * Why `raw` may not be requested under `policy`, or null: an allowed scheme, no address in a
 * blocked network, and, when allowed hosts are listed, one of those hosts. Host names are matched
 * as written: resolving them is not portable (Workers has no DNS API), so a locked-down
 * deployment lists its allowed hosts.
 */
export function urlProblem(policy: UrlPolicy, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `not a valid URL: ${raw.slice(0, 200)}`;
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (!policy.schemes.includes(scheme)) return `scheme ${scheme} is not allowed (${policy.names.schemes})`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (ipaddr.isValid(host)) {
    const blocked = blockedNetwork(policy.blocked, ipaddr.parse(host));
    if (blocked) return `address ${host} is in a blocked network (${blocked}, ${policy.names.blocked})`;
  }
  const allowed = policy.allowedHosts;
  if (allowed.length && !allowed.some((h) => (h.startsWith(".") ? host.endsWith(h) || host === h.slice(1) : host === h.toLowerCase()))) {
    return `host ${host} is not in ${policy.names.allowedHosts}`;
  }
  return null;
}

/**
 * The blocked network the address is in, or null: the address itself and, for IPv6, every IPv4
 * address written inside it (`embeddedIPv4`), which reaches the same host through a translator.
 */
function blockedNetwork(networks: readonly string[], address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const candidates = address.kind() === "ipv6" ? [address, ...embeddedIPv4(address as ipaddr.IPv6)] : [address];
  for (const network of networks) {
    const [base, bits] = network.includes("/") ? ipaddr.parseCIDR(network) : [ipaddr.parse(network), network.includes(":") ? 128 : 32];
    if (candidates.some((a) => a.kind() === base.kind() && a.match(base, bits))) return network;
  }
  return null;
}

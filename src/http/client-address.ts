import ipaddr from "ipaddr.js";

const within = (address: string, networks: readonly string[]): boolean => {
  const client = ipaddr.process(address);
  return networks.some((network) => {
    const [addr, bits] = network.includes("/") ? ipaddr.parseCIDR(network) : [ipaddr.parse(network), undefined];
    const net = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
    return net.kind() === client.kind() && client.match(net, bits ?? (net.kind() === "ipv4" ? 32 : 128));
  });
};

/** `10.0.0.1:5000` and `[2001:db8::1]:5000` without their ports, as proxies sometimes write them. */
const withoutPort = (hop: string): string => {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1];
  return /^[\d.]+:\d+$/.test(hop) ? hop.slice(0, hop.lastIndexOf(":")) : hop;
};

/**
 * The client's address on Node and Deno: the socket peer, unless the peer is one of
 * TRUSTED_PROXIES; then X-Forwarded-For is read from the nearest hop back, and the first hop that
 * is not itself a trusted proxy is the client. A header from anyone else is ignored, so a client
 * cannot choose the address its token's `allowed_ips` is checked against. `forwardedFor` is the
 * request's X-Forwarded-For (repeated headers joined with ", ").
 */
export function clientAddressOf(forwardedFor: string | null | undefined, peer: string | null, trusted: readonly string[]): string | null {
  if (!peer || trusted.length === 0 || !ipaddr.isValid(peer) || !within(peer, trusted)) return peer;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => withoutPort(h.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!ipaddr.isValid(hops[i])) return null;
    if (i === 0 || !within(hops[i], trusted)) return ipaddr.process(hops[i]).toString();
  }
  return peer;
}

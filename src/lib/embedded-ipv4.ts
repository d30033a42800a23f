import ipaddr from "ipaddr.js";

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** RFC 6052: where the IPv4 octets sit in an IPv4-embedded IPv6 address, by prefix length (bits 64-71 stay zero). */
const RFC6052_OCTETS: Record<number, readonly number[]> = {
  32: [4, 5, 6, 7],
  40: [5, 6, 7, 9],
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
};

const within = (address: IPv6, cidr: string) => address.match(ipaddr.IPv6.parseCIDR(cidr));
const v4 = (bytes: readonly number[], at: readonly number[], mask = 0) => new ipaddr.IPv4(at.map((i) => bytes[i] ^ mask));

/**
 * Every IPv4 address an IPv6 address may lead to: the networks a destination policy blocks are
 * written in IPv4 (169.254.0.0/16), while the same host is reachable as IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 (`64:ff9b::/96`, and the local-use
 * `64:ff9b:1::/48` at any of RFC 6052's prefix lengths), 6to4 `2002:AABB:CCDD::/48` or Teredo
 * `2001:0::/32` (the client address, its bits inverted). A form whose prefix length the address
 * does not tell gives every candidate, so a policy errs on the side of refusing.
 */
export function embeddedIPv4(address: IPv6): IPv4[] {
  const bytes = address.toByteArray();
  if (address.isIPv4MappedAddress()) return [address.toIPv4Address()];
  // IPv4-translated (RFC 2765, ::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d, not :: or ::1).
  if (within(address, "::ffff:0:0:0/96")) return [v4(bytes, RFC6052_OCTETS[96])];
  if (within(address, "::/96") && !within(address, "::/127")) return [v4(bytes, RFC6052_OCTETS[96])];
  if (within(address, "64:ff9b::/96")) return [v4(bytes, RFC6052_OCTETS[96])];
  if (within(address, "64:ff9b:1::/48")) return [48, 56, 64, 96].map((bits) => v4(bytes, RFC6052_OCTETS[bits]));
  if (within(address, "2002::/16")) return [v4(bytes, [2, 3, 4, 5])];
  if (within(address, "2001::/32")) return [v4(bytes, [12, 13, 14, 15], 0xff)];
  return [];
}

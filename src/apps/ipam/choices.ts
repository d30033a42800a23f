import type { Choice } from "../../schema/shapes.ts";

/** The address family, derived from the address: read as `{value: 4, label: "IPv4"}`, brief as 4. */
export const FAMILY: readonly Choice[] = [
  { value: 4, label: "IPv4" },
  { value: 6, label: "IPv6" },
];

export const PREFIX_STATUS: readonly Choice[] = [
  { value: "container", label: "Container" },
  { value: "active", label: "Active" },
  { value: "reserved", label: "Reserved" },
  { value: "deprecated", label: "Deprecated" },
];

export const IP_RANGE_STATUS: readonly Choice[] = [
  { value: "active", label: "Active" },
  { value: "reserved", label: "Reserved" },
  { value: "deprecated", label: "Deprecated" },
];

export const IP_ADDRESS_STATUS: readonly Choice[] = [
  { value: "active", label: "Active" },
  { value: "reserved", label: "Reserved" },
  { value: "deprecated", label: "Deprecated" },
  { value: "dhcp", label: "DHCP" },
  { value: "slaac", label: "SLAAC" },
];

export const IP_ADDRESS_ROLE: readonly Choice[] = [
  { value: "loopback", label: "Loopback" },
  { value: "secondary", label: "Secondary" },
  { value: "anycast", label: "Anycast" },
  { value: "vip", label: "VIP" },
  { value: "vrrp", label: "VRRP" },
  { value: "hsrp", label: "HSRP" },
  { value: "glbp", label: "GLBP" },
  { value: "carp", label: "CARP" },
];

/** Roles whose addresses may be shared by several holders, so duplicates among them are allowed. */
export const SHARED_ROLES = ["anycast", "vip", "vrrp", "hsrp", "glbp", "carp"];

/**
 * VLAN status. SPEC.md 2.3 shows it as `{value: 1, label: "Active"}` (the integers older
 * releases stored); writes take the integer or NetBox's string.
 */
export const VLAN_STATUS: readonly Choice[] = [
  { value: 1, label: "Active", accepts: ["active"] },
  { value: 2, label: "Reserved", accepts: ["reserved"] },
  { value: 3, label: "Deprecated", accepts: ["deprecated"] },
];

export const VLAN_QINQ_ROLE: readonly Choice[] = [
  { value: "svlan", label: "Service" },
  { value: "cvlan", label: "Customer" },
];

export const SERVICE_PROTOCOL: readonly Choice[] = [
  { value: "tcp", label: "TCP" },
  { value: "udp", label: "UDP" },
  { value: "sctp", label: "SCTP" },
];

export const FHRP_PROTOCOL: readonly Choice[] = [
  { value: "vrrp2", label: "VRRPv2" },
  { value: "vrrp3", label: "VRRPv3" },
  { value: "carp", label: "CARP" },
  { value: "clusterxl", label: "ClusterXL" },
  { value: "hsrp", label: "HSRP" },
  { value: "glbp", label: "GLBP" },
  { value: "other", label: "Other" },
];

export const FHRP_AUTH_TYPE: readonly Choice[] = [
  { value: "plaintext", label: "Plaintext" },
  { value: "md5", label: "MD5" },
];

import type { Choice } from "../../schema/shapes.ts";

/** NetBox 4.2's choice sets of the vpn app (`vpn/choices.py`), values and labels as it serves them. */

export const TUNNEL_STATUS: readonly Choice[] = [
  { value: "planned", label: "Planned" },
  { value: "active", label: "Active" },
  { value: "disabled", label: "Disabled" },
];

export const TUNNEL_ENCAPSULATION: readonly Choice[] = [
  { value: "ipsec-transport", label: "IPsec - Transport" },
  { value: "ipsec-tunnel", label: "IPsec - Tunnel" },
  { value: "ip-ip", label: "IP-in-IP" },
  { value: "gre", label: "GRE" },
  { value: "wireguard", label: "WireGuard" },
  { value: "openvpn", label: "OpenVPN" },
  { value: "l2tp", label: "L2TP" },
  { value: "pptp", label: "PPTP" },
];

export const TUNNEL_TERMINATION_ROLE: readonly Choice[] = [
  { value: "peer", label: "Peer" },
  { value: "hub", label: "Hub" },
  { value: "spoke", label: "Spoke" },
];

export const IKE_VERSION: readonly Choice[] = [
  { value: 1, label: "IKEv1" },
  { value: 2, label: "IKEv2" },
];

export const IKE_MODE: readonly Choice[] = [
  { value: "aggressive", label: "Aggressive" },
  { value: "main", label: "Main" },
];

export const AUTHENTICATION_METHOD: readonly Choice[] = [
  { value: "preshared-keys", label: "Pre-shared keys" },
  { value: "certificates", label: "Certificates" },
  { value: "rsa-signatures", label: "RSA signatures" },
  { value: "dsa-signatures", label: "DSA signatures" },
];

export const IPSEC_MODE: readonly Choice[] = [
  { value: "esp", label: "ESP" },
  { value: "ah", label: "AH" },
];

export const ENCRYPTION_ALGORITHM: readonly Choice[] = [
  { value: "aes-128-cbc", label: "128-bit AES (CBC)" },
  { value: "aes-128-gcm", label: "128-bit AES (GCM)" },
  { value: "aes-192-cbc", label: "192-bit AES (CBC)" },
  { value: "aes-192-gcm", label: "192-bit AES (GCM)" },
  { value: "aes-256-cbc", label: "256-bit AES (CBC)" },
  { value: "aes-256-gcm", label: "256-bit AES (GCM)" },
  { value: "3des-cbc", label: "3DES" },
  { value: "des-cbc", label: "DES" },
];

export const AUTHENTICATION_ALGORITHM: readonly Choice[] = [
  { value: "hmac-sha1", label: "SHA-1 HMAC" },
  { value: "hmac-sha256", label: "SHA-256 HMAC" },
  { value: "hmac-sha384", label: "SHA-384 HMAC" },
  { value: "hmac-sha512", label: "SHA-512 HMAC" },
  { value: "hmac-md5", label: "MD5 HMAC" },
];

/** Diffie-Hellman groups (IKE proposals' `group`, IPSec policies' `pfs_group`). */
export const DH_GROUP: readonly Choice[] = [1, 2, 5, ...Array.from({ length: 21 }, (_, i) => 14 + i)].map((n) => ({
  value: n,
  label: `Group ${n}`,
}));

export const L2VPN_TYPE: readonly Choice[] = [
  { value: "vpws", label: "VPWS" },
  { value: "vpls", label: "VPLS" },
  { value: "vxlan", label: "VXLAN" },
  { value: "vxlan-evpn", label: "VXLAN-EVPN" },
  { value: "mpls-evpn", label: "MPLS EVPN" },
  { value: "pbb-evpn", label: "PBB EVPN" },
  { value: "evpn-vpws", label: "EVPN VPWS" },
  { value: "epl", label: "EPL" },
  { value: "evpl", label: "EVPL" },
  { value: "ep-lan", label: "Ethernet Private LAN" },
  { value: "evp-lan", label: "Ethernet Virtual Private LAN" },
  { value: "ep-tree", label: "Ethernet Private Tree" },
  { value: "evp-tree", label: "Ethernet Virtual Private Tree" },
];

/** The point-to-point types: an L2VPN of one of them has at most two terminations (NetBox's `L2VPNTypeChoices.P2P`). */
export const L2VPN_POINT_TO_POINT: readonly string[] = ["vpws", "epl", "ep-lan", "ep-tree"];

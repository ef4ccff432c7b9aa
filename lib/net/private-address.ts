import { BlockList, isIP } from "node:net";

// Addresses an outbound request of ours must never reach unless explicitly allowed (development,
// tests): our own host and network, cloud metadata, and the IPv6 ranges that tunnel to IPv4
// (NAT64, 6to4, Teredo), through which a "public" IPv6 address can land on a private IPv4 one.

const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d.
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether an IP address is one we must not connect to. Anything that is not an IP address counts
 * as private. IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as its IPv4 address.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? "ipv4" : "ipv6");
}

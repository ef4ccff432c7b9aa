import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { config } from "../config";

// Webhook URLs point at merchants' servers. Unless explicitly allowed (development, tests), they
// must be https and resolve only to public addresses, so a merchant cannot make us probe our
// own network (SSRF).

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
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address is its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Why a URL may not receive webhooks, or null when it may (static checks only). */
export function webhookUrlProblem(
  url: string,
  allowPrivate = config().webhooks.allowPrivateUrls,
): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.username || parsed.password) return "must not contain credentials";
  if (allowPrivate)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? null : "must be http(s)";
  if (parsed.protocol !== "https:") return "must use https";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal"))
    return "must be a public host";
  if (isIP(host) && isPrivateAddress(host)) return "must be a public address";
  return null;
}

/** At send time: every address the host resolves to must be public (unless allowed). */
export async function resolvesToPublicAddresses(
  url: string,
  allowPrivate = config().webhooks.allowPrivateUrls,
) {
  if (allowPrivate) return true;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every(({ address }) => !isPrivateAddress(address));
}

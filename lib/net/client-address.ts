import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { isIPv4, isIPv6 } from "node:net";

// App Router handlers never see the socket, and Next.js keeps a client's own X-Forwarded-For
// (it only fills the header in when absent), so the address is settled where the socket is: our
// server (scripts/serve.ts) stamps every request with this header, replacing any a client sent.

export const clientAddressHeader = "x-client-address";

/**
 * The client's address: the socket's peer, or with `trustedProxies` proxies in front, the entry
 * that the outermost trusted proxy appended to X-Forwarded-For. Entries further left were written
 * by the client and are ignored; with fewer entries than proxies, the leftmost one is used.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: number,
): string {
  const socket = unmapIPv4(socketAddress ?? "") || "unknown";
  if (trustedProxies === 0) return socket;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, socket];
  const entry = chain[Math.max(0, chain.length - 1 - trustedProxies)];
  return isIPv4(unmapIPv4(entry)) || isIPv6(entry) ? unmapIPv4(entry) : "unknown";
}

/**
 * Stamped beside the address: "1" when the request came straight from a program on this machine,
 * with no sign of a proxy in between (see isDirectLocalRequest); "0" otherwise.
 */
export const directLocalHeader = "x-client-direct-local";

// What proxies add (nginx, Caddy, Traefik, HAProxy, Apache, CDNs): a request carrying any of them
// was relayed, whoever the socket's peer is.
const forwardingHeaders = [
  "x-forwarded-for",
  "forwarded",
  "x-real-ip",
  "x-forwarded-host",
  "x-forwarded-proto",
  "via",
];

/** The name in a Host header, without its port or IPv6 brackets. */
function hostName(host: string | undefined): string {
  const value = (host ?? "").trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  return bracketed ? bracketed[1] : value.replace(/:\d+$/, "");
}

/**
 * Whether a request reached our socket from this machine and not through a proxy: the peer is
 * loopback, no proxy is configured (SERVICE_TRUSTED_PROXIES), no forwarding header is present and
 * the Host names this machine. A same-host reverse proxy connects from loopback too; what it adds
 * (forwarding headers, or the public Host it passes on) gives it away.
 */
export function isDirectLocalRequest(
  socketAddress: string | undefined,
  headers: IncomingHttpHeaders,
  trustedProxies: number,
): boolean {
  if (trustedProxies > 0 || !isLoopbackAddress(unmapIPv4(socketAddress ?? ""))) return false;
  if (forwardingHeaders.some((name) => headers[name] !== undefined)) return false;
  const host = hostName(headers.host);
  return host === "localhost" || isLoopbackAddress(host);
}

/** Sets the client address headers on a request our server received, before Next.js sees it. */
export function stampClientAddress(request: IncomingMessage, trustedProxies: number) {
  request.headers[directLocalHeader] = isDirectLocalRequest(
    request.socket.remoteAddress,
    request.headers,
    trustedProxies,
  )
    ? "1"
    : "0";
  request.headers[clientAddressHeader] = resolveClientAddress(
    request.socket.remoteAddress,
    request.headers["x-forwarded-for"],
    trustedProxies,
  );
}

/** Whether our server found the request came straight from this machine (false without the stamp). */
export function isDirectLocal(headers: Headers): boolean {
  return headers.get(directLocalHeader) === "1";
}

/**
 * The address our server stamped on the request. Without the stamp (the app was started some
 * other way than `npm start`) every client shares one "unknown" address: limits stay in force and
 * loopback-only pages stay closed, rather than trusting a header a client can write.
 */
export function clientAddress(headers: Headers): string {
  return headers.get(clientAddressHeader) || "unknown";
}

export function isLoopbackAddress(address: string): boolean {
  return address === "::1" || (isIPv4(address) && address.startsWith("127."));
}

/**
 * The key public limits count a client under: its IPv4 address, or its IPv6 /64 (one subscriber's
 * network hands out as many addresses from it as it likes).
 */
export function clientLimitKey(address: string): string {
  // Most keys are IPv4: no colon spares them the IPv6 pattern.
  if (!address.includes(":") || !isIPv6(address)) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

function unmapIPv4(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

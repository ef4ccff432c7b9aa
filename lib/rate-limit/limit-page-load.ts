import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "./rate-limit";

// Pages that do work for whoever asks, signed in or not, and so spend the client's public
// budget like the public API does: the OAuth authorization request (it may fetch a client's
// metadata document), the hosted pay page and a paylink's pay address (a session looked up or
// opened), the agent pages that look up a code or a link's token, a refund's claim page and a
// buyer's receipt.
const limitedPages = [
  /^\/oauth\/authorize$/,
  /^\/pay\/[^/]+$/,
  /^\/agent\/setup$/,
  /^\/agent\/register\/confirm$/,
  /^\/refund\/[^/]+$/,
  /^\/receipt\/[^/]+$/,
];

/** Whether this request loads a page that counts against the public budget. */
export function isLimitedPageLoad(method: string, pathname: string): boolean {
  return (method === "GET" || method === "HEAD") && limitedPages.some((page) => page.test(pathname));
}

/** Counts one page load for the request's client; throws the 429 (with Retry-After) when over. */
export async function limitPageLoad(headers: Headers): Promise<void> {
  await consumeRateLimit("publicIp", clientLimitKey(clientAddress(headers)));
}

import { checkoutSessionX402Url, paylinkX402Url } from "../config";
import { hasIdPrefix, isUuid } from "../ids";

// A buyer's pay address also tells an agent where to pay by machine: a `Link` with the registered
// relation "payment" ("a resource where payment is accepted", IANA link relations) to the x402
// resource (docs/agents.md, "Agents that pay"). x402 defines no discovery header of its own; the
// relation only points, and the resource's 402 says what to pay. Built from the path alone, so it
// costs the proxy no lookup; an unknown id points at an x402 resource that answers 404 the same.
const payPath = /^\/pay\/([^/]+)$/;

/** The `Link` header for a response to `{pay_url}/<paylink or session id>`, else null. */
export function paymentLinkHeader(method: string, pathname: string): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const id = payPath.exec(pathname)?.[1];
  const url =
    id === undefined
      ? null
      : isUuid(id)
        ? paylinkX402Url(id)
        : hasIdPrefix("checkoutSession", id)
          ? checkoutSessionX402Url(id)
          : null;
  return url ? `<${url}>; rel="payment"` : null;
}

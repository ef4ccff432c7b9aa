import { clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";

/**
 * Counts one buyer start, a session opened from a paylink or a payment started on a session,
 * against the budgets of the client, of the paylink and of the session; throws the 429 (with
 * Retry-After) once one is spent. Sessions, invoices and deposit-address indexes are only made
 * after this, so a refused start leaves no row behind. The client is counted first: one client
 * cannot spend a paylink's budget (or fill the store with keys) beyond its own.
 */
export async function assertCheckoutStartAllowed(start: {
  clientAddress: string;
  paylinkId?: string;
  checkoutSessionId?: string;
}): Promise<void> {
  await consumeRateLimit("checkoutClient", clientLimitKey(start.clientAddress));
  if (start.paylinkId) await consumeRateLimit("checkoutPaylink", start.paylinkId.toLowerCase());
  if (start.checkoutSessionId) await consumeRateLimit("paymentSession", start.checkoutSessionId);
}

import type { Db } from "../db/client";
import { getPublicPayment } from "../payments/get-public-payment";
import { serializePublicPayment } from "../payments/serialize-public-payment";
import { createCheckoutSession } from "./create-checkout-session";
import { paymentChoice, startPayment } from "./start-payment";

/**
 * POST /api/checkout-sessions and its tool: creates the session (once per Idempotency-Key) and,
 * when the request names a network and token, starts its payment as the buyer's choice on the
 * hosted page would: the answer's `paymentRequest` is what to pay (address, Solana Pay reference,
 * paymentUri). A retry gets the same invoice (startPayment keeps the first choice).
 */
export async function openCheckoutSession(
  database: Db,
  input: Parameters<typeof createCheckoutSession>[1],
  now = new Date(),
) {
  const { network, token } = input.request;
  // Refused before the session exists, so a retry is not answered with a session and a refusal.
  if (network && token) paymentChoice({ network, token });
  const created = await createCheckoutSession(database, input, now);
  // A replayed refusal answers as it did.
  if (created.status !== 200) return created;
  const session = created.body as { id: string };
  if (!network || !token) return { ...created, body: { ...session, paymentRequest: null } };
  const invoice = await startPayment(database, { checkoutSessionId: session.id, network, token }, now);
  const paymentRequest = serializePublicPayment(await getPublicPayment(database, invoice.id));
  return { ...created, body: { ...session, paymentRequest } };
}

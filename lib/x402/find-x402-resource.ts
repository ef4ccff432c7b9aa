import { getPublicCheckoutSession } from "../checkout/get-public-checkout-session";
import type { Db } from "../db/client";
import { conflict, gone } from "../errors";
import type { Invoice } from "../generated/prisma/client";
import { getPublicPaylink } from "../paylinks/get-public-paylink";
import type { X402ResourceKind } from "./x402-quote-token";

export type X402ResourceRef = { kind: X402ResourceKind; id: string };

type PublicPaylink = Awaited<ReturnType<typeof getPublicPaylink>>;
type PublicSession = Awaited<ReturnType<typeof getPublicCheckoutSession>>;

export type X402Resource =
  | { kind: "paylink"; paylink: PublicPaylink }
  | { kind: "checkout_session"; session: PublicSession; invoice: Invoice | null };

// An invoice that may still receive the rest of its amount.
const payableInvoice: Invoice["status"][] = ["AWAITING_PAYMENT", "PARTIALLY_PAID"];

/**
 * What an x402 request buys, as buyers may see it: an enabled paylink, or a checkout session
 * that can still be paid (404 when unknown, 409 once paid, 410 once expired or overdue).
 */
export async function findX402Resource(database: Db, ref: X402ResourceRef, now: Date): Promise<X402Resource> {
  if (ref.kind === "paylink") return { kind: "paylink", paylink: await getPublicPaylink(database, ref.id) };
  const session = await getPublicCheckoutSession(database, ref.id, now);
  const invoice = await database.invoice.findUnique({ where: { checkoutSessionId: session.id } });
  if (invoice && (invoice.status === "CONFIRMING" || invoice.status === "CONFIRMED"))
    throw conflict("session_already_paid", "This checkout session is already paid.");
  if (session.status === "EXPIRED" || (invoice && !payableInvoice.includes(invoice.status)))
    throw gone("session_expired", "This checkout session has expired and can no longer be paid.");
  return { kind: "checkout_session", session, invoice };
}

import type { Tx } from "../db/client";
import { type EventType, recordEvent } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import type { CheckoutSession, Invoice, Subscription } from "../generated/prisma/client";
import { subscriptionEventObject } from "../recurring/subscription-event-object";

/**
 * Records a subscription event: the common payload of the subscription's current invoice (the
 * renewal at stake, else the latest one) plus the `subscription` object (shared event contract).
 */
export async function recordSubscriptionEvent(
  tx: Tx,
  type: Extract<EventType, "subscription.overdue" | "subscription.cancelled">,
  subscription: Subscription,
  invoice?: Invoice & { checkoutSession: CheckoutSession },
) {
  const subject =
    invoice ??
    (await tx.invoice.findFirstOrThrow({
      where: { subscriptionId: subscription.id, organizationId: subscription.organizationId },
      orderBy: { periodIndex: "desc" },
      include: { checkoutSession: true },
    }));
  await recordEvent(tx, {
    organizationId: subscription.organizationId,
    type,
    invoiceId: subject.id,
    data: serializeInvoiceEvent(subject, subject.checkoutSession, subscriptionEventObject(subscription)),
  });
}

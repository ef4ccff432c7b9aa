import type { Db } from "../db/client";
import { invalidRequest } from "../errors";
import { type EventType, recordEvent } from "../events/record-event";
import { transactWithEvents } from "../events/transact-with-events";
import { randomBase62 } from "../ids";
import { getWebhookEndpoint } from "./get-webhook-endpoint";

/** A made-up monthly subscription as the shared event contract shapes it, in the state the event reports. */
function testSubscription(type: EventType) {
  const cancelled = type === "subscription.cancelled";
  const periodEnd = new Date();
  return {
    id: `sub_test_${randomBase62(20)}`,
    status: cancelled ? "CANCELLED" : "PAST_DUE",
    currentPeriodStart: new Date(periodEnd.getTime() - 30 * 24 * 60 * 60 * 1000).toISOString(),
    currentPeriodEnd: periodEnd.toISOString(),
    cancelAtPeriodEnd: false,
    cancellationReason: cancelled ? "unpaid" : null,
    interval: "month",
    intervalCount: 1,
  };
}

/**
 * Sends an `evt_test_…` event (livemode false) to one endpoint through the normal delivery path,
 * adapter and signature. Its invoice and customer are made up: no invoice, payment, subscription
 * or customer rows are created.
 */
export async function sendTestEvent(
  database: Db,
  organizationId: string,
  endpointId: string,
  type: EventType = "payment.confirmed",
) {
  const endpoint = await getWebhookEndpoint(database, organizationId, endpointId);
  if (!endpoint.enabled) {
    throw invalidRequest(
      "endpoint_disabled",
      "This endpoint is disabled; enable it to send a test event.",
      "id",
    );
  }
  const recurring = type.startsWith("subscription.");
  const event = await transactWithEvents(database, (tx) =>
    recordEvent(tx, {
      organizationId,
      type,
      livemode: false,
      endpointId,
      invoiceId: `inv_test_${randomBase62(20)}`,
      data: {
        amount: "49.00",
        amountUsd: "49.00",
        currency: "USD",
        rate: "1",
        paymentType: recurring ? "RECURRING" : "ONE_TIME",
        status:
          type === "payment.confirmed"
            ? "CONFIRMED"
            : type === "invoice.created"
              ? "AWAITING_PAYMENT"
              : "OVERDUE",
        customer: { email: "test.buyer@example.com", name: "Test Buyer", clientReferenceId: null },
        checkoutSessionId: null,
        merchantOrderId: "test-order",
        ...(recurring ? { subscription: testSubscription(type) } : {}),
      },
    }),
  );
  return event;
}

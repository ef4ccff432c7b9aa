import type { Db } from "../db/client";
import { invalidRequest } from "../errors";
import { type EventType, recordEvent } from "../events/record-event";
import { transactWithEvents } from "../events/transact-with-events";
import { randomBase62 } from "../ids";
import { getWebhookEndpoint } from "./get-webhook-endpoint";

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
  // Subscription events carry a made-up subscription, as the shared event contract shapes them.
  const now = Date.now();
  const subscription =
    type === "subscription.overdue" || type === "subscription.cancelled"
      ? {
          id: `sub_test_${randomBase62(20)}`,
          status: type === "subscription.overdue" ? "PAST_DUE" : "CANCELLED",
          currentPeriodStart: new Date(now - 30 * 86_400_000).toISOString(),
          currentPeriodEnd: new Date(now - 86_400_000).toISOString(),
          cancelAtPeriodEnd: false,
          cancellationReason: type === "subscription.cancelled" ? "unpaid" : null,
          interval: "month",
          intervalCount: 1,
        }
      : null;
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
        paymentType: subscription ? "RECURRING" : "ONE_TIME",
        status: type === "invoice.overdue" || subscription ? "OVERDUE" : "CONFIRMED",
        customer: { email: "test.buyer@example.com", name: "Test Buyer", clientReferenceId: null },
        checkoutSessionId: null,
        merchantOrderId: "test-order",
        ...(subscription ? { subscription } : {}),
      },
    }),
  );
  return event;
}

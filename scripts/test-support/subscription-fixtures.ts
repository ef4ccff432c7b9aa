import { db } from "../../lib/db/client";
import { newId } from "../../lib/ids";
import { periodBounds } from "../../lib/recurring/subscription-periods";
import { createTestInvoice } from "./fixtures";

/**
 * A subscription as a confirmed first payment leaves it (its first invoice included), in the
 * given status, without a devnet: for API, MCP and dashboard tests that only read or cancel.
 */
export async function createTestSubscription(
  organizationId: string,
  input: { status?: "ACTIVE" | "PAST_DUE" | "CANCELLED"; customerEmail?: string; anchor?: Date } = {},
) {
  const anchor = input.anchor ?? new Date();
  const period = periodBounds(anchor, "month", 1, 0);
  const invoice = await createTestInvoice(organizationId, { amount: "9.00", status: "CONFIRMED" });
  await db().checkoutSession.update({
    where: { id: invoice.checkoutSessionId },
    data: { recurringInterval: "month", recurringIntervalCount: 1, customerEmail: input.customerEmail },
  });
  const subscription = await db().subscription.create({
    data: {
      id: newId("subscription"),
      organizationId,
      status: input.status ?? "ACTIVE",
      amount: "9.00",
      currency: "USD",
      description: "Coffee club",
      interval: "month",
      intervalCount: 1,
      network: "devnet",
      token: "USDC",
      customerEmail: input.customerEmail,
      anchor,
      currentPeriodStart: period.start,
      currentPeriodEnd: period.end,
      cancellationReason: input.status === "CANCELLED" ? "requested" : null,
      nextActionAt: input.status === "CANCELLED" ? null : new Date(period.end.getTime() - 24 * 3_600_000),
    },
  });
  await db().invoice.update({
    where: { id: invoice.id },
    data: {
      subscriptionId: subscription.id,
      periodIndex: 0,
      periodStart: period.start,
      periodEnd: period.end,
    },
  });
  return subscription;
}

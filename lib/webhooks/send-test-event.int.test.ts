import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestReceiverEndpoint } from "@/scripts/test-support/fixtures";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { sendTestEvent } from "./send-test-event";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("test events", () => {
  it.each([
    ["subscription.overdue", "PAST_DUE", null],
    ["subscription.cancelled", "CANCELLED", "unpaid"],
  ] as const)(
    "%s reaches the endpoint as a RECURRING event with a subscription",
    async (type, status, reason) => {
      const { receiver, organization, endpoint } = await createTestReceiverEndpoint();
      closers.push(() => receiver.close());
      const event = await sendTestEvent(db(), organization.id, endpoint.id, type);
      await deliverDueWebhooks(db());
      expect(receiver.received).toHaveLength(1);
      const body = JSON.parse(receiver.received[0].rawBody);
      expect(body).toMatchObject({
        id: event.id,
        type,
        livemode: false,
        paymentType: "RECURRING",
        subscription: {
          id: expect.stringMatching(/^sub_test_/),
          status,
          cancellationReason: reason,
          interval: "month",
          intervalCount: 1,
          cancelAtPeriodEnd: false,
        },
      });
      expect(await db().subscription.count({ where: { organizationId: organization.id } })).toBe(0);
    },
  );

  it("a payment test event stays ONE_TIME without a subscription", async () => {
    const { receiver, organization, endpoint } = await createTestReceiverEndpoint();
    closers.push(() => receiver.close());
    await sendTestEvent(db(), organization.id, endpoint.id);
    await deliverDueWebhooks(db());
    const body = JSON.parse(receiver.received[0].rawBody);
    expect(body.paymentType).toBe("ONE_TIME");
    expect(body).not.toHaveProperty("subscription");
  });
});

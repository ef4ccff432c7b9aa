import { beforeAll, describe, expect, it } from "vitest";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import type { RecurringInterval } from "../recurring/subscription-periods";
import { cancelSubscription } from "./cancel-subscription";
import { processDueSubscriptions } from "./process-due-subscriptions";

// A real Hardhat node, the real watcher and scheduler; the clock is the `now` each step is given,
// so a month passes in a line.
const devnet = testDevnetForFile({ confirmations: 1 });
const hour = 3_600_000;

beforeAll(() => {
  process.env.SERVICE_DEV_MAILBOX = "true";
});

/** Pays `to` on the devnet and lets the watcher see it at `now`. */
async function pay(to: string, amount: string, now: Date) {
  await devnet.mintUsdc(to, amount);
  await scanNetwork(db(), devnet.network, devnet.client, { now });
}

/** A recurring checkout paid on the devnet: the subscription its confirmation started. */
async function subscribe(
  recurring: { interval: RecurringInterval; intervalCount: number } = { interval: "month", intervalCount: 1 },
  email?: string,
) {
  const { organization } = await createTestOrganization();
  const created = await createCheckoutSession(db(), {
    organizationId: organization.id,
    request: {
      mode: "standalone",
      amount: "12.50",
      currency: "USD",
      expiresInMinutes: 60,
      recurring,
      customerEmail: email,
    },
    idempotency: null,
  });
  const invoice = await startPayment(db(), {
    checkoutSessionId: (created.body as { id: string }).id,
    network: "devnet",
    token: "USDC",
  });
  await pay(invoice.depositAddress, "12.5", new Date());
  const first = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
  expect(first.status).toBe("CONFIRMED");
  const subscription = await db().subscription.findFirstOrThrow({
    where: { organizationId: organization.id },
  });
  return { organization, subscription, firstInvoice: first };
}

const subscriptionOf = (id: string) => db().subscription.findUniqueOrThrow({ where: { id } });
const renewalOf = (subscriptionId: string, periodIndex: number) =>
  db().invoice.findUniqueOrThrow({ where: { subscriptionId_periodIndex: { subscriptionId, periodIndex } } });
const eventsOf = (organizationId: string) =>
  db().event.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const hoursFrom = (date: Date, hours: number) => new Date(date.getTime() + hours * hour);

describe("subscriptions on a devnet", () => {
  it("a confirmed first payment starts an ACTIVE subscription with a RECURRING payment.confirmed", async () => {
    const { organization, subscription, firstInvoice } = await subscribe(undefined, "buyer@example.com");
    expect(subscription).toMatchObject({
      status: "ACTIVE",
      interval: "month",
      intervalCount: 1,
      currentPeriodIndex: 0,
      customerEmail: "buyer@example.com",
      network: "devnet",
      token: "USDC",
    });
    expect(subscription.currentPeriodStart.getTime()).toBe(subscription.anchor.getTime());
    expect(subscription.nextActionAt?.getTime()).toBe(
      hoursFrom(subscription.currentPeriodEnd, -24).getTime(),
    );
    expect(firstInvoice).toMatchObject({ subscriptionId: subscription.id, periodIndex: 0 });
    const events = await eventsOf(organization.id);
    expect(events.map((event) => event.type)).toEqual(["invoice.created", "payment.confirmed"]);
    expect(events[0].payload).toMatchObject({ paymentType: "RECURRING" });
    expect(events[0].payload).not.toHaveProperty("subscription");
    expect(events[1].payload).toMatchObject({
      paymentType: "RECURRING",
      subscription: {
        id: subscription.id,
        status: "ACTIVE",
        interval: "month",
        intervalCount: 1,
        cancelAtPeriodEnd: false,
        cancellationReason: null,
        currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
      },
    });
  });

  it("issues a renewal once, even with two workers at once, and emails its link", async () => {
    const { organization, subscription } = await subscribe(undefined, "renewer@example.com");
    const due = hoursFrom(subscription.currentPeriodEnd, -23);
    expect(await processDueSubscriptions(db(), hoursFrom(subscription.currentPeriodEnd, -25))).toBe(0);
    await Promise.all([processDueSubscriptions(db(), due), processDueSubscriptions(db(), due)]);
    await processDueSubscriptions(db(), due);
    const invoices = await db().invoice.findMany({
      where: { subscriptionId: subscription.id, periodIndex: 1 },
    });
    expect(invoices).toHaveLength(1);
    const [renewal] = invoices;
    expect(renewal.deadline.getTime()).toBe(hoursFrom(due, 24).getTime());
    expect(renewal.periodStart?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    const created = (await eventsOf(organization.id)).filter(
      (event) => event.type === "invoice.created" && event.invoiceId === renewal.id,
    );
    expect(created).toHaveLength(1);
    expect(created[0].payload).toMatchObject({
      paymentType: "RECURRING",
      hostedUrl: expect.stringContaining(`/${renewal.checkoutSessionId}`),
      subscription: { id: subscription.id, status: "ACTIVE" },
    });
    // The renewal's link once; beside it only the first period's receipt (the buyer gave an email).
    const emails = await db().devEmail.findMany({ where: { to: "renewer@example.com" } });
    const links = emails.filter((email) => email.text.includes(renewal.checkoutSessionId));
    expect(links).toHaveLength(1);
    expect(emails.filter((email) => !links.includes(email)).map((email) => email.subject)).toEqual([
      expect.stringMatching(/receipt/i),
    ]);
    const session = await db().checkoutSession.findUniqueOrThrow({
      where: { id: renewal.checkoutSessionId },
    });
    expect(session).toMatchObject({ status: "COMPLETED", recurringInterval: "month" });
  });

  it("a renewal paid on time starts the next period", async () => {
    const { subscription } = await subscribe({ interval: "week", intervalCount: 2 });
    const due = hoursFrom(subscription.currentPeriodEnd, -24);
    await processDueSubscriptions(db(), due);
    const renewal = await renewalOf(subscription.id, 1);
    await pay(renewal.depositAddress, "12.5", hoursFrom(due, 2));
    expect((await renewalOf(subscription.id, 1)).status).toBe("CONFIRMED");
    const renewed = await subscriptionOf(subscription.id);
    expect(renewed).toMatchObject({ status: "ACTIVE", currentPeriodIndex: 1 });
    expect(renewed.currentPeriodStart.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    expect(renewed.currentPeriodEnd.getTime()).toBe(
      hoursFrom(subscription.currentPeriodEnd, 14 * 24).getTime(),
    );
    expect(renewed.nextActionAt?.getTime()).toBe(hoursFrom(renewed.currentPeriodEnd, -24).getTime());
  });

  it("unpaid: invoice.overdue, then subscription.overdue; paid in grace: ACTIVE on the original anchor", async () => {
    const { organization, subscription } = await subscribe();
    const end = subscription.currentPeriodEnd;
    await processDueSubscriptions(db(), hoursFrom(end, -24));
    const renewal = await renewalOf(subscription.id, 1);
    await processDueSubscriptions(db(), hoursFrom(end, 1));
    expect(await subscriptionOf(subscription.id)).toMatchObject({ status: "PAST_DUE" });
    expect((await renewalOf(subscription.id, 1)).status).toBe("OVERDUE");
    const types = (await eventsOf(organization.id)).map((event) => event.type);
    expect(types.slice(-2)).toEqual(["invoice.overdue", "subscription.overdue"]);
    const overdue = (await eventsOf(organization.id)).at(-1);
    expect(overdue?.invoiceId).toBe(renewal.id);
    expect(overdue?.payload).toMatchObject({
      paymentType: "RECURRING",
      subscription: { id: subscription.id, status: "PAST_DUE" },
    });
    // Another pass changes nothing: each event once.
    await processDueSubscriptions(db(), hoursFrom(end, 2));
    expect(
      (await eventsOf(organization.id)).filter((event) => event.type === "subscription.overdue"),
    ).toHaveLength(1);

    await pay(renewal.depositAddress, "12.5", hoursFrom(end, 48));
    const recovered = await subscriptionOf(subscription.id);
    expect(recovered).toMatchObject({ status: "ACTIVE", currentPeriodIndex: 1 });
    expect(recovered.currentPeriodStart.getTime()).toBe(end.getTime());
    expect(recovered.anchor.getTime()).toBe(subscription.anchor.getTime());
    const paid = await db().payment.findFirstOrThrow({ where: { invoiceId: renewal.id } });
    expect(paid.late).toBe(true);
  });

  it("grace ends unpaid: subscription.cancelled with reason unpaid, and nothing more", async () => {
    const { organization, subscription } = await subscribe({ interval: "day", intervalCount: 1 });
    const end = subscription.currentPeriodEnd;
    await processDueSubscriptions(db(), hoursFrom(end, -24));
    await processDueSubscriptions(db(), hoursFrom(end, 1));
    await processDueSubscriptions(db(), hoursFrom(end, 71));
    expect((await subscriptionOf(subscription.id)).status).toBe("PAST_DUE");
    await processDueSubscriptions(db(), hoursFrom(end, 72));
    const cancelled = await subscriptionOf(subscription.id);
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "unpaid",
      nextActionAt: null,
    });
    const events = (await eventsOf(organization.id)).filter(
      (event) => event.type === "subscription.cancelled",
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      subscription: { id: subscription.id, status: "CANCELLED", cancellationReason: "unpaid" },
    });
    await processDueSubscriptions(db(), hoursFrom(end, 24 * 30));
    expect(await db().invoice.count({ where: { subscriptionId: subscription.id } })).toBe(2);
  });

  it("the grace period follows the organization's setting", async () => {
    const { organization, subscription } = await subscribe({ interval: "day", intervalCount: 1 });
    await db().organization.update({ where: { id: organization.id }, data: { subscriptionGraceDays: 1 } });
    const end = subscription.currentPeriodEnd;
    await processDueSubscriptions(db(), hoursFrom(end, -24));
    await processDueSubscriptions(db(), hoursFrom(end, 1));
    await processDueSubscriptions(db(), hoursFrom(end, 24));
    expect(await subscriptionOf(subscription.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "unpaid",
    });
  });

  it("the merchant cancels now: CANCELLED at once, subscription.cancelled (requested), no renewal", async () => {
    const { organization, subscription } = await subscribe();
    const result = await cancelSubscription(db(), organization.id, {
      id: subscription.id,
      atPeriodEnd: false,
    });
    expect(result).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "requested",
      nextActionAt: null,
    });
    const events = (await eventsOf(organization.id)).filter(
      (event) => event.type === "subscription.cancelled",
    );
    expect(events).toHaveLength(1);
    await processDueSubscriptions(db(), hoursFrom(subscription.currentPeriodEnd, 1));
    expect(await db().invoice.count({ where: { subscriptionId: subscription.id } })).toBe(1);
  });

  it("the merchant cancels at period end: no renewal, cancelled when the period ends", async () => {
    const { organization, subscription } = await subscribe();
    const result = await cancelSubscription(db(), organization.id, {
      id: subscription.id,
      atPeriodEnd: true,
    });
    expect(result).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
    expect(result.nextActionAt?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    await processDueSubscriptions(db(), hoursFrom(subscription.currentPeriodEnd, -12));
    expect(await subscriptionOf(subscription.id)).toMatchObject({ status: "ACTIVE" });
    await processDueSubscriptions(db(), subscription.currentPeriodEnd);
    expect(await subscriptionOf(subscription.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "requested",
    });
    expect(await db().invoice.count({ where: { subscriptionId: subscription.id } })).toBe(1);
    const events = (await eventsOf(organization.id)).filter(
      (event) => event.type === "subscription.cancelled",
    );
    expect(events).toHaveLength(1);
  });

  it.each([
    ["now", false, "CANCELLED"],
    ["at period end", true, "ACTIVE"],
  ])(
    "cancelling %s withdraws the open renewal: its session expires and no payment starts on it",
    async (_when, atPeriodEnd, status) => {
      const { organization, subscription } = await subscribe();
      const due = hoursFrom(subscription.currentPeriodEnd, -23);
      await processDueSubscriptions(db(), due);
      const renewal = await renewalOf(subscription.id, 1);
      const start = { checkoutSessionId: renewal.checkoutSessionId, network: "devnet", token: "USDC" };
      // Before the cancel the customer can pay it: a start returns the renewal itself.
      expect((await startPayment(db(), start, hoursFrom(due, 1))).id).toBe(renewal.id);

      const cancelledAt = hoursFrom(due, 2);
      const result = await cancelSubscription(
        db(),
        organization.id,
        { id: subscription.id, atPeriodEnd },
        { now: cancelledAt },
      );
      expect(result.status).toBe(status);
      const session = await db().checkoutSession.findUniqueOrThrow({
        where: { id: renewal.checkoutSessionId },
      });
      expect(session.status).toBe("EXPIRED");
      expect(session.expiresAt.getTime()).toBe(cancelledAt.getTime());
      const withdrawn = await renewalOf(subscription.id, 1);
      expect(withdrawn.status).toBe("OVERDUE");
      expect(withdrawn.deadline.getTime()).toBe(cancelledAt.getTime());
      const overdue = (await eventsOf(organization.id)).filter(
        (event) => event.type === "invoice.overdue" && event.invoiceId === renewal.id,
      );
      expect(overdue).toHaveLength(1);
      await expect(startPayment(db(), start, hoursFrom(due, 3))).rejects.toMatchObject({
        status: 400,
        code: "session_expired",
      });

      // The period ends: the subscription ends (if it had not), and nothing is issued or reopened.
      await processDueSubscriptions(db(), hoursFrom(subscription.currentPeriodEnd, 1));
      expect(await subscriptionOf(subscription.id)).toMatchObject({ status: "CANCELLED" });
      expect(await db().invoice.count({ where: { subscriptionId: subscription.id } })).toBe(2);
      expect(
        (await db().checkoutSession.findUniqueOrThrow({ where: { id: renewal.checkoutSessionId } })).status,
      ).toBe("EXPIRED");
    },
  );

  it.each([
    ["a cancelled subscription", "subscription_cancelled", 409],
    ["another organization's", "resource_missing", 404],
    ["an unknown id", "resource_missing", 404],
  ])("cancelling %s is refused (%s) and changes nothing", async (what, code, status) => {
    const { organization, subscription } = await subscribe();
    const other = await createTestOrganization();
    if (what === "a cancelled subscription")
      await cancelSubscription(db(), organization.id, { id: subscription.id, atPeriodEnd: false });
    const before = await subscriptionOf(subscription.id);
    const orgId = what === "another organization's" ? other.organization.id : organization.id;
    const id = what === "an unknown id" ? "sub_unknown" : subscription.id;
    await expect(cancelSubscription(db(), orgId, { id, atPeriodEnd: false })).rejects.toMatchObject({
      status,
      code,
    });
    expect(await subscriptionOf(subscription.id)).toEqual(before);
  });

  it("month-end anchors keep their day: Jan 31 -> Feb 28 -> Mar 31", async () => {
    const { subscription } = await subscribe();
    const anchor = new Date("2027-01-31T10:00:00Z");
    await db().subscription.update({
      where: { id: subscription.id },
      data: {
        anchor,
        currentPeriodStart: anchor,
        currentPeriodEnd: new Date("2027-02-28T10:00:00Z"),
        nextActionAt: new Date("2027-02-27T10:00:00Z"),
      },
    });
    await processDueSubscriptions(db(), new Date("2027-02-27T10:00:00Z"));
    const february = await renewalOf(subscription.id, 1);
    expect(february.periodStart?.toISOString()).toBe("2027-02-28T10:00:00.000Z");
    expect(february.periodEnd?.toISOString()).toBe("2027-03-31T10:00:00.000Z");
    await pay(february.depositAddress, "12.5", new Date("2027-02-27T12:00:00Z"));
    const renewed = await subscriptionOf(subscription.id);
    expect(renewed.currentPeriodStart.toISOString()).toBe("2027-02-28T10:00:00.000Z");
    expect(renewed.currentPeriodEnd.toISOString()).toBe("2027-03-31T10:00:00.000Z");
    await processDueSubscriptions(db(), new Date("2027-03-30T10:00:00Z"));
    const march = await renewalOf(subscription.id, 2);
    expect(march.periodEnd?.toISOString()).toBe("2027-04-30T10:00:00.000Z");
  });
});

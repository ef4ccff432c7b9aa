import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestSubscription } from "@/scripts/test-support/subscription-fixtures";
import { getDashboardOverview } from "./get-dashboard-overview";

const now = new Date("2026-11-20T12:00:00Z");

async function invoice(
  organizationId: string,
  input: {
    amount: string;
    currency: string;
    amountUsd?: string;
    status: "CONFIRMED" | "AWAITING_PAYMENT";
    confirmedAt?: Date;
  },
) {
  const created = await createTestInvoice(organizationId, input);
  if (input.confirmedAt) {
    await db().event.create({
      data: {
        id: newId("event"),
        organizationId,
        type: "payment.confirmed",
        invoiceId: created.id,
        payload: {},
        createdAt: input.confirmedAt,
      },
    });
  }
}

describe("getDashboardOverview", () => {
  it("sums confirmed volume per day in the invoices' quoted USD, counts by status, and sees only its organization", async () => {
    const { organization } = await createTestOrganization();
    const other = await createTestOrganization();
    const today = new Date("2026-11-20T09:00:00Z");
    const yesterday = new Date("2026-11-19T23:59:00Z");
    await invoice(organization.id, {
      amount: "10.50",
      currency: "USD",
      status: "CONFIRMED",
      confirmedAt: today,
    });
    await invoice(organization.id, {
      amount: "100",
      currency: "EUR",
      // Whatever EUR/USD is now, the invoice was quoted at 1.08.
      amountUsd: "108.00",
      status: "CONFIRMED",
      confirmedAt: today,
    });
    await invoice(organization.id, {
      amount: "0.10",
      currency: "USD",
      status: "CONFIRMED",
      confirmedAt: yesterday,
    });
    await invoice(organization.id, { amount: "5", currency: "USD", status: "AWAITING_PAYMENT" });
    // Older than the window, and another organization's: neither counts.
    await invoice(organization.id, {
      amount: "999",
      currency: "USD",
      status: "CONFIRMED",
      confirmedAt: new Date("2026-09-01T00:00:00Z"),
    });
    await invoice(other.organization.id, {
      amount: "77",
      currency: "USD",
      status: "CONFIRMED",
      confirmedAt: today,
    });

    const overview = await getDashboardOverview(db(), organization.id, now);
    expect(overview.series).toHaveLength(30);
    expect(overview.series.at(-1)).toEqual({ date: "2026-11-20", volumeUsd: "118.50", invoices: 2 });
    expect(overview.series.at(-2)).toEqual({ date: "2026-11-19", volumeUsd: "0.10", invoices: 1 });
    expect(overview.series[0]).toEqual({ date: "2026-10-22", volumeUsd: "0.00", invoices: 0 });
    expect(overview.volumeUsd).toBe("118.60");
    expect(overview.confirmedInvoices).toBe(3);
    expect(overview.invoices).toEqual({ CONFIRMED: 4, AWAITING_PAYMENT: 1 });
    expect(overview.sessions).toEqual({ COMPLETED: 5 });
    expect(overview.recent.map((event) => event.type)).toEqual(Array(4).fill("payment.confirmed"));
  });

  it("counts the organization's active and past-due subscriptions, not cancelled ones", async () => {
    const { organization } = await createTestOrganization();
    const other = await createTestOrganization();
    for (const status of ["ACTIVE", "ACTIVE", "PAST_DUE", "CANCELLED"] as const)
      await createTestSubscription(organization.id, { status });
    await createTestSubscription(other.organization.id);
    const overview = await getDashboardOverview(db(), organization.id, now);
    expect(overview.subscriptions).toEqual({ ACTIVE: 2, PAST_DUE: 1 });
  });

  it("is empty for a new organization", async () => {
    const { organization } = await createTestOrganization();
    const overview = await getDashboardOverview(db(), organization.id, now);
    expect(overview).toMatchObject({
      volumeUsd: "0.00",
      confirmedInvoices: 0,
      sessions: {},
      invoices: {},
      subscriptions: {},
      recent: [],
    });
  });
});

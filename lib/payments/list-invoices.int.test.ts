import { describe, expect, it } from "vitest";
import { listCheckoutSessions, sessionListQuery } from "@/lib/checkout/list-checkout-sessions";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { getInvoiceTimeline } from "./get-invoice-timeline";
import { invoiceListQuery, listInvoices } from "./list-invoices";

const paidOrder = (organizationId: string, merchantOrderId: string, status: "CONFIRMED" | "OVERDUE") =>
  createTestInvoice(organizationId, { amount: "12", status, merchantOrderId });

// Collected before the tables below, which name these rows.
const { organization } = await createTestOrganization();
const other = await createTestOrganization();
const confirmed = await paidOrder(organization.id, "order-1", "CONFIRMED");
const overdue = await paidOrder(organization.id, "order-2", "OVERDUE");
const foreign = await paidOrder(other.organization.id, "order-1", "CONFIRMED");
await db().checkoutSession.create({
  data: {
    id: newId("checkoutSession"),
    organizationId: organization.id,
    amount: "1",
    currency: "EUR",
    expiresAt: new Date(),
  },
});

describe("dashboard lists and the invoice timeline", () => {
  it.each([
    [{}, [overdue.id, confirmed.id]],
    [{ status: "CONFIRMED" }, [confirmed.id]],
    [{ q: "order-1" }, [confirmed.id]],
    [{ q: overdue.checkoutSessionId }, [overdue.id]],
    [{ q: confirmed.depositAddress.toUpperCase().replace("0X", "0x") }, [confirmed.id]],
    [{ q: foreign.id }, []],
    [{ network: "base" }, []],
    [{ rows: "1", page: "2" }, [confirmed.id]],
  ])("invoices filtered by %j", async (params, expected) => {
    const { invoices, total } = await listInvoices(db(), organization.id, invoiceListQuery.parse(params));
    expect(invoices.map((invoice) => invoice.id)).toEqual(expected);
    expect(total).toBe("rows" in params ? 2 : expected.length);
  });

  it.each([
    [{}, 3],
    [{ status: "OPEN" }, 1],
    [{ status: "COMPLETED" }, 2],
    [{ q: "order-2" }, 1],
    [{ q: confirmed.id }, 1],
    [{ q: foreign.checkoutSessionId }, 0],
  ])("sessions filtered by %j", async (params, expected) => {
    const { sessions, total } = await listCheckoutSessions(
      db(),
      organization.id,
      sessionListQuery.parse(params),
    );
    expect(sessions).toHaveLength(expected);
    expect(total).toBe(expected);
  });

  it.each([
    ["another organization's invoice", foreign.id],
    ["an unknown invoice", newId("invoice")],
    ["not an invoice id", "ycs_x"],
  ])("the timeline is a 404 for %s", async (_, id) => {
    await expect(getInvoiceTimeline(db(), organization.id, id)).rejects.toMatchObject({ status: 404 });
  });

  it("the timeline holds the invoice's payments and events", async () => {
    await db().event.create({
      data: {
        id: newId("event"),
        organizationId: organization.id,
        type: "invoice.created",
        invoiceId: confirmed.id,
        payload: {},
      },
    });
    const timeline = await getInvoiceTimeline(db(), organization.id, confirmed.id);
    expect(timeline.invoice.checkoutSession.merchantOrderId).toBe("order-1");
    expect(timeline.events.map((event) => event.type)).toEqual(["invoice.created"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { GET as retrieveSession } from "@/app/api/checkout-sessions/[id]/route";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { GET as listTransactions } from "@/app/api/private/transactions/route";
import { GET as publicPayment } from "@/app/api/public/payments/[id]/route";
import { POST as start } from "@/app/api/public/payments/route";
import { setDevnetPrice } from "@/lib/chains/devnet";
import type { NetworkConfig } from "@/lib/chains/networks";
import { getDashboardOverview } from "@/lib/dashboard/get-dashboard-overview";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { getInvoiceTimeline } from "./get-invoice-timeline";
import { markOverdueInvoices } from "./mark-overdue-invoices";
import { payInvoiceOnDevnet } from "./pay-invoice-on-devnet";
import { scanNetwork } from "./scan-network";

// One invoice has one amountUsd, rate and token amount, fixed at the quote, in every
// event, API response and dashboard view, whatever the price does afterwards and however it is paid.
const devnet = testDevnetForFile({ confirmations: 1 });
let network: NetworkConfig;

beforeAll(() => {
  network = devnet.network;
});

async function setEthPrice(usd: string) {
  const feed = network.priceFeeds?.find((candidate) => candidate.pair === "ETH/USD");
  await setDevnetPrice(devnet.rpcUrl, feed?.address ?? "", usd);
}

async function startInvoice(amount: string, currency: string, token: string) {
  const merchant = await createTestOrganization();
  const session = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `amounts-${Math.random()}-${Date.now()}` },
    body: { amount, currency },
  });
  const started = await callRoute(start, "/api/public/payments", {
    body: { checkoutSessionId: session.json.id, network: "devnet", token },
  });
  expect(started.status).toBe(201);
  return { ...merchant, sessionId: session.json.id as string, invoiceId: started.json.id as string };
}

const pay = (invoiceId: string, amount?: string) => payInvoiceOnDevnet(db(), invoiceId, { amount });
const watch = (now = new Date()) => scanNetwork(db(), network, devnet.client, { now });
const status = async (id: string) => (await db().invoice.findUniqueOrThrow({ where: { id } })).status;

/** Every place the invoice's amounts appear must show the numbers its invoice.created event showed. */
async function expectOneAmount(
  merchant: Awaited<ReturnType<typeof startInvoice>>,
  expected: { amount: string; currency: string; amountUsd: string; rate: string; tokenAmount: string },
  eventTypes: string[],
) {
  const events = await db().event.findMany({
    where: { invoiceId: merchant.invoiceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  expect(events.map((event) => event.type)).toEqual(eventTypes);
  for (const event of events) expect(event.payload).toMatchObject(expected);

  const listed = await callRoute(listTransactions, "/api/private/transactions", { headers: merchant.auth });
  expect(listed.json.data.data).toHaveLength(1);
  expect(listed.json.data.data[0]).toMatchObject({
    id: merchant.invoiceId,
    pricingAmount: expected.amount,
    pricingCurrency: expected.currency,
    amountUsd: expected.amountUsd,
    rate: expected.rate,
    amountDue: expected.tokenAmount,
  });

  const retrieved = await callRoute(retrieveSession, `/api/checkout-sessions/${merchant.sessionId}`, {
    headers: merchant.auth,
    params: { id: merchant.sessionId },
  });
  expect(retrieved.json.payment).toMatchObject({
    amountUsd: expected.amountUsd,
    rate: expected.rate,
    amountDue: expected.tokenAmount,
  });

  const buyer = await callRoute(publicPayment, "/x", { params: { id: merchant.invoiceId } });
  expect(buyer.json.amountDue).toBe(expected.tokenAmount);

  // The dashboard's invoice page and overview read the same frozen columns.
  const { invoice } = await getInvoiceTimeline(db(), merchant.organization.id, merchant.invoiceId);
  expect(invoice.amountUsd.toFixed(2)).toBe(expected.amountUsd);
  expect(invoice.amountDue.toFixed(expected.tokenAmount.split(".")[1].length)).toBe(expected.tokenAmount);
  const overview = await getDashboardOverview(db(), merchant.organization.id);
  expect(overview.volumeUsd).toBe(expected.amountUsd);
}

describe("one amount per invoice", () => {
  it("19.99 EUR in ETH: partial payment, overdue, the price moves, a late top-up; every event and view agrees", async () => {
    await setEthPrice("3000");
    const merchant = await startInvoice("19.99", "EUR", "ETH");
    const expected = {
      amount: "19.99",
      currency: "EUR",
      // 19.99 EUR at 1.08 USD is 21.5892 USD: one rounding, at the quote, for every event.
      amountUsd: "21.59",
      rate: "0.00036",
      tokenAmount: "0.007196400000000000",
    };

    await pay(merchant.invoiceId, "0.004");
    await watch();
    expect(await status(merchant.invoiceId)).toBe("PARTIALLY_PAID");

    await setEthPrice("3500");
    const { deadline } = await db().invoice.findUniqueOrThrow({ where: { id: merchant.invoiceId } });
    const late = new Date(deadline.getTime() + 60_000);
    await markOverdueInvoices(db(), late);
    expect(await status(merchant.invoiceId)).toBe("OVERDUE");

    // The rest of the locked amount, not a re-quote at the new price.
    const topUp = await pay(merchant.invoiceId);
    expect(topUp.amount).toBe("0.003196400000000000");
    await watch(late);
    expect(await status(merchant.invoiceId)).toBe("CONFIRMED");

    await expectOneAmount(merchant, expected, ["invoice.created", "invoice.overdue", "payment.confirmed"]);
    const confirmed = await db().event.findFirstOrThrow({
      where: { invoiceId: merchant.invoiceId, type: "payment.confirmed" },
    });
    // What was received is reported beside the quote, not in place of it.
    expect(confirmed.payload).toMatchObject({ amountPaid: "0.0071964", overpaid: "0", late: true });
  });

  it("10 EUR in USDC overpaid with 15: the overpayment is reported, the quoted amounts stay", async () => {
    const merchant = await startInvoice("10.00", "EUR", "USDC");
    await pay(merchant.invoiceId, "15");
    await watch();
    expect(await status(merchant.invoiceId)).toBe("CONFIRMED");
    await expectOneAmount(
      merchant,
      { amount: "10", currency: "EUR", amountUsd: "10.80", rate: "1.08", tokenAmount: "10.800000" },
      ["invoice.created", "payment.confirmed"],
    );
    const confirmed = await db().event.findFirstOrThrow({
      where: { invoiceId: merchant.invoiceId, type: "payment.confirmed" },
    });
    expect(confirmed.payload).toMatchObject({ amountPaid: "15", overpaid: "4.2", late: false });
  });
});

import { describe, expect, it } from "vitest";
import { devnetNetwork } from "@/lib/chains/devnet";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

const path = "/api/private/transactions";
// Token amounts are shown at the token's precision: USDC on the devnet has 6 decimals.
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  devnetNetwork({ rpcUrl: "http://127.0.0.1:8545", usdc: `0x${"5".repeat(40)}`, confirmations: 2 }),
]);

async function invoiceFor(
  organizationId: string,
  index: number,
  payments: { amount: string; txHash: string }[],
) {
  const session = await db().checkoutSession.create({
    data: {
      id: newId("checkoutSession"),
      organizationId,
      status: "COMPLETED",
      amount: "10",
      currency: "USD",
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return db().invoice.create({
    data: {
      id: newId("invoice"),
      organizationId,
      checkoutSessionId: session.id,
      network: "devnet",
      token: "USDC",
      depositAddress: `0x${index.toString(16).padStart(40, "0")}`,
      derivationIndex: index,
      amountDue: "10.000000",
      amountPaid: payments.reduce((sum, payment) => sum + Number(payment.amount), 0).toFixed(6),
      pricingAmount: "10",
      pricingCurrency: "USD",
      rate: "1",
      amountUsd: "10.00",
      quotedAt: new Date(),
      quoteSource: "test fixture",
      status: payments.length ? "CONFIRMING" : "AWAITING_PAYMENT",
      deadline: new Date(Date.now() + 3_600_000),
      createdAt: new Date(Date.now() + index),
      payments: {
        create: payments.map((payment, logIndex) => ({
          id: newId("payment"),
          organizationId,
          txHash: payment.txHash,
          logIndex,
          amount: payment.amount,
          blockNumber: 100n + BigInt(logIndex),
          blockHash: `0x${"ab".repeat(32)}`,
          confirmations: 1,
        })),
      },
    },
  });
}

describe("GET /api/private/transactions", () => {
  it("is an empty page until payments exist", async () => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(GET, path, { headers: auth });
    expect(response.json).toEqual({
      success: true,
      data: { object: "list", data: [], page: 1, rows: 20, total: 0, hasMore: false },
    });
  });

  it("lists the organization's invoices newest first with their payments, paged", async () => {
    const { auth, organization } = await createTestOrganization();
    const other = await createTestOrganization();
    await invoiceFor(organization.id, 1, []);
    await invoiceFor(organization.id, 2, [
      { amount: "4.000000", txHash: `0x${"01".repeat(32)}` },
      { amount: "6.000000", txHash: `0x${"02".repeat(32)}` },
    ]);
    await invoiceFor(other.organization.id, 3, []);
    const first = await callRoute(GET, `${path}?rows=1`, { headers: auth });
    expect(first.json.data).toMatchObject({ total: 2, hasMore: true, page: 1, rows: 1 });
    expect(first.json.data.data[0]).toMatchObject({
      object: "invoice",
      status: "CONFIRMING",
      amountDue: "10.000000",
      amountPaid: "10.000000",
      payments: [
        {
          object: "payment",
          amount: "4.000000",
          logIndex: 0,
          blockNumber: "100",
          status: "CONFIRMING",
          late: false,
        },
        { object: "payment", amount: "6.000000", logIndex: 1, blockNumber: "101" },
      ],
    });
    const second = await callRoute(GET, `${path}?rows=1&page=2`, { headers: auth });
    expect(second.json.data.data[0]).toMatchObject({ status: "AWAITING_PAYMENT", payments: [] });
    const bad = await callRoute(GET, `${path}?rows=500`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("rows");
  });
});

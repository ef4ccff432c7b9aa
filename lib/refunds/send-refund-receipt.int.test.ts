// The development mailbox stands in for SMTP: the email is read back from the database.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { devnetNetwork } from "@/lib/chains/devnet";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { sendRefundReceipt } from "./send-refund-receipt";

const buyer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const txHash = `0x${"ab".repeat(32)}`;

async function refund(status: "SUCCEEDED" | "SUBMITTED", claimEmail: string | null) {
  const { organization } = await createTestOrganization("Receipt Store");
  const invoice = await createTestInvoice(organization.id, { amount: "40", status: "CONFIRMED" });
  return db().refund.create({
    data: {
      id: newId("refund"),
      organizationId: organization.id,
      invoiceId: invoice.id,
      checkoutSessionId: invoice.checkoutSessionId,
      network: invoice.network,
      token: invoice.token,
      amount: "16.5",
      amountUsd: "16.5",
      status,
      destination: "CLAIM",
      toAddress: buyer,
      claimEmail,
      txHash,
      requestedByKind: "api_key",
      requestedByName: "Test key",
    },
  });
}

// An explorer naming its cluster in the query, as Solana Explorer's devnet does: the link keeps it.
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  {
    ...devnetNetwork({ rpcUrl: "http://127.0.0.1:8545", usdc: `0x${"5".repeat(40)}`, confirmations: 1 }),
    explorerUrl: "https://explorer.example?cluster=local",
  },
]);

const mailTo = (to: string) => db().devEmail.findMany({ where: { to } });

describe("the buyer's refund receipt", () => {
  it("is emailed once the claim refund succeeded, with the amount and the transaction", async () => {
    const email = `buyer-${newId("refund").toLowerCase()}@example.com`;
    await sendRefundReceipt(db(), await refund("SUCCEEDED", email));
    const sent = await mailTo(email);
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toContain("16.5");
    expect(sent[0].text).toContain(`Transaction: https://explorer.example/tx/${txHash}?cluster=local`);
    expect(sent[0].text).toContain(`on Local devnet, to ${buyer}.`);
  });

  it.each([
    ["a refund not yet succeeded", "SUBMITTED" as const, true],
    ["a refund without a buyer email", "SUCCEEDED" as const, false],
  ])("is not sent for %s", async (_case, status, withEmail) => {
    const email = `buyer-${newId("refund").toLowerCase()}@example.com`;
    await sendRefundReceipt(db(), await refund(status, withEmail ? email : null));
    expect(await mailTo(email)).toHaveLength(0);
  });
});

// Receipts are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it, vi } from "vitest";
import { assertEmailSendAllowed } from "@/lib/auth/limit-email-sends";
import { db } from "@/lib/db/client";
import { transactWithEvents } from "@/lib/events/transact-with-events";
import { newId } from "@/lib/ids";
import { deliverOutboundEmails } from "@/lib/outbox/deliver-outbound-emails";
import { updateInvoiceFromPayments } from "@/lib/payments/update-invoice-from-payments";
import { finishRefund } from "@/lib/refunds/refund-transactions";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { getPublicReceipt } from "./get-public-receipt";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** A session with the buyer's email whose invoice a confirmed transfer pays, confirmed as the watcher does. */
async function paidInvoice(
  options: {
    receiptEmails?: boolean;
    locale?: string;
    /** Runs before the payment confirms. */
    before?: (sent: { organizationId: string; to: string }) => Promise<void>;
  } = {},
) {
  const { organization } = await createTestOrganization("Receipt <Store>");
  await db().organization.update({
    where: { id: organization.id },
    data: {
      receiptEmails: options.receiptEmails ?? true,
      legalName: "Receipt Store GmbH",
      legalAddress: "Hauptstr. 1\n10115 Berlin",
      taxId: "DE123456789",
      supportEmail: "help@store.example",
    },
  });
  const invoice = await createTestInvoice(organization.id, { amount: "25", status: "AWAITING_PAYMENT" });
  const to = `buyer-${newId("invoice").toLowerCase()}@example.com`;
  await db().checkoutSession.update({
    where: { id: invoice.checkoutSessionId },
    data: { customerEmail: to, locale: options.locale ?? "de" },
  });
  await options.before?.({ organizationId: organization.id, to });
  const txHash = `0x${newId("payment").slice(4).padEnd(64, "a").toLowerCase()}`;
  await db().payment.create({
    data: {
      id: newId("payment"),
      organizationId: organization.id,
      invoiceId: invoice.id,
      txHash,
      logIndex: 0,
      amount: "25",
      blockNumber: 1n,
      blockHash: `0x${"b".repeat(64)}`,
      confirmations: 5,
      status: "CONFIRMED",
      fromAddress: payer,
    },
  });
  await transactWithEvents(db(), (tx) => updateInvoiceFromPayments(tx, invoice.id, new Date()));
  return { organization, invoice, to, txHash };
}

const inbox = (to: string) => db().devEmail.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

describe("buyers' receipt emails (through the outbox)", () => {
  it("are written with the confirmation and sent once, in the buyer's language, with a link that opens the receipt", async () => {
    const { invoice, to, txHash } = await paidInvoice();
    await vi.waitFor(async () => expect(await inbox(to)).toHaveLength(1), { timeout: 10_000 });
    // Another pass of the task sends nothing twice.
    await deliverOutboundEmails(db(), { now: new Date(Date.now() + 60 * 60_000) });
    const [mail] = await inbox(to);
    expect(await inbox(to)).toHaveLength(1);
    expect(mail.subject).toBe("Ihr Beleg von Receipt <Store>");
    expect(mail.text).toContain("Receipt Store GmbH\nHauptstr. 1");
    expect(mail.text).toContain("USt-IdNr.: DE123456789");
    expect(mail.text).toContain(txHash);
    expect(mail.text).toContain("help@store.example");
    expect(mail.html).toContain("Receipt &lt;Store&gt;");
    expect(mail.html).not.toContain("<Store>");
    const link = /\/receipt\/(\S+)/.exec(mail.text)?.[1] as string;
    const receipt = await getPublicReceipt(db(), link);
    expect(receipt).toMatchObject({ invoiceId: invoice.id, amount: "25", token: "USDC", refunds: [] });
  });

  /** Sends (counts) emails until the budget answers 429. */
  async function spend(input: () => { email: string; organizationId?: string }) {
    for (let sent = 0; sent < 1000; sent++) {
      try {
        await assertEmailSendAllowed(input());
      } catch (error) {
        expect(error).toMatchObject({ status: 429 });
        return;
      }
    }
    throw new Error("the email budget was never spent");
  }

  it.each<[string, (sent: { organizationId: string; to: string }) => Promise<void>]>([
    ["the buyer's address", ({ to }) => spend(() => ({ email: to }))],
    [
      "the organization",
      ({ organizationId }) =>
        spend(() => ({ email: `other-${newId("invoice")}@example.com`, organizationId })),
    ],
  ])(
    "are skipped when %s has spent its email budget; the payment confirms all the same",
    async (_who, before) => {
      const { invoice, to } = await paidInvoice({ before });
      expect(await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toMatchObject({
        status: "CONFIRMED",
      });
      expect(await db().outboundEmail.count({ where: { aboutId: invoice.id } })).toBe(0);
      expect(await inbox(to)).toEqual([]);
    },
  );

  it("are not sent when the organization turned them off", async () => {
    const { invoice, to } = await paidInvoice({ receiptEmails: false });
    expect(await db().outboundEmail.count({ where: { aboutId: invoice.id } })).toBe(0);
    expect(await inbox(to)).toEqual([]);
  });

  it("follow a refund that succeeded, which the receipt page then lists", async () => {
    const { organization, invoice, to } = await paidInvoice({ locale: "fr" });
    await vi.waitFor(async () => expect(await inbox(to)).toHaveLength(1), { timeout: 10_000 });
    const refund = await db().refund.create({
      data: {
        id: newId("refund"),
        organizationId: organization.id,
        invoiceId: invoice.id,
        checkoutSessionId: invoice.checkoutSessionId,
        network: invoice.network,
        token: invoice.token,
        amount: "10",
        amountUsd: "10",
        status: "SUBMITTED",
        destination: "PAYER",
        toAddress: payer,
        requestedByKind: "api_key",
        requestedByName: "Test key",
      },
    });
    const refundHash = `0x${"c".repeat(64)}`;
    await finishRefund({ database: db(), now: new Date() }, refund, { event: "confirm", txHash: refundHash });
    await vi.waitFor(async () => expect(await inbox(to)).toHaveLength(2), { timeout: 10_000 });
    const mail = (await inbox(to))[1];
    expect(mail.subject).toBe("Votre remboursement de Receipt <Store>");
    expect(mail.text).toContain(refundHash);
    const link = /\/receipt\/(\S+)/.exec(mail.text)?.[1] as string;
    expect((await getPublicReceipt(db(), link)).refunds).toHaveLength(1);
    expect((await getPublicReceipt(db(), link)).refundedTotal).toBe("10");
  });

  it.each([
    ["an empty token", ""],
    ["a bare invoice id", "inv_000000000000000000000000"],
    ["a forged MAC", `inv_000000000000000000000000.${"A".repeat(43)}`],
    ["a huge token", "x".repeat(100_000)],
    ["a path", "../../etc/passwd"],
  ])("open nothing for %s: the same 404", async (_case, token) => {
    await expect(getPublicReceipt(db(), token)).rejects.toMatchObject({ status: 404 });
  });
});

import { db } from "../../lib/db/client";
import { newId, randomBase62 } from "../../lib/ids";
import { createTestInvoice } from "./fixtures";

/**
 * An invoice paid by `payments` as the watcher records them (each with its sender, as
 * Payment.fromAddress), without a devnet: for refund tests of the API, MCP and the kit.
 */
export async function createTestPaidInvoice(
  organizationId: string,
  input: {
    amount: string;
    payments: { amount: string; fromAddress: string | null; status?: "CONFIRMING" | "CONFIRMED" }[];
    customerEmail?: string;
    amountUsd?: string;
  },
) {
  const confirmed = input.payments.every((payment) => (payment.status ?? "CONFIRMED") === "CONFIRMED");
  const invoice = await createTestInvoice(organizationId, {
    amount: input.amount,
    amountUsd: input.amountUsd,
    status: confirmed ? "CONFIRMED" : "CONFIRMING",
  });
  if (input.customerEmail) {
    await db().checkoutSession.update({
      where: { id: invoice.checkoutSessionId },
      data: { customerEmail: input.customerEmail },
    });
  }
  await db().payment.createMany({
    data: input.payments.map((payment, logIndex) => ({
      id: newId("payment"),
      organizationId,
      invoiceId: invoice.id,
      txHash: `0x${randomBase62(32).toLowerCase().padEnd(64, "0")}`,
      logIndex,
      amount: payment.amount,
      blockNumber: 1n,
      blockHash: `0x${"1".repeat(64)}`,
      confirmations: 1,
      status: payment.status ?? "CONFIRMED",
      fromAddress: payment.fromAddress,
    })),
  });
  return invoice;
}

import { db } from "../../lib/db/client";
import type { Prisma } from "../../lib/generated/prisma/client";
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

/**
 * A refund of `invoice` as the service records one: to the payer, asked by an API key, its USD
 * amount its token amount (a USD stablecoin at rate 1) unless given; `fields` set the rest.
 */
export function createTestRefund(
  invoice: { id: string; organizationId: string; checkoutSessionId: string; network: string; token: string },
  fields: Partial<Prisma.RefundUncheckedCreateInput> &
    Pick<Prisma.RefundUncheckedCreateInput, "amount" | "status">,
) {
  const { id: invoiceId, organizationId, checkoutSessionId, network, token } = invoice;
  return db().refund.create({
    data: {
      ...{ id: newId("refund"), invoiceId, organizationId, checkoutSessionId, network, token },
      ...{
        amountUsd: fields.amount,
        destination: "PAYER",
        requestedByKind: "api_key",
        requestedByName: "test",
      },
      ...fields,
    },
  });
}

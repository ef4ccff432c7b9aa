import { chainFamilyOf } from "../config";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { Money } from "../money/decimal";
import { payerOf, type RefundRequest, refundableOf } from "./insert-refund";
import { countedRefundStatuses } from "./refund-state";

/**
 * What a refund asked now would send, without creating it: for a confirmation the user reads
 * first (lib/mcp/tools/refunds.ts). The payer is resolved here, so an unknown payer is refused
 * before anyone is asked; the amount and the cap are decided again when the refund is created.
 */
export async function previewRefund(database: Db, organizationId: string, request: RefundRequest) {
  const invoice = await database.invoice.findFirst({
    where: { id: request.invoiceId, organizationId },
    include: {
      payments: { where: { status: "CONFIRMED" } },
      refunds: { where: { status: { in: [...countedRefundStatuses] } } },
    },
  });
  if (!invoice) throw notFound("invoice", "invoiceId");
  const organization = await database.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { refundAgentDailyCapUsd: true },
  });
  const { left } = refundableOf(invoice);
  return {
    network: invoice.network,
    token: invoice.token,
    amount: request.amount ?? Money.max(left, 0).toFixed(),
    left: Money.max(left, 0).toFixed(),
    agentDailyCapUsd: organization.refundAgentDailyCapUsd.toFixed(2),
    toAddress:
      request.destination === "payer"
        ? payerOf(invoice.payments, chainFamilyOf(invoice.network).addresses)
        : request.destination === "claim"
          ? null
          : request.destination,
  };
}

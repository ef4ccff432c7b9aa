import { config } from "../config";
import type { Tx } from "../db/client";
import { ServiceError } from "../errors";
import { log } from "../log";
import { Money } from "../money/decimal";
import { insertRefund } from "./insert-refund";

/**
 * When the organization refunds overpayments on its own (Organization.autoRefundOverpayments),
 * gives the overpaid part of a just-confirmed invoice back to its payer, in the transaction that
 * confirms it. An invoice whose payer is unknown or not one address keeps its overpayment (the
 * merchant can refund it through a claim link); that is logged, never an error. So does an
 * overpayment worth less than SERVICE_AUTO_REFUND_MIN_USD at the invoice's locked rate: its own
 * transfer's gas would eat much of it, so the merchant decides (a refund from the dashboard or API).
 * Whether the payer is a contract is the signer's to read on chain (lib/refunds/advance-refunds.ts),
 * not this transaction's: it holds the invoice's row and waits for no node.
 */
export async function refundOverpayment(
  tx: Tx,
  invoice: { id: string; organizationId: string },
  overpaid: string,
  now: Date,
) {
  if (!new Money(overpaid).gt(0)) return null;
  const { autoRefundOverpayments } = await tx.organization.findUniqueOrThrow({
    where: { id: invoice.organizationId },
    select: { autoRefundOverpayments: true },
  });
  if (!autoRefundOverpayments) return null;
  const { amountUsd, amountDue } = await tx.invoice.findUniqueOrThrow({
    where: { id: invoice.id },
    select: { amountUsd: true, amountDue: true },
  });
  const overpaidUsd = new Money(overpaid).mul(amountUsd.toString()).div(amountDue.toString());
  if (overpaidUsd.lt(config().autoRefundMinUsd)) {
    log.info(
      { invoiceId: invoice.id, overpaidUsd: overpaidUsd.toFixed(6) },
      "overpayment below SERVICE_AUTO_REFUND_MIN_USD: left to the merchant",
    );
    return null;
  }
  try {
    return await insertRefund(
      tx,
      invoice.organizationId,
      {
        invoiceId: invoice.id,
        amount: overpaid,
        destination: "payer",
        reason: "Overpayment returned automatically",
      },
      { kind: "automatic", name: "Automatic overpayment refund", decision: "allow" },
      now,
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    log.warn({ invoiceId: invoice.id, code: error.code }, "overpayment not refunded automatically");
    return null;
  }
}

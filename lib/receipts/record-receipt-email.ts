import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { config } from "../config";
import type { Tx } from "../db/client";
import { log } from "../log";
import { recordOutboundEmails } from "../outbox/record-outbound-emails";
import { recipientEmailField } from "../validation/fields";
import { composeReceiptEmail } from "./compose-receipt-email";
import { readReceipt } from "./read-receipt";

/** What the email is for: the payment's confirmation, or a refund of it that succeeded. */
export type ReceiptCause = { kind: "payment" } | { kind: "refund"; refundId: string; amount: string };

/**
 * Writes the buyer's receipt into the outbox inside the transaction that confirmed the payment
 * or the refund, so it is sent once that commits and never lost (lib/outbox/); once per payment
 * and per refund (its dedupe key). Nothing when the session has no valid buyer email, when the
 * organization turned receipt emails off (`force` keeps a claim refund's promised email), when
 * the address's or the organization's email budget is spent, or when no server key can sign the
 * receipt's link.
 */
export async function recordReceiptEmail(
  tx: Tx,
  invoiceId: string,
  cause: ReceiptCause,
  now: Date,
  options: { force?: boolean; to?: string | null } = {},
) {
  if (!config().secretKey) {
    log.warn({ invoiceId }, "no receipt emailed: SERVICE_SECRET_KEY is not set");
    return;
  }
  const invoice = await tx.invoice.findUniqueOrThrow({
    where: { id: invoiceId },
    select: { organizationId: true, organization: { select: { receiptEmails: true } } },
  });
  if (!invoice.organization.receiptEmails && !options.force) return;
  const receipt = await readReceipt(tx, invoiceId);
  if (!receipt) return;
  const to = recipientEmailField.safeParse(options.to ?? receipt.customerEmail);
  if (!to.success) return;
  // A merchant chooses buyers' addresses and sends as many cent payments and refunds as it likes:
  // each receipt spends the address's and the organization's email budgets, as every email the
  // service sends for a caller does. Past them (or with the limit store down) the receipt is
  // skipped and logged, never thrown: this runs in the transaction that confirms the payment.
  try {
    await assertEmailSendAllowed({ email: to.data, organizationId: invoice.organizationId });
  } catch (error) {
    log.warn({ invoiceId, err: error }, "no receipt emailed: the email budget is spent");
    return;
  }
  await recordOutboundEmails(
    tx,
    [
      {
        organizationId: invoice.organizationId,
        kind: cause.kind === "payment" ? "payment_receipt" : "refund_receipt",
        aboutId: cause.kind === "payment" ? invoiceId : cause.refundId,
        dedupeKey:
          cause.kind === "payment" ? `payment_receipt:${invoiceId}` : `refund_receipt:${cause.refundId}`,
        to: to.data,
        ...composeReceiptEmail(receipt, cause),
      },
    ],
    now,
  );
}

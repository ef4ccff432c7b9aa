import { formatDateTime, formatDecimal } from "../i18n/format";
import type { Receipt } from "./read-receipt";

/** A translator of the catalogs' keys (next-intl's, on the page and in the email alike). */
export type Translate = (key: string, values?: Record<string, string>) => string;

/** One line of a receipt: its label, its value and, for a transaction, its explorer page. */
export type ReceiptLine = { label: string; value: string; url: string | null };

/** The lines of a receipt, in the buyer's language: the email and the page show the same. */
export function receiptLines(receipt: Receipt, t: Translate): ReceiptLine[] {
  const { locale, merchant } = receipt;
  const line = (label: string, value: string, url: string | null = null) => ({ label, value, url });
  const amount = (value: string) => `${formatDecimal(locale, value)} ${receipt.token}`;
  const legal = [merchant.legalName, merchant.address].filter(Boolean).join("\n");
  return [
    line(t("checkout.receipt.paidTo"), merchant.name),
    ...(legal ? [line(t("receipt.merchant"), legal)] : []),
    ...(merchant.taxId ? [line(t("receipt.taxId"), merchant.taxId)] : []),
    line(t("receipt.receiptNumber"), receipt.invoiceId),
    ...(receipt.merchantOrderId ? [line(t("checkout.receipt.orderId"), receipt.merchantOrderId)] : []),
    line(t("checkout.receipt.date"), formatDateTime(locale, receipt.paidAt)),
    line(t("checkout.receipt.amount"), amount(receipt.amount)),
    line(t("receipt.price"), `${formatDecimal(locale, receipt.price)} ${receipt.currency}`),
    line(
      t("receipt.rate"),
      t("receipt.rateValue", {
        currency: receipt.currency,
        rate: formatDecimal(locale, receipt.rate),
        token: receipt.token,
      }),
    ),
    line(t("checkout.receipt.network"), receipt.networkName),
    ...receipt.transactions.map((transaction) =>
      line(t("checkout.receipt.transactions"), transaction.hash, transaction.url),
    ),
    ...receipt.refunds.map((refund) =>
      line(
        t("receipt.refunds"),
        [`${amount(refund.amount)} · ${formatDateTime(locale, refund.at)}`, refund.transaction?.hash]
          .filter(Boolean)
          .join("\n"),
        refund.transaction?.url ?? null,
      ),
    ),
    ...(receipt.refunds.length > 0 ? [line(t("receipt.refundedTotal"), amount(receipt.refundedTotal))] : []),
  ];
}

import { config, explorerLink, networkName } from "../config";
import type { Db, Tx } from "../db/client";
import { isLocale, type Locale } from "../i18n/locales";
import { formatDecimal, Money } from "../money/decimal";
import { logoPath, publicBrandSelect } from "../organizations/serialize-organization";
import { receiptUrlFor } from "./receipt-token";

/** A transaction on a receipt: its hash and, where the network has an explorer, its page there. */
export type ReceiptTransaction = { hash: string; url: string | null };

/**
 * What a buyer's receipt says, by email and on its page: the merchant as its receipts name it,
 * what was paid and how, and the refunds that succeeded. Nothing that moves money (no claim link,
 * no refund destination) and nothing else of the merchant's.
 */
export type Receipt = {
  invoiceId: string;
  locale: Locale;
  customerEmail: string | null;
  url: string;
  merchant: {
    name: string;
    logoUrl: string | null;
    brandColor: string | null;
    legalName: string | null;
    address: string | null;
    taxId: string | null;
    supportEmail: string | null;
  };
  merchantOrderId: string | null;
  /** When the payment was confirmed, ISO 8601. */
  paidAt: string;
  amount: string;
  token: string;
  networkName: string;
  price: string;
  currency: string;
  /** Token units per unit of currency, the locked quote. */
  rate: string;
  transactions: ReceiptTransaction[];
  refunds: { amount: string; at: string; transaction: ReceiptTransaction | null }[];
  refundedTotal: string;
};

const transactionOf = (network: string, hash: string): ReceiptTransaction => ({
  hash,
  url: explorerLink(network, "tx", hash),
});

/**
 * The receipt of a confirmed invoice, or null when it has none (not confirmed, unknown). The
 * caller has the invoice's id from a receipt token or from the transaction confirming it.
 */
export async function readReceipt(database: Db | Tx, invoiceId: string): Promise<Receipt | null> {
  const invoice = await database.invoice.findUnique({
    where: { id: invoiceId },
    include: {
      checkoutSession: { select: { customerEmail: true, locale: true, merchantOrderId: true } },
      payments: { where: { status: { not: "REORGED" } }, orderBy: { createdAt: "asc" } },
      refunds: { where: { status: "SUCCEEDED" }, orderBy: { confirmedAt: "asc" } },
      organization: {
        select: {
          ...publicBrandSelect,
          legalName: true,
          legalAddress: true,
          taxId: true,
          supportEmail: true,
        },
      },
    },
  });
  if (!invoice?.confirmedAt) return null;
  const { organization, checkoutSession: session } = invoice;
  const refunded = invoice.refunds.reduce(
    (total, refund) => total.plus(refund.amount.toString()),
    new Money(0),
  );
  return {
    invoiceId: invoice.id,
    locale: isLocale(session.locale ?? undefined) ? (session.locale as Locale) : "en",
    customerEmail: session.customerEmail,
    url: receiptUrlFor(invoice.id),
    merchant: {
      name: organization.brandDisplayName ?? organization.name,
      logoUrl: organization.brandLogo ? `${config().baseUrl}${logoPath(organization.brandLogo.id)}` : null,
      brandColor: organization.brandColor,
      legalName: organization.legalName,
      address: organization.legalAddress,
      taxId: organization.taxId,
      supportEmail: organization.supportEmail,
    },
    merchantOrderId: session.merchantOrderId,
    paidAt: invoice.confirmedAt.toISOString(),
    amount: formatDecimal(invoice.amountPaid),
    token: invoice.token,
    networkName: networkName(invoice.network),
    price: formatDecimal(invoice.pricingAmount),
    currency: invoice.pricingCurrency,
    rate: formatDecimal(invoice.rate),
    transactions: [...new Set(invoice.payments.map((payment) => payment.txHash))].map((hash) =>
      transactionOf(invoice.network, hash),
    ),
    refunds: invoice.refunds.map((refund) => ({
      amount: formatDecimal(refund.amount),
      at: (refund.confirmedAt ?? refund.updatedAt).toISOString(),
      transaction: refund.txHash ? transactionOf(refund.network, refund.txHash) : null,
    })),
    refundedTotal: formatDecimal(refunded),
  };
}

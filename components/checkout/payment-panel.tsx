"use client";

import { type AbstractIntlMessages, NextIntlClientProvider, useLocale, useTranslations } from "next-intl";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { BrowserWallet } from "./browser-wallet";
import { Countdown } from "./countdown";
import { ExplorerLink } from "./explorer-link";
import { formatDecimal, shorten } from "./format";
import { ManualPayment } from "./manual-payment";
import { QueryProvider } from "./query-provider";
import { Receipt } from "./receipt";
import { SolanaWallet } from "./solana-wallet";
import { usePayment } from "./use-payment";

// Loaded once the buyer has chosen how to pay (checkout-payment.tsx), with all it needs: the
// translations runtime, the polling, the QR code, the wallet buttons and the receipt.

/** The page's language and messages, which the first load does without (no provider there). */
export type PanelIntl = { locale: string; timeZone: string; messages: AbstractIntlMessages };

type PaymentPanelProps = {
  paymentId: string;
  initial: PublicPayment | null;
  /** Networks whose test wallet (a devnet account of its own) the page offers. */
  testWalletNetworks: string[];
  successUrl: string | null;
  merchantName: string;
  merchantOrderId: string | null;
};

export function PaymentPanel({ intl, ...props }: PaymentPanelProps & { intl: PanelIntl }) {
  return (
    <NextIntlClientProvider {...intl}>
      <QueryProvider>
        <PaymentView {...props} />
      </QueryProvider>
    </NextIntlClientProvider>
  );
}

function PaymentView(props: PaymentPanelProps) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const { request, testWallet, refresh } = usePayment({
    ...props,
    messages: { loadFailed: t("startFailed"), testWalletFailed: t("testWallet.failed") },
  });
  if (!request) return null;

  const payable = request.status === "AWAITING_PAYMENT" || request.status === "PARTIALLY_PAID";
  const onDevnet = props.testWalletNetworks.includes(request.network);
  const confirmations = request.payments.reduce(
    (least, item) => Math.min(least, item.confirmations),
    Number.POSITIVE_INFINITY,
  );
  // Added by the quote work (the rate is held until then); absent on older responses.
  const quoteExpiresAt = (request as { quoteExpiresAt?: string | null }).quoteExpiresAt;
  return (
    <section aria-labelledby="payment-status" className="flex flex-col gap-5">
      <p
        id="payment-status"
        role="status"
        className="rounded-md bg-slate-100 px-3 py-2 text-sm font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-100"
      >
        {t(`status.${request.status}`)}
        {request.status === "CONFIRMING" && request.requiredConfirmations && Number.isFinite(confirmations)
          ? t("confirmations", {
              count: Math.min(confirmations, request.requiredConfirmations),
              required: request.requiredConfirmations,
            })
          : ""}
      </p>
      {/* Any non-zero digit: amounts are compared as text, never as floats. */}
      {/[1-9]/.test(request.overpaid) ? (
        <p data-testid="overpaid" className="text-sm text-slate-700 dark:text-slate-200">
          {t("overpaid", { amount: formatDecimal(locale, request.overpaid), token: request.token })}
        </p>
      ) : null}
      {request.status === "CONFIRMED" && !props.successUrl ? (
        <Receipt
          request={request}
          merchantName={props.merchantName}
          merchantOrderId={props.merchantOrderId}
        />
      ) : null}
      {request.status === "CONFIRMING" ? (
        <ul data-testid="transactions" className="flex flex-col gap-1 text-xs">
          {request.payments.map((payment) => (
            <li key={payment.txHash} className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono" title={payment.txHash}>
                {shorten(payment.txHash)}
              </span>
              <ExplorerLink explorerUrl={request.explorerUrl} kind="tx" value={payment.txHash}>
                {t("explorerTx", { hash: shorten(payment.txHash) })}
              </ExplorerLink>
            </li>
          ))}
        </ul>
      ) : null}
      {payable ? (
        <>
          {quoteExpiresAt ? (
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {t.rich("rateLocked", { time: () => <Countdown until={quoteExpiresAt} /> })}
            </p>
          ) : null}
          <BrowserWallet request={request} onSent={refresh} />
          <SolanaWallet request={request} onSent={refresh} />
          <ManualPayment request={request} />
          {onDevnet ? (
            <div className="flex flex-col gap-2 border-t border-slate-200 pt-4 dark:border-slate-700">
              <button
                type="button"
                disabled={testWallet.isPending}
                onClick={() => testWallet.mutate(request.id)}
                aria-describedby="test-wallet-note"
                className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
              >
                {testWallet.isPending ? t("testWallet.paying") : t("testWallet.pay")}
              </button>
              <p id="test-wallet-note" className="text-xs text-slate-600 dark:text-slate-300">
                {t("testWallet.note", { amount: request.remaining, token: request.token })}
              </p>
              {testWallet.error ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                  {testWallet.error.message}
                </p>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

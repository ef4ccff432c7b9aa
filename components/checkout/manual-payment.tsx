"use client";

import { useLocale, useTranslations } from "next-intl";
import { QRCodeSVG } from "qrcode.react";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { CopyButton } from "./copy-button";
import { Countdown } from "./countdown";
import { ExplorerLink } from "./explorer-link";
import { formatDecimal } from "./format";

/** Paying by hand: the QR code, the exact amount and address to copy, and a wallet-app link. */
export function ManualPayment({ request }: { request: PublicPayment }) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const uri = request.paymentUri;
  const amount = (value: string) => `${formatDecimal(locale, value)} ${request.token}`;
  return (
    <div className="flex flex-col gap-4">
      {/* Phones: the wallet app registered for the link's scheme (ethereum:, solana:) opens with the same request as the QR. */}
      <a
        href={uri}
        className="rounded-lg border border-slate-300 px-4 py-2.5 text-center text-sm font-semibold hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:hidden dark:border-slate-600 dark:hover:bg-slate-800"
      >
        {t("openInWallet")}
      </a>
      <div className="flex flex-col items-center gap-2">
        <div className="rounded-lg bg-white p-2">
          <QRCodeSVG value={uri} size={176} aria-label={t("qrLabel")} role="img" />
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          {t.rich("timeLeft", { time: () => <Countdown until={request.deadline} /> })}
        </p>
      </div>
      <dl className="flex flex-col gap-3 text-sm">
        <div>
          <dt className="text-slate-600 dark:text-slate-300">{t("sendExactly")}</dt>
          <dd className="flex items-center justify-between gap-2 font-mono text-base font-semibold">
            <span data-testid="amount-to-send">{amount(request.remaining)}</span>
            <CopyButton
              value={request.remaining}
              label={t("copyAmount")}
              copyText={t("copy")}
              copiedText={t("copied")}
            />
          </dd>
          <dd className="mt-1 text-xs text-slate-600 dark:text-slate-300">{t("feeHint")}</dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-300">
            {t("toAddress", { network: request.networkName })}
          </dt>
          <dd className="flex items-center justify-between gap-2">
            <span data-testid="deposit-address" className="break-all font-mono text-xs">
              {request.depositAddress}
            </span>
            <CopyButton
              value={request.depositAddress}
              label={t("copyAddress")}
              copyText={t("copy")}
              copiedText={t("copied")}
            />
          </dd>
          <dd className="mt-1">
            <ExplorerLink explorerUrl={request.explorerUrl} kind="address" value={request.depositAddress}>
              {t("explorerAddress")}
            </ExplorerLink>
          </dd>
        </div>
        {request.status === "PARTIALLY_PAID" ? (
          <p className="text-slate-600 dark:text-slate-300">
            {t("received", {
              paid: formatDecimal(locale, request.amountPaid),
              due: formatDecimal(locale, request.amountDue),
              token: request.token,
            })}
          </p>
        ) : null}
      </dl>
    </div>
  );
}

"use client";

import { useLocale, useTranslations } from "next-intl";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { ExplorerLink } from "./explorer-link";
import { formatDateTime, formatDecimal, shorten } from "./format";
import { PrintButton } from "./print-button";

/** What the buyer keeps after a confirmed payment; printing leaves out the page around it. */
export function Receipt(props: {
  request: PublicPayment;
  merchantName: string;
  merchantOrderId: string | null;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const { request } = props;
  const paidAt = request.payments.at(-1)?.detectedAt;
  const row = "flex justify-between gap-4 py-1.5";
  return (
    <section aria-labelledby="receipt-heading" data-testid="receipt" className="flex flex-col gap-3">
      <h2 id="receipt-heading" className="text-lg font-semibold">
        {t("receipt.heading")}
      </h2>
      <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
        <div className={row}>
          <dt className="text-slate-600 dark:text-slate-300">{t("receipt.paidTo")}</dt>
          <dd className="font-medium">{props.merchantName}</dd>
        </div>
        {props.merchantOrderId ? (
          <div className={row}>
            <dt className="text-slate-600 dark:text-slate-300">{t("receipt.orderId")}</dt>
            <dd className="font-mono">{props.merchantOrderId}</dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-slate-600 dark:text-slate-300">{t("receipt.amount")}</dt>
          <dd className="font-mono font-semibold" data-testid="receipt-amount">
            {formatDecimal(locale, request.amountPaid)} {request.token}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600 dark:text-slate-300">{t("receipt.network")}</dt>
          <dd>{request.networkName}</dd>
        </div>
        {paidAt ? (
          <div className={row}>
            <dt className="text-slate-600 dark:text-slate-300">{t("receipt.date")}</dt>
            <dd>{formatDateTime(locale, paidAt)}</dd>
          </div>
        ) : null}
        <div className="py-1.5">
          <dt className="text-slate-600 dark:text-slate-300">{t("receipt.transactions")}</dt>
          {request.payments.map((payment) => (
            <dd key={payment.txHash} className="flex flex-wrap justify-between gap-2 font-mono text-xs">
              <span className="break-all" title={payment.txHash}>
                {shorten(payment.txHash)}
              </span>
              <span>
                {formatDecimal(locale, payment.amount)} {request.token}
              </span>
              <ExplorerLink explorerUrl={request.explorerUrl} kind="tx" value={payment.txHash}>
                {t("explorerTx", { hash: shorten(payment.txHash) })}
              </ExplorerLink>
            </dd>
          ))}
        </div>
      </dl>
      <PrintButton label={t("receipt.print")} />
    </section>
  );
}

import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { ExplorerLink } from "@/components/checkout/explorer-link";
import { formatDateTime, formatDecimal, shorten } from "@/components/checkout/format";
import { HostedPage, hostedBoxClass } from "@/components/checkout/hosted-page";
import { RefundClaimForm } from "@/components/checkout/refund-claim-form";
import { chainFamilyOf } from "@/lib/config";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/http/or-not-found";
import { getPublicRefundClaim } from "@/lib/refunds/get-public-refund-claim";
import { claimRefundAction, sendClaimCodeAction } from "./actions";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("refund");
  return { title: t("title"), robots: { index: false } };
}

export default async function RefundClaimPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const claim = await orNotFound(getPublicRefundClaim(db(), token));
  const locale = await getLocale();
  const t = await getTranslations("refund");
  const network = claim.networkName;
  const merchant = claim.merchantName;
  // The hint, placeholder and format error speak of the addresses of the refund's chain family.
  const format = `addressFormats.${chainFamilyOf(claim.network).id}` as const;
  const row = "flex flex-wrap justify-between gap-x-4 gap-y-1 py-1.5";

  return (
    <HostedPage
      locale={locale}
      languageLabel={(await getTranslations("checkout"))("language")}
      brand={claim}
      summary={
        <>
          <p className="text-3xl font-bold tracking-tight" data-testid="refund-amount">
            {formatDecimal(locale, claim.amount)} {claim.token}
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="refund-network">
            {t("onNetwork", { network })}
          </p>
        </>
      }
    >
      <div className={hostedBoxClass}>
        {claim.status === "open" ? (
          <div className="flex flex-col gap-4">
            <p className="text-slate-700 dark:text-slate-200">{t("intro", { merchant })}</p>
            <RefundClaimForm
              token={token}
              action={claimRefundAction}
              sendCode={claim.codeRequired ? sendClaimCodeAction : undefined}
              texts={{
                addressLabel: t("addressLabel", { network }),
                addressHint: t(`${format}.hint`, { network, token: claim.token }),
                addressPlaceholder: t(`${format}.placeholder`),
                confirmLabel: t("confirmLabel"),
                submit: t("submit"),
                submitting: t("submitting"),
                code: {
                  label: t("codeLabel"),
                  hint: t("codeHint", { email: claim.emailHint ?? "" }),
                  send: t("sendCode"),
                  sending: t("sendingCode"),
                  sent: t("codeSent", { email: claim.emailHint ?? "" }),
                },
                errors: {
                  addressMissing: t("errors.addressMissing"),
                  confirmMissing: t("errors.confirmMissing"),
                  addressInvalid: t(`${format}.invalid`),
                  addressChecksum: t("errors.addressChecksum"),
                  notWallet: t("errors.notWallet"),
                  serviceWallet: t("errors.serviceWallet"),
                  mismatch: t("errors.mismatch"),
                  used: t("errors.used"),
                  expired: t("errors.expired"),
                  closed: t("errors.closed"),
                  rateLimited: t("errors.rateLimited"),
                  codeMissing: t("errors.codeMissing"),
                  codeInvalid: t("errors.codeInvalid"),
                  codeExpired: t("errors.codeExpired"),
                  locked: t("errors.locked"),
                  failed: t("errors.failed"),
                },
              }}
            />
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {t("validUntil", { date: formatDateTime(locale, claim.expiresAt) })}
            </p>
          </div>
        ) : (
          <section className="flex flex-col gap-3" aria-labelledby="refund-status">
            <p id="refund-status" role="status" className="font-medium" data-testid="refund-status">
              {t(`status.${claim.status}`, { merchant })}
            </p>
            {claim.toAddress || claim.txHash ? (
              <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
                {claim.toAddress ? (
                  <div className={row}>
                    <dt className="text-slate-600 dark:text-slate-300">{t("sentTo")}</dt>
                    <dd className="break-all font-mono text-xs" data-testid="refund-to">
                      {claim.toAddress}
                    </dd>
                  </div>
                ) : null}
                {claim.txHash ? (
                  <div className={row}>
                    <dt className="text-slate-600 dark:text-slate-300">{t("transaction")}</dt>
                    <dd className="flex flex-col items-end gap-1 font-mono text-xs" data-testid="refund-tx">
                      <span className="break-all" title={claim.txHash}>
                        {shorten(claim.txHash)}
                      </span>
                      <ExplorerLink explorerUrl={claim.explorerUrl} kind="tx" value={claim.txHash}>
                        {t("explorerTx", { hash: shorten(claim.txHash) })}
                      </ExplorerLink>
                    </dd>
                  </div>
                ) : null}
              </dl>
            ) : null}
          </section>
        )}
        {claim.emailHint &&
        (claim.status === "open" || claim.status === "pending" || claim.status === "in_review") ? (
          <p className="mt-4 text-sm text-slate-700 dark:text-slate-200">
            {t("emailHint", { email: claim.emailHint })}
          </p>
        ) : null}
      </div>
    </HostedPage>
  );
}

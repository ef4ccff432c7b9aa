import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { formatDecimal } from "@/components/checkout/format";
import { HostedPage, hostedBoxClass } from "@/components/checkout/hosted-page";
import { PrintButton } from "@/components/checkout/print-button";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/http/or-not-found";
import { isLocale } from "@/lib/i18n/locales";
import { getPublicReceipt } from "@/lib/receipts/get-public-receipt";
import { receiptLines, type Translate } from "@/lib/receipts/receipt-lines";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("checkout");
  // The link is the key to the receipt: no index, and no Referer carrying it to an explorer.
  return { title: t("receipt.heading"), robots: { index: false }, referrer: "no-referrer" };
}

/** A buyer's receipt by its link, without signing in: the email's facts and the refunds so far. */
export default async function ReceiptPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const stored = await orNotFound(getPublicReceipt(db(), token));
  const negotiated = await getLocale();
  // The page speaks the visitor's language (the switcher, Accept-Language), not the session's.
  const locale = isLocale(negotiated) ? negotiated : stored.locale;
  const receipt = { ...stored, locale };
  const t = (await getTranslations()) as unknown as Translate;
  const brand = {
    merchantName: receipt.merchant.name,
    logoUrl: receipt.merchant.logoUrl,
    brandColor: receipt.merchant.brandColor,
  };

  return (
    <HostedPage
      locale={locale}
      languageLabel={t("checkout.language")}
      brand={brand}
      summary={
        <p className="text-3xl font-bold tracking-tight" data-testid="receipt-amount">
          {formatDecimal(locale, receipt.amount)} {receipt.token}
        </p>
      }
    >
      <section aria-labelledby="receipt-heading" data-testid="receipt" className={hostedBoxClass}>
        <h2 id="receipt-heading" className="mb-3 text-lg font-semibold">
          {t("checkout.receipt.heading")}
        </h2>
        <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
          {receiptLines(receipt, t).map(({ label, value, url }, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed for one render; labels repeat.
            <div key={index} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-1.5">
              <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
              <dd className="max-w-full break-all whitespace-pre-line text-right font-medium">
                {url ? (
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="underline underline-offset-2"
                  >
                    {value}
                  </a>
                ) : (
                  value
                )}
              </dd>
            </div>
          ))}
        </dl>
        {receipt.merchant.supportEmail ? (
          <p className="mt-4 text-sm text-slate-700 dark:text-slate-200">
            {t("receipt.support", { email: receipt.merchant.supportEmail })}
          </p>
        ) : null}
      </section>
      <PrintButton label={t("receipt.print")} />
    </HostedPage>
  );
}

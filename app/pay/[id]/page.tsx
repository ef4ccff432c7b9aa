import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getMessages, getTimeZone, getTranslations } from "next-intl/server";
import { CheckoutPayment } from "@/components/checkout/checkout-payment";
import { formatDecimal } from "@/components/checkout/format";
import { HostedPage, hostedBoxClass } from "@/components/checkout/hosted-page";
import { getPublicCheckoutSession } from "@/lib/checkout/get-public-checkout-session";
import { serializePublicCheckoutSession } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { paymentOptions } from "@/lib/payments/payment-options";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("checkout");
  return { title: t("title"), robots: { index: false } };
}

async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) notFound();
    throw error;
  }
}

export default async function CheckoutPage({ params }: { params: Promise<{ id: string }> }) {
  // A paylink's address (a UUID) never gets here: next.config.ts sends it to ./start.
  const { id } = await params;
  const record = await orNotFound(getPublicCheckoutSession(db(), id));
  const session = serializePublicCheckoutSession(record);
  const invoice = await db().invoice.findUnique({
    where: { checkoutSessionId: record.id },
    select: { id: true, periodIndex: true, periodStart: true, periodEnd: true },
  });
  const locale = await getLocale();
  const t = await getTranslations("checkout");
  // The token picker's texts are translated here: the first load carries no translations runtime;
  // the payment's panel, loaded after the choice, gets the messages (components/checkout).
  const options = paymentOptions().map((option) => ({
    ...option,
    onNetwork: t("onNetwork", { network: option.networkName }),
  }));
  const intl = { locale, timeZone: await getTimeZone(), messages: await getMessages() };
  // Periods are counted from an anchor in UTC, so their dates are shown in UTC too.
  const periodDate = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });

  return (
    <HostedPage
      locale={locale}
      languageLabel={t("language")}
      brand={session}
      summary={
        <>
          {/* Where an agent pays this page with x402, as the response's Link header says too
              (lib/http/payment-link.ts); React hoists a <link> into <head> wherever it renders. */}
          <link rel="payment" href={session.x402Url} />
          <p className="text-3xl font-bold tracking-tight" data-testid="price">
            {formatDecimal(locale, session.amount)} {session.currency}
          </p>
          {session.description ? (
            <p className="text-slate-700 dark:text-slate-200">{session.description}</p>
          ) : null}
          {invoice?.periodIndex && invoice.periodStart && invoice.periodEnd ? (
            <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="recurring">
              {t("renewalPeriod", {
                start: periodDate.format(invoice.periodStart),
                end: periodDate.format(invoice.periodEnd),
              })}
            </p>
          ) : session.recurring ? (
            <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="recurring">
              {t("recurringThen", {
                price: `${formatDecimal(locale, session.amount)} ${session.currency}`,
                count: session.recurring.intervalCount,
                interval: session.recurring.interval,
              })}
            </p>
          ) : null}
        </>
      }
    >
      <div className={hostedBoxClass}>
        {session.status === "EXPIRED" ? (
          <p role="status" className="text-sm font-medium">
            {t("expired")}
          </p>
        ) : session.status === "COMPLETED" && !invoice ? (
          <p role="status">{t("complete")}</p>
        ) : (
          <CheckoutPayment
            checkoutSessionId={session.id}
            options={options}
            texts={{ payWith: t("payWith"), unavailable: t("unavailable"), startFailed: t("startFailed") }}
            intl={intl}
            paymentId={invoice?.id ?? null}
            successUrl={session.successUrl}
            merchantName={session.merchantName}
            merchantOrderId={session.merchantOrderId}
          />
        )}
      </div>
      {session.cancelUrl && session.status !== "COMPLETED" ? (
        <a
          href={session.cancelUrl}
          className="text-center text-sm text-slate-600 underline-offset-2 hover:underline print:hidden dark:text-slate-300"
        >
          {t("cancel")}
        </a>
      ) : null}
    </HostedPage>
  );
}

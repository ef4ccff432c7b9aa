import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getMessages, getTimeZone, getTranslations } from "next-intl/server";
import type { CSSProperties } from "react";
import { CheckoutPayment } from "@/components/checkout/checkout-payment";
import { formatDecimal } from "@/components/checkout/format";
import { LocaleSwitcher } from "@/components/checkout/locale-switcher";
import { getPublicCheckoutSession } from "@/lib/checkout/get-public-checkout-session";
import { serializePublicCheckoutSession } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { localeCookie, locales } from "@/lib/i18n/locales";
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

/** The merchant's color replaces the theme's brand shades on this page (checked for contrast on save). */
function brandStyle(color: string | null): CSSProperties | undefined {
  if (!color) return undefined;
  return {
    "--color-brand-500": color,
    "--color-brand-600": color,
    "--color-brand-700": `color-mix(in srgb, ${color} 80%, black)`,
  } as CSSProperties;
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
    <div
      lang={locale}
      style={brandStyle(session.brandColor)}
      className="min-h-screen bg-slate-50 text-slate-900 [color-scheme:light] dark:bg-slate-950 dark:text-slate-100 dark:[color-scheme:dark] print:bg-white"
    >
      {/* The merchant's color as a band across the top: the brand is visible before any button is. */}
      <div aria-hidden="true" data-testid="brand-bar" className="h-1.5 bg-brand-600 print:hidden" />
      <main className="mx-auto flex max-w-md flex-col gap-6 px-5 py-10">
        <header className="flex flex-col gap-3">
          <div className="flex items-center justify-between gap-3">
            <div className="flex items-center gap-3">
              {session.logoUrl ? (
                // biome-ignore lint/performance/noImgElement: a small logo from our own origin; nothing to optimise.
                <img
                  src={session.logoUrl}
                  alt=""
                  data-testid="merchant-logo"
                  className="size-10 rounded-md object-contain"
                />
              ) : null}
              <h1 className="text-sm font-medium text-slate-600 dark:text-slate-300">
                {session.merchantName}
              </h1>
            </div>
            <LocaleSwitcher locale={locale} label={t("language")} locales={locales} cookie={localeCookie} />
          </div>
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
        </header>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900 print:border-0 print:shadow-none">
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
      </main>
    </div>
  );
}

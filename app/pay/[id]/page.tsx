import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckoutPayment } from "@/components/checkout/checkout-payment";
import { QueryProvider } from "@/components/checkout/query-provider";
import { getPublicCheckoutSession } from "@/lib/checkout/get-public-checkout-session";
import { serializePublicCheckoutSession } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { paymentOptions } from "@/lib/payments/payment-options";
import { describeInterval } from "@/lib/subscriptions/serialize-recurring";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Checkout", robots: { index: false } };

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
  const day = (date: Date) => date.toISOString().slice(0, 10);

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-6 px-5 py-10">
      <header className="flex flex-col gap-1">
        <p className="text-sm font-medium text-slate-500">{session.merchantName}</p>
        <h1 className="text-3xl font-bold tracking-tight" data-testid="price">
          {session.amount} {session.currency}
        </h1>
        {session.description ? <p className="text-slate-600">{session.description}</p> : null}
        {invoice?.periodIndex && invoice.periodStart && invoice.periodEnd ? (
          <p className="text-sm text-slate-600" data-testid="recurring">
            Subscription renewal for {day(invoice.periodStart)} to {day(invoice.periodEnd)}
          </p>
        ) : session.recurring ? (
          <p className="text-sm text-slate-600" data-testid="recurring">
            Today, then {session.amount} {session.currency}{" "}
            {describeInterval(session.recurring.interval, session.recurring.intervalCount)}: we email you each
            renewal to pay
          </p>
        ) : null}
      </header>
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {session.status === "EXPIRED" ? (
          <p role="status" className="text-sm font-medium text-slate-800">
            This checkout has expired. Return to the store to start again.
          </p>
        ) : session.status === "COMPLETED" && !invoice ? (
          <p role="status">This checkout is complete.</p>
        ) : (
          <QueryProvider>
            <CheckoutPayment
              checkoutSessionId={session.id}
              options={paymentOptions()}
              paymentId={invoice?.id ?? null}
              successUrl={session.successUrl}
            />
          </QueryProvider>
        )}
      </div>
      {session.cancelUrl && session.status !== "COMPLETED" ? (
        <a
          href={session.cancelUrl}
          className="text-center text-sm text-slate-600 underline-offset-2 hover:underline"
        >
          Cancel and return to the store
        </a>
      ) : null}
    </main>
  );
}

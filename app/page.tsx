import { CodeBlock } from "@/components/code-block";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const { serviceName, baseUrl } = config();
  const createSession = `curl ${baseUrl}/api/checkout-sessions \\
  -H "Authorization: Bearer $SERVICE_API_KEY" \\
  -H "Idempotency-Key: order-1042-attempt-1" \\
  -H "Content-Type: application/json" \\
  -d '{"amount": "49.00", "currency": "USD", "merchantOrderId": "1042"}'`;

  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-10 px-6 py-16">
      <header className="flex flex-col gap-4">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">{serviceName}</p>
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
          Accept crypto payments with one API call.
        </h1>
        <p className="text-lg text-slate-600">
          Create a hosted Checkout Session, send your buyer to it, and fulfil the order when the signed{" "}
          <code className="rounded bg-slate-200 px-1.5 py-0.5 font-mono text-base">payment.confirmed</code>{" "}
          webhook arrives. Stablecoins and native coins, self-hostable, with an agent kit that takes you from
          nothing to a verified paid order.
        </p>
      </header>

      <section aria-labelledby="quick-start" className="flex flex-col gap-4">
        <h2 id="quick-start" className="text-xl font-semibold">
          Create your first checkout session
        </h2>
        <CodeBlock label="Terminal">{createSession}</CodeBlock>
        <p className="text-sm text-slate-600">
          The response carries a <code className="font-mono">url</code>: redirect your buyer there. Check
          service health at{" "}
          <a className="font-medium text-brand-600 underline-offset-2 hover:underline" href="/api/health">
            /api/health
          </a>
          .
        </p>
      </section>
    </main>
  );
}

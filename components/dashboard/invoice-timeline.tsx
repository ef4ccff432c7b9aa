import Link from "next/link";
import type { ReactNode } from "react";
import { formatDateTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { chainFamilyOf, config, networkName } from "@/lib/config";
import { formatTokenAmount } from "@/lib/money/format-token-amount";
import type { getInvoiceTimeline } from "@/lib/payments/get-invoice-timeline";
import { ExplorerValue } from "./explorer-value";

type Timeline = Awaited<ReturnType<typeof getInvoiceTimeline>>;
type Entry = { at: Date; key: string; title: ReactNode; body?: ReactNode };

/** Everything that happened to an invoice, oldest first: creation, transfers, events and their deliveries. */
export function InvoiceTimeline({ invoice, events }: Timeline) {
  const tokens = (value: { toString(): string }) =>
    `${formatTokenAmount(invoice.network, invoice.token, value)} ${invoice.token}`;
  const required = config().networks.find((network) => network.id === invoice.network)?.confirmations;
  const family = chainFamilyOf(invoice.network);
  const position = family.positionName === "slot" ? "Slot" : "Block";
  const entries: Entry[] = [
    {
      at: invoice.createdAt,
      key: invoice.id,
      title: "Invoice created",
      body: `${tokens(invoice.amountDue)} due on ${networkName(invoice.network)} by ${formatDateTime(invoice.deadline)}`,
    },
    ...invoice.payments.map((payment) => ({
      at: payment.createdAt,
      key: payment.id,
      title: (
        <span className="flex flex-wrap items-center gap-2">
          Transfer of {tokens(payment.amount)} <StatusBadge status={payment.status} />
          {payment.late ? <StatusBadge status="LATE" /> : null}
        </span>
      ),
      body: (
        <span className="flex flex-col gap-0.5">
          <ExplorerValue network={invoice.network} kind="tx" value={payment.txHash} />
          {/* A mint (EVM's zero address as the payer) has no payer to show. */}
          {payment.fromAddress && !family.addresses.isBurn(payment.fromAddress) ? (
            <span className="flex flex-wrap items-center gap-1">
              From{" "}
              <ExplorerValue network={invoice.network} kind="address" value={payment.fromAddress} short />
            </span>
          ) : null}
          <span>
            {position} {payment.blockNumber.toString()} · {payment.confirmations}
            {required ? ` of ${required}` : ""} confirmations
          </span>
        </span>
      ),
    })),
    ...events.map((event) => ({
      at: event.createdAt,
      key: event.id,
      title: (
        <span>
          Event <code className="font-mono text-xs">{event.type}</code> sent
        </span>
      ),
      body:
        event.deliveries.length === 0 ? (
          "No webhook endpoint was enabled."
        ) : (
          <ul className="mt-1 flex flex-col gap-1">
            {event.deliveries.map((delivery) => (
              <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                <StatusBadge status={delivery.status} />
                <Link
                  className="font-medium text-brand-600 hover:underline"
                  href={`/dashboard/webhooks/${delivery.endpoint.id}`}
                >
                  {delivery.endpoint.name}
                </Link>
                <span className="text-slate-500">
                  {delivery.attemptCount} {delivery.attemptCount === 1 ? "attempt" : "attempts"}
                </span>
              </li>
            ))}
          </ul>
        ),
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());

  return (
    <ol className="relative flex flex-col gap-5 px-5 py-5">
      {entries.map((entry) => (
        <li key={entry.key} className="relative flex gap-4">
          <span
            aria-hidden
            className="mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-brand-500 ring-4 ring-brand-50"
          />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium text-slate-900">{entry.title}</p>
            <p className="text-xs text-slate-500">{formatDateTime(entry.at)}</p>
            {entry.body ? <div className="mt-1 text-sm text-slate-600">{entry.body}</div> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

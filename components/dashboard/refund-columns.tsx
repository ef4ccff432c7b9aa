import Link from "next/link";
import { ExplorerLink } from "@/components/checkout/explorer-link";
import { shorten } from "@/components/checkout/format";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { TokenAmount } from "@/components/ui/token-amount";
import { config, networkName } from "@/lib/config";
import type { Refund } from "@/lib/generated/prisma/client";
import { formatDecimal } from "@/lib/money/decimal";

/** The network's block explorer base (https, no trailing slash), when it has one. */
export function explorerUrlOf(network: string): string | null {
  return config().networks.find((candidate) => candidate.id === network)?.explorerUrl ?? null;
}

const destinationLabel = { PAYER: "Payer", CLAIM: "Claim link", ADDRESS: "Address" } as const;

const link = "font-mono text-xs font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600";

/** The refund's amount with its token: "16.5 USDC". */
export function refundAmount(refund: Refund): string {
  return `${formatDecimal(refund.amount)} ${refund.token}`;
}

/** Where the refund goes: its kind, and the address once known, with an explorer link. */
export function RefundDestination({ refund }: { refund: Refund }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span>{destinationLabel[refund.destination]}</span>
      {refund.toAddress ? (
        <span className="break-all font-mono text-xs text-slate-700" title={refund.toAddress}>
          {refund.toAddress}
        </span>
      ) : (
        <span className="text-xs text-slate-600">Waiting for the buyer's address</span>
      )}
      {refund.toAddress ? (
        <ExplorerLink explorerUrl={explorerUrlOf(refund.network)} kind="address" value={refund.toAddress}>
          View address on the explorer
        </ExplorerLink>
      ) : null}
    </div>
  );
}

/** The transfer's hash, linked to the network's explorer when it has one. */
export function RefundTransaction({ refund }: { refund: Refund }) {
  if (!refund.txHash) return <span className="text-slate-600">—</span>;
  const explorerUrl = explorerUrlOf(refund.network);
  return explorerUrl ? (
    <ExplorerLink explorerUrl={explorerUrl} kind="tx" value={refund.txHash}>
      {shorten(refund.txHash)}
    </ExplorerLink>
  ) : (
    <span className="font-mono text-xs" title={refund.txHash}>
      {shorten(refund.txHash)}
    </span>
  );
}

/** Columns of a refunds table (the Refunds page, an invoice's refunds). */
export function refundColumns(options: { withInvoice: boolean }): Column<Refund>[] {
  return [
    {
      header: "Refund",
      cell: (refund) => (
        <Link className={link} href={`/dashboard/refunds/${refund.id}`}>
          {refund.id}
        </Link>
      ),
    },
    {
      header: "Status",
      cell: (refund) => (
        <div className="flex flex-col gap-1">
          <StatusBadge status={refund.status} />
          {refund.failureReason || refund.pendingReason ? (
            <span className="max-w-xs text-xs text-slate-600">
              {refund.failureReason ?? refund.pendingReason}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      header: "Amount",
      numeric: true,
      cell: (refund) => <TokenAmount amount={refund.amount} symbol={refund.token} network={refund.network} />,
    },
    { header: "Network", cell: (refund) => networkName(refund.network) },
    { header: "Destination", cell: (refund) => <RefundDestination refund={refund} /> },
    { header: "Transaction", cell: (refund) => <RefundTransaction refund={refund} /> },
    ...(options.withInvoice
      ? [
          {
            header: "Invoice",
            cell: (refund: Refund) => (
              <Link className={link} href={`/dashboard/invoices/${refund.invoiceId}`}>
                {refund.invoiceId}
              </Link>
            ),
          },
        ]
      : []),
    { header: "Created", cell: (refund) => formatDateTime(refund.createdAt) },
  ];
}

import Link from "next/link";
import { ExplorerValue } from "@/components/dashboard/explorer-value";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { TokenAmount } from "@/components/ui/token-amount";
import { networkName } from "@/lib/config";
import type { Refund } from "@/lib/generated/prisma/client";
import { formatDecimal } from "@/lib/money/decimal";

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
        <ExplorerValue network={refund.network} kind="address" value={refund.toAddress} />
      ) : (
        <span className="text-xs text-slate-600">Waiting for the buyer's address</span>
      )}
    </div>
  );
}

/** The transfer's hash (EVM) or signature (Solana), linked to the network's explorer when it has one. */
export function RefundTransaction({ refund }: { refund: Refund }) {
  if (!refund.txHash) return <span className="text-slate-600">—</span>;
  return <ExplorerValue network={refund.network} kind="tx" value={refund.txHash} short />;
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

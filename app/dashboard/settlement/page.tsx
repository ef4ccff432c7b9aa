import type { Metadata } from "next";
import Link from "next/link";
import { PendingSettlementChanges } from "@/components/dashboard/pending-settlement-changes";
import { SignedTransactions } from "@/components/dashboard/sweep-transactions";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { type Column, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/status-badge";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { listOpenSettlementChanges } from "@/lib/settlement/list-settlement-changes";
import { getSettlementOverview } from "@/lib/sweeps/get-settlement-overview";
import { listSweeps, sweepListQuery } from "@/lib/sweeps/list-sweeps";
import { readPageQuery } from "@/lib/validation/read-page-query";
import { retrySweepAction } from "./actions";

export const metadata: Metadata = { title: "Settlement" };

type Row = Awaited<ReturnType<typeof listSweeps>>["sweeps"][number];

export default async function SettlementPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const isOwner = member.role === "OWNER";
  const query = readPageQuery(sweepListQuery, await searchParams);
  const networks = config().networks.map((network) => network.id);
  const [overview, { sweeps, total }, pending] = await Promise.all([
    getSettlementOverview(db(), member.organization.id, networks),
    listSweeps(db(), member.organization.id, query),
    listOpenSettlementChanges(db(), member.organization.id),
  ]);

  const columns: Column<Row>[] = [
    { header: "Created", cell: (sweep) => formatDateTime(sweep.createdAt) },
    {
      header: "Invoice",
      wide: true,
      cell: (sweep) => (
        <Link
          className="font-mono text-xs text-brand-600 hover:underline"
          href={`/dashboard/invoices/${sweep.invoiceId}`}
        >
          {sweep.invoiceId}
        </Link>
      ),
    },
    { header: "Amount", numeric: true, cell: (sweep) => `${sweep.amount.toString()} ${sweep.token}` },
    { header: "Network", wide: true, cell: (sweep) => sweep.network },
    {
      header: "Status",
      cell: (sweep) => (
        <div className="flex flex-col gap-1">
          <StatusBadge status={sweep.status} />
          {sweep.failureReason ? (
            <span className="max-w-xs text-xs text-slate-500">{sweep.failureReason}</span>
          ) : null}
        </div>
      ),
    },
    { header: "Transactions", wide: true, cell: (sweep) => <SignedTransactions sweep={sweep} /> },
    ...(isOwner
      ? [
          {
            header: "Actions",
            cell: (sweep: Row) =>
              sweep.status === "FAILED" ? (
                <ConfirmAction
                  action={retrySweepAction}
                  label="Retry"
                  question="The sweeper will sign this sweep's transactions again on its next pass."
                  confirmLabel="Yes, retry"
                  fields={{ sweepId: sweep.id }}
                />
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <>
      <PageHeader
        title="Settlement"
        description="Confirmed payments move from each invoice's deposit address to your settlement wallet for the network. Every movement is listed here."
      />
      <div className="flex flex-col gap-6">
        <Card
          title="Settlement wallets"
          description={
            <>
              Change them in{" "}
              <Link className="text-brand-600 hover:underline" href="/dashboard/settings">
                Settings
              </Link>
              .
            </>
          }
        >
          <ul className="divide-y divide-slate-100">
            {overview.wallets.map((wallet) => (
              <li key={wallet.network} className="flex flex-wrap justify-between gap-2 px-5 py-3 text-sm">
                <span className="font-medium text-slate-900">{wallet.network}</span>
                {wallet.address ? (
                  <code className="font-mono text-xs">{wallet.address}</code>
                ) : (
                  <span className="text-amber-700">
                    No settlement wallet: payments stay on their deposit addresses.
                  </span>
                )}
              </li>
            ))}
          </ul>
          {pending.length > 0 ? (
            <div className="border-t border-slate-100 p-5">
              <PendingSettlementChanges changes={pending} />
            </div>
          ) : null}
        </Card>
        <Card
          title="Gas wallets"
          description="The sweeper's wallets that pay the fees of token sweeps. Keep them funded."
        >
          {overview.gasWallets.length === 0 ? (
            <EmptyState title="No sweeper has reported yet">
              Run the sweeper (in-process with the mnemonic, or `npm run sweeper`) to move funds.
            </EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100">
              {overview.gasWallets.map((wallet) => (
                <li
                  key={wallet.network}
                  className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 text-sm"
                >
                  <span className="font-medium text-slate-900">{wallet.network}</span>
                  <code className="font-mono text-xs">{wallet.address}</code>
                  <span className={wallet.low ? "font-medium text-red-700" : "text-slate-600"}>
                    {wallet.balance}
                    {wallet.low ? ` — low: fund it above ${wallet.threshold}` : ""}
                  </span>
                  <span className="text-xs text-slate-400">
                    checked {formatDateTime(new Date(wallet.checkedAt))}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Sweeps">
          {sweeps.length === 0 ? (
            <EmptyState title="No sweeps yet">
              Confirmed payments are swept once they reach confirmation depth.
            </EmptyState>
          ) : (
            <>
              <DataTable<Row>
                caption="Sweeps, newest first"
                rows={sweeps}
                rowKey={(sweep) => sweep.id}
                columns={columns}
              />
              <Pagination
                page={query.page}
                rows={query.rows}
                total={total}
                query={{ status: query.status, network: query.network }}
              />
            </>
          )}
        </Card>
      </div>
    </>
  );
}

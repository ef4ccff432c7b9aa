import type { Metadata } from "next";
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import { ListCard } from "@/components/dashboard/list-card";
import { PendingSettlementChanges } from "@/components/dashboard/pending-settlement-changes";
import { SignedTransactions } from "@/components/dashboard/sweep-transactions";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { TokenAmount } from "@/components/ui/token-amount";
import { config, nativeCoinSymbol, networkName, sendingNetworks } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { getRefundWallets, type UnitAmount } from "@/lib/refunds/get-refund-wallets";
import { listOpenSettlementChanges } from "@/lib/settlement/list-settlement-changes";
import { getSettlementOverview } from "@/lib/sweeps/get-settlement-overview";
import { listReportedWallets } from "@/lib/sweeps/list-reported-wallets";
import { listSweeps, sweepListQuery } from "@/lib/sweeps/list-sweeps";
import { readPageQuery } from "@/lib/validation/read-page-query";
import { x402GasToday } from "@/lib/x402/x402-gas";
import { retrySweepAction } from "./actions";

/** Wallets the signer reported, one row per network, each ending with when it was last checked. */
function ReportedWallets<W extends { network: string; checkedAt: string | Date }>({
  wallets,
  layout,
  testId,
  children,
}: {
  wallets: W[];
  /** The row's flex layout. */
  layout: string;
  /** Each row's test id: this prefix and the network. */
  testId?: string;
  children: (wallet: W) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-100">
      {wallets.map((wallet) => (
        <li
          key={wallet.network}
          data-testid={testId ? `${testId}-${wallet.network}` : undefined}
          className={`${layout} gap-2 px-5 py-3 text-sm`}
        >
          {children(wallet)}
          <span className="text-xs text-slate-600">checked {formatDateTime(new Date(wallet.checkedAt))}</span>
        </li>
      ))}
    </ul>
  );
}

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
  // Where payments are swept: a network whose family does not send yet keeps them in its receiving wallet.
  const networks = sendingNetworks().map((network) => network.id);
  const [overview, { sweeps, total }, pending, refundWallets, x402Gas, facilitatorWallets] =
    await Promise.all([
      getSettlementOverview(db(), member.organization.id, networks),
      listSweeps(db(), member.organization.id, query),
      listOpenSettlementChanges(db(), member.organization.id),
      getRefundWallets(db(), member.organization.id),
      x402GasToday(db(), member.organization.id),
      listReportedWallets(db(), "facilitator"),
    ]);

  const columns: Column<Row>[] = [
    { header: "Created", cell: (sweep) => formatDateTime(sweep.createdAt) },
    {
      header: "Invoice",
      cell: (sweep) => (
        <Link
          className="font-mono text-xs text-brand-600 hover:underline"
          href={`/dashboard/invoices/${sweep.invoiceId}`}
        >
          {sweep.invoiceId}
        </Link>
      ),
    },
    {
      header: "Amount",
      numeric: true,
      cell: (sweep) => <TokenAmount amount={sweep.amount} symbol={sweep.token} network={sweep.network} />,
    },
    { header: "Network", cell: (sweep) => networkName(sweep.network) },
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
    { header: "Transactions", cell: (sweep) => <SignedTransactions sweep={sweep} /> },
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
              <Link
                className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600"
                href="/dashboard/settings"
              >
                Settings
              </Link>
              .
            </>
          }
        >
          <ul className="divide-y divide-slate-100">
            {overview.wallets.map((wallet) => (
              <li key={wallet.network} className="flex flex-wrap justify-between gap-2 px-5 py-3 text-sm">
                <span className="font-medium text-slate-900">{networkName(wallet.network)}</span>
                {wallet.address ? (
                  <code className="break-all font-mono text-xs">{wallet.address}</code>
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
            <ReportedWallets
              wallets={overview.gasWallets}
              layout="flex flex-wrap items-center justify-between"
            >
              {(wallet) => (
                <>
                  <span className="font-medium text-slate-900">{networkName(wallet.network)}</span>
                  <code className="break-all font-mono text-xs">{wallet.address}</code>
                  <span className={wallet.low ? "font-medium text-red-700" : "text-slate-600"}>
                    <TokenAmount
                      amount={wallet.balance}
                      symbol={nativeCoinSymbol(wallet.network)}
                      network={wallet.network}
                    />
                    {wallet.low ? (
                      <>
                        {" — low: fund it above "}
                        <TokenAmount
                          amount={wallet.threshold}
                          symbol={nativeCoinSymbol(wallet.network)}
                          network={wallet.network}
                        />
                      </>
                    ) : null}
                  </span>
                </>
              )}
            </ReportedWallets>
          )}
        </Card>
        <Card
          title="x402 gas"
          description={`Agents paying over x402 pay no gas: the service's facilitator wallet pays each settlement's. A network is offered only for prices of at least ${config().x402.gasMultiple} times its settlement gas.`}
        >
          <p className="px-5 py-3 text-sm text-slate-700" data-testid="x402-gas-budget">
            Today (UTC): ${x402Gas.spentUsd.toFixed(4)} of gas used, of a daily budget of $
            {x402Gas.budgetUsd.toFixed(2)}.{" "}
            {x402Gas.spentUsd.gte(x402Gas.budgetUsd)
              ? `Spent: your x402 links answer 429 x402_gas_budget_exhausted until ${formatDateTime(x402Gas.resetsAt)}; buyers can still pay on the hosted page.`
              : "Past it, your x402 links answer 429 x402_gas_budget_exhausted until midnight UTC."}
          </p>
          {facilitatorWallets.length > 0 ? (
            <ul className="divide-y divide-slate-100 border-t border-slate-100">
              {facilitatorWallets.map((wallet) => (
                <li
                  key={wallet.network}
                  className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 text-sm"
                >
                  <span className="font-medium text-slate-900">
                    {networkName(wallet.network)} facilitator
                  </span>
                  <code className="font-mono text-xs">{wallet.address}</code>
                  <span className={wallet.low ? "font-medium text-red-700" : "text-slate-600"}>
                    {wallet.balance} {nativeCoinSymbol(wallet.network)}
                    {wallet.low
                      ? ` — low: fund it above ${wallet.threshold} ${nativeCoinSymbol(wallet.network)}`
                      : ""}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
        <Card
          title="Refund wallets"
          description="Refunds are paid from these wallets of the signing role, one per network. Fund each with the tokens you refund (and, where it says so, the network's coin for fees); a refund waits while its wallet is short."
        >
          {refundWallets.length === 0 ? (
            <EmptyState title="No signer has reported yet">
              The refund wallets appear once the sweeper (which also signs refunds) has run.
            </EmptyState>
          ) : (
            <ReportedWallets wallets={refundWallets} layout="flex flex-col" testId="refund-wallet">
              {(wallet) => (
                <>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-slate-900">{networkName(wallet.network)}</span>
                    <span className="flex min-w-0 items-center gap-2">
                      <code className="break-all font-mono text-xs">{wallet.address}</code>
                      <CopyButton
                        value={wallet.address}
                        label={`Copy the ${networkName(wallet.network)} refund wallet's address`}
                      />
                    </span>
                  </div>
                  <dl className="flex flex-wrap gap-x-6 gap-y-1 text-slate-600">
                    <div className="flex gap-1.5">
                      <dt>Balance</dt>
                      <dd className="font-medium text-slate-900" data-testid="refund-wallet-balance">
                        <UnitAmounts amounts={wallet.balances} network={wallet.network} />
                      </dd>
                    </div>
                    <div className="flex gap-1.5">
                      <dt>Queued</dt>
                      <dd className="font-medium text-slate-900">
                        {wallet.queued.length === 0 ? (
                          "nothing"
                        ) : (
                          <UnitAmounts amounts={wallet.queued} network={wallet.network} />
                        )}
                      </dd>
                    </div>
                  </dl>
                  <p className="text-slate-600" data-testid="refund-wallet-fees">
                    {wallet.paysFees
                      ? `It pays its refunds' fees: keep some ${nativeCoinSymbol(wallet.network)} in it.`
                      : `It needs no ${nativeCoinSymbol(wallet.network)}: the service's fee payer (under Gas wallets) pays its refunds' fees, and the rent of a token account a refund to an address opens when that address has none. A refund to the payer goes only to a token account the payer still holds.`}
                  </p>
                  {wallet.low ? (
                    <p role="status" className="font-medium text-red-700">
                      Low: it holds less than the queued refunds need
                      {wallet.paysFees
                        ? `, or too little ${nativeCoinSymbol(wallet.network)} for their fees`
                        : ""}
                      . Fund it; they go out once it can pay.
                    </p>
                  ) : null}
                </>
              )}
            </ReportedWallets>
          )}
        </Card>
        <ListCard<Row>
          title="Sweeps"
          caption="Sweeps, newest first"
          rows={sweeps}
          rowKey={(sweep) => sweep.id}
          columns={columns}
          emptyTitle="No sweeps yet"
          empty="Confirmed payments are swept once they reach confirmation depth."
          paging={{
            page: query.page,
            rows: query.rows,
            total,
            query: { status: query.status, network: query.network },
          }}
        />
      </div>
    </>
  );
}

/** Amounts of several tokens on one network: "120.50 USDC, 0.5 ETH". */
function UnitAmounts({ amounts, network }: { amounts: UnitAmount[]; network: string }) {
  return amounts.map((amount, index) => (
    <Fragment key={amount.unit}>
      {index > 0 ? ", " : null}
      <TokenAmount amount={amount.amount} symbol={amount.unit} network={network} />
    </Fragment>
  ));
}

import { transactionUrl } from "@/lib/sweeps/get-settlement-overview";

/** A sweep's transactions, each linked to the network's explorer where one is known. */
export function SignedTransactions({
  sweep,
}: {
  sweep: {
    network: string;
    transactions: { id: string; hash: string; kind: string; replacedAt: Date | null }[];
  };
}) {
  return (
    <ul className="flex flex-col gap-0.5">
      {sweep.transactions.map((transaction) => {
        const url = transactionUrl(sweep.network, transaction.hash);
        const label = `${transaction.kind === "FUNDING" ? "Gas" : "Transfer"} ${transaction.hash.slice(0, 10)}…${transaction.replacedAt ? " (replaced)" : ""}`;
        return (
          <li key={transaction.id} className="font-mono text-xs" title={transaction.hash}>
            {url ? (
              <a className="text-brand-600 hover:underline" href={url} rel="noreferrer" target="_blank">
                {label}
              </a>
            ) : (
              label
            )}
          </li>
        );
      })}
    </ul>
  );
}

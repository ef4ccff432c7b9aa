import { ExplorerValue } from "@/components/dashboard/explorer-value";

/** A sweep's transactions, each linked to the network's explorer where it has one, and copyable. */
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
      {sweep.transactions.map((transaction) => (
        <li key={transaction.id} className="font-mono text-xs">
          <ExplorerValue
            network={sweep.network}
            kind="tx"
            value={transaction.hash}
            label={`${transaction.kind === "FUNDING" ? "Gas" : "Transfer"} ${transaction.hash.slice(0, 10)}…${transaction.replacedAt ? " (replaced)" : ""}`}
          />
        </li>
      ))}
    </ul>
  );
}

import type { Db } from "../db/client";
import { Money } from "../money/decimal";

export type ReportedWalletView = {
  network: string;
  address: string;
  balance: string;
  threshold: string;
  low: boolean;
  checkedAt: string;
};

/**
 * The signing role's wallets that pay gas, as it last reported them, per network: the sweeps' gas
 * wallets (lib/sweeps/report-gas-wallet.ts) or x402's facilitator wallets
 * (lib/x402/report-facilitator-wallets.ts); none before a signing role has run.
 */
export async function listReportedWallets(
  database: Db,
  kind: "gas" | "facilitator",
): Promise<ReportedWalletView[]> {
  const byNetwork = { orderBy: { network: "asc" } } as const;
  const rows =
    kind === "gas"
      ? await database.gasWallet.findMany(byNetwork)
      : await database.facilitatorWallet.findMany(byNetwork);
  return rows.map((row) => ({
    network: row.network,
    address: row.address,
    balance: new Money(row.balance.toFixed()).toFixed(),
    threshold: new Money(row.threshold.toFixed()).toFixed(),
    low: row.low,
    checkedAt: row.checkedAt.toISOString(),
  }));
}

import { nativeCoinSymbol } from "../config";
import type { Db } from "../db/client";

/**
 * Numbers for metrics and the health detail: sweeps by network and status, and each gas wallet's
 * last reported balance (native coin, its symbol) and whether it is below its warning threshold.
 */
export async function getSweepStats(database: Db) {
  const [sweeps, gasWallets] = await Promise.all([
    database.sweep.groupBy({ by: ["network", "status"], _count: { _all: true } }),
    database.gasWallet.findMany({ orderBy: { network: "asc" } }),
  ]);
  return {
    sweeps: sweeps.map((row) => ({ network: row.network, status: row.status, count: row._count._all })),
    gasWallets: gasWallets.map((wallet) => ({
      network: wallet.network,
      address: wallet.address,
      balance: wallet.balance.toString(),
      symbol: nativeCoinSymbol(wallet.network),
      low: wallet.low,
      checkedAt: wallet.checkedAt.toISOString(),
    })),
  };
}

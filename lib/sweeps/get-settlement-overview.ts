import type { Db } from "../db/client";
import { listReportedWallets } from "./list-reported-wallets";

/** Explorer transaction pages of the preset networks; other networks show the bare hash. */
const explorers: Record<string, string> = {
  ethereum: "https://etherscan.io/tx/",
  base: "https://basescan.org/tx/",
  polygon: "https://polygonscan.com/tx/",
  arbitrum: "https://arbiscan.io/tx/",
};

export function transactionUrl(network: string, hash: string): string | null {
  const base = explorers[network];
  return base ? `${base}${hash}` : null;
}

/**
 * The Settlement page's data: the organization's wallets against the networks it is paid on,
 * the gas wallets the sweeper reported, and sweep counts by status.
 */
export async function getSettlementOverview(database: Db, organizationId: string, networks: string[]) {
  const [wallets, gasWallets, counts] = await Promise.all([
    database.settlementWallet.findMany({ where: { organizationId }, orderBy: { network: "asc" } }),
    listReportedWallets(database, "gas"),
    database.sweep.groupBy({ by: ["status"], where: { organizationId }, _count: { _all: true } }),
  ]);
  const byNetwork = new Map(wallets.map((wallet) => [wallet.network, wallet.address]));
  return {
    wallets: networks.map((network) => ({ network, address: byNetwork.get(network) ?? null })),
    gasWallets: gasWallets.filter((wallet) => networks.includes(wallet.network)),
    sweepsByStatus: Object.fromEntries(counts.map((row) => [row.status, row._count._all])),
  };
}

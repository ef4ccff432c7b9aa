import type { Db } from "../db/client";
import { listReportedWallets } from "./list-reported-wallets";

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

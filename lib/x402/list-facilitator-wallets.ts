import type { Db } from "../db/client";

export type FacilitatorWalletView = {
  network: string;
  address: string;
  balance: string;
  threshold: string;
  low: boolean;
  checkedAt: string;
};

/** The x402 facilitator wallets as the signing role last reported them, per network. */
export async function listFacilitatorWallets(database: Db): Promise<FacilitatorWalletView[]> {
  const rows = await database.facilitatorWallet.findMany({ orderBy: { network: "asc" } });
  return rows.map((row) => ({
    network: row.network,
    address: row.address,
    balance: row.balance.toString(),
    threshold: row.threshold.toString(),
    low: row.low,
    checkedAt: row.checkedAt.toISOString(),
  }));
}

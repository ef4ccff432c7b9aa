import type { ServiceTransfers } from "../chains/chain-family";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { gasWalletWarnSweeps, recordGasWallet } from "./report-gas-wallet";

/**
 * The fee payer of a family with service transfers (Solana), reported as the network's gas wallet
 * (GasWallet: the dashboard and the health detail show it): its balance in the fee coin, low below
 * what as many transfers as a gas wallet warns at would cost at most.
 */
export async function reportFeePayer(
  database: Db,
  network: NetworkConfig,
  transfers: ServiceTransfers,
  mnemonic: string,
  now = new Date(),
) {
  const address = transfers.wallet(network, mnemonic, "feePayer");
  const balance = await transfers.balance(network, address);
  const threshold = transfers.feeReserve * gasWalletWarnSweeps;
  return recordGasWallet(
    database,
    network,
    { address, balance, threshold, decimals: transfers.feeCoin.decimals },
    now,
    "fee payer low: sweeps and refunds will wait once it cannot pay a transfer's fee",
  );
}

import type { PublicClient } from "viem";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits } from "../money/decimal";
import { nativeTransferGas, tokenTransferGas } from "../signer/estimate-transfer-gas";

/** The gas wallet warns below what this many ERC-20 sweeps' top-ups cost at current fees. */
export const gasWalletWarnSweeps = 20n;

/**
 * Reads the gas wallet's balance and records it, with whether it is low, for the web tier (which
 * holds no key) to show on the dashboard and in the health detail.
 */
export async function reportGasWallet(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  address: string,
  now = new Date(),
) {
  const [balance, fees] = await Promise.all([
    client.getBalance({ address: address as `0x${string}` }),
    client.estimateFeesPerGas(),
  ]);
  // A top-up covers the transfer twice over (headroom for a fee bump), plus its own fee.
  const perSweep = (tokenTransferGas * 2n + nativeTransferGas) * fees.maxFeePerGas;
  const threshold = perSweep * gasWalletWarnSweeps;
  return recordGasWallet(
    database,
    network,
    { address, balance, threshold, decimals: 18 },
    now,
    "gas wallet low: token sweeps will wait once it cannot pay a top-up",
  );
}

/**
 * Records what a wallet that pays fees holds (GasWallet: shown by the dashboard and the health
 * detail), low below `threshold` (base units of its coin, of `decimals`), with `warning` logged then.
 */
export async function recordGasWallet(
  database: Db,
  network: NetworkConfig,
  wallet: { address: string; balance: bigint; threshold: bigint; decimals: number },
  now: Date,
  warning: string,
) {
  const { address, decimals } = wallet;
  const data = {
    address,
    balance: fromBaseUnits(wallet.balance, decimals),
    threshold: fromBaseUnits(wallet.threshold, decimals),
    low: wallet.balance < wallet.threshold,
    checkedAt: now,
  };
  if (data.low)
    log.warn({ network: network.id, address, balance: data.balance, threshold: data.threshold }, warning);
  return database.gasWallet.upsert({
    where: { network: network.id },
    create: { network: network.id, ...data },
    update: data,
  });
}

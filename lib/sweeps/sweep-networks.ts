import { clientFor } from "../chains/evm/evm-client";
import { evmChainId } from "../chains/networks";
import { config, sendingNetworks } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { advanceRefunds } from "../refunds/advance-refunds";
import { reportRefundWallets } from "../refunds/report-refund-wallets";
import { advanceSweeps } from "./advance-sweeps";
import { planSweeps } from "./plan-sweeps";
import { reportGasWallet } from "./report-gas-wallet";
import type { SweeperKeys } from "./sweeper-keys";

/**
 * One signer pass over every configured network: gas wallet report, planning, the sweeps; then
 * the refunds and the refund wallets' report (apart, so a failure in one leaves the other going).
 */
export async function sweepNetworks(database: Db, keys: SweeperKeys, signal?: AbortSignal) {
  const settings = config();
  for (const network of sendingNetworks()) {
    signal?.throwIfAborted();
    const client = clientFor(network);
    try {
      await reportGasWallet(database, network, client, keys.gasWallet(evmChainId(network)).address);
      await planSweeps(database, network, client, { dust: settings.sweeper.dust });
      await advanceSweeps(database, network, client, { keys, destinations: settings.sweeper.destinations });
    } catch (error) {
      log.warn({ network: network.id, err: error }, "sweeper pass failed; retrying");
    }
    signal?.throwIfAborted();
    try {
      await advanceRefunds(database, network, client, { keys });
      await reportRefundWallets(database, network, client, keys);
    } catch (error) {
      log.warn({ network: network.id, err: error }, "refund pass failed; retrying");
    }
  }
}

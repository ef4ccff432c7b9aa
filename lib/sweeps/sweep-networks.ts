import { clientFor } from "../chains/evm/evm-client";
import { evmChainId } from "../chains/networks";
import { config, refundingNetworks, sendingNetworks } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { refundNetwork } from "../refunds/refund-network";
import { advanceSweeps } from "./advance-sweeps";
import { planSweeps } from "./plan-sweeps";
import { reportGasWallet } from "./report-gas-wallet";
import type { SweeperKeys } from "./sweeper-keys";

/**
 * One signer pass over every configured network: gas wallet report, planning, the sweeps; then
 * each network's refunds and refund wallets' report (apart, so a failure in one leaves the other
 * going), also where the family sends only from the service's own wallets (refundingNetworks).
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
  }
  for (const network of refundingNetworks()) {
    signal?.throwIfAborted();
    try {
      await refundNetwork(database, network, keys, settings.hdMnemonic);
    } catch (error) {
      log.warn({ network: network.id, err: error }, "refund pass failed; retrying");
    }
  }
}

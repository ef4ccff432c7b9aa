import { chainFamily } from "../chains/chain-families";
import type { ServiceTransfers } from "../chains/chain-family";
import { clientFor } from "../chains/evm/evm-client";
import { evmChainId, type NetworkConfig } from "../chains/networks";
import { config, refundingNetworks, sendingNetworks } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { refundNetwork } from "../refunds/refund-network";
import { advanceDirectSweeps } from "./advance-direct-sweeps";
import { advanceSweeps } from "./advance-sweeps";
import { planSweeps } from "./plan-sweeps";
import { reportFeePayer } from "./report-fee-payer";
import { reportGasWallet } from "./report-gas-wallet";
import type { SweeperKeys } from "./sweeper-keys";

/**
 * One signer pass over every configured network: gas wallet report, planning, the sweeps; then
 * each network's refunds and refund wallets' report (apart, so a failure in one leaves the other
 * going), also where the family sends only from the service's own wallets (refundingNetworks). A
 * family with service transfers (Solana) sweeps from its shared receiving wallet, its fee payer
 * reported as the network's gas wallet.
 */
export async function sweepNetworks(database: Db, keys: SweeperKeys, signal?: AbortSignal) {
  const settings = config();
  for (const network of sendingNetworks()) {
    signal?.throwIfAborted();
    const transfers = chainFamily(network).serviceTransfers;
    try {
      if (transfers) await sweepServiceWallets(database, network, transfers, settings.hdMnemonic);
      else await sweepDepositAddresses(database, network, keys);
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

async function sweepDepositAddresses(database: Db, network: NetworkConfig, keys: SweeperKeys) {
  const settings = config();
  const client = clientFor(network);
  await reportGasWallet(database, network, client, keys.gasWallet(evmChainId(network)).address);
  await planSweeps(database, network, client, { dust: settings.sweeper.dust });
  await advanceSweeps(database, network, client, { keys, destinations: settings.sweeper.destinations });
}

/** The signing role's mnemonic (SERVICE_HD_MNEMONIC) signs service transfers, as it derived the receiving wallet. */
async function sweepServiceWallets(
  database: Db,
  network: NetworkConfig,
  transfers: ServiceTransfers,
  mnemonic: string | undefined,
) {
  if (!mnemonic) throw new Error(`sweeps on ${network.id} need SERVICE_HD_MNEMONIC`);
  await reportFeePayer(database, network, transfers, mnemonic);
  await planSweeps(database, network, chainFamily(network).client(network), {});
  await advanceDirectSweeps(database, network, {
    transfers,
    mnemonic,
    destinations: config().sweeper.destinations,
  });
}

import { chainFamily } from "../chains/chain-families";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import type { Db } from "../db/client";
import type { PeriodicTask } from "../jobs/periodic-task";
import { log } from "../log";
import { fromBaseUnits } from "../money/decimal";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";
import { x402Networks } from "./x402-networks";

/** The facilitator wallet warns below what this many settlements cost at current fees. */
export const facilitatorWalletWarnSettlements = 100n;

/**
 * Reads each x402 network's facilitator wallet (it pays every settlement's gas) and records its
 * balance and whether it is low, for the FacilitatorWalletLow alert (ops/prometheus/alerts.yml),
 * the health details and the dashboard; a low one also logs an alert-level line. What the
 * operator funds (docs/operations.md, "x402").
 */
export async function reportFacilitatorWallets(
  database: Db,
  mnemonic: string,
  networks: NetworkConfig[],
  now = new Date(),
) {
  const keys = sweeperKeysFromMnemonic(mnemonic);
  const settled = new Set(x402Networks(networks).map((asset) => asset.networkId));
  for (const network of networks.filter((candidate) => settled.has(candidate.id))) {
    const address = keys.facilitatorWallet(evmChainId(network)).address;
    try {
      const client = clientFor(network);
      const [balance, fee] = await Promise.all([
        client.getBalance({ address }),
        chainFamily(network).x402SettlementFee(network),
      ]);
      const threshold = fee * facilitatorWalletWarnSettlements;
      // A devnet's wallet is topped up with test coin when a settlement needs it.
      const low = balance < threshold && !network.devnet;
      const data = {
        address,
        balance: fromBaseUnits(balance, 18),
        threshold: fromBaseUnits(threshold, 18),
        low,
        checkedAt: now,
      };
      if (low)
        log.warn(
          { network: network.id, ...data },
          "x402 facilitator wallet low: settlements fail once it cannot pay their gas",
        );
      await database.facilitatorWallet.upsert({
        where: { network: network.id },
        create: { network: network.id, ...data },
        update: data,
      });
    } catch (error) {
      log.warn({ network: network.id, address, err: error }, "x402 facilitator wallet balance unread");
    }
  }
}

/** The report as a periodic task of the process whose built-in facilitator settles. */
export function reportFacilitatorWalletsTask(mnemonic: string, networks: NetworkConfig[]): PeriodicTask {
  return {
    name: "report-facilitator-wallets",
    intervalMs: 60_000,
    cron: "* * * * *",
    run: (database) => reportFacilitatorWallets(database, mnemonic, networks),
  };
}

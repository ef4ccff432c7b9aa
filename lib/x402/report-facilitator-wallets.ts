import type { NetworkConfig } from "../chains/networks";
import { log } from "../log";
import { fromBaseUnits } from "../money/decimal";
import { clientFor } from "../payments/watch-networks";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";
import { x402Networks } from "./x402-networks";

/** Gas of one EIP-3009 transferWithAuthorization, an upper estimate (a fresh payee, signature check). */
const settlementGas = 100_000n;
/** The facilitator wallet warns below what this many settlements cost at current fees. */
export const facilitatorWalletWarnSettlements = 100n;

/**
 * Logs each x402 network's facilitator wallet, its address and balance, with an alert-level line
 * when it cannot pay for many more settlements: what the operator funds (docs/operations.md, "x402").
 */
export async function reportFacilitatorWallets(mnemonic: string, networks: NetworkConfig[]) {
  const keys = sweeperKeysFromMnemonic(mnemonic);
  const settled = new Set(x402Networks(networks).map((asset) => asset.networkId));
  for (const network of networks.filter((candidate) => settled.has(candidate.id))) {
    const address = keys.facilitatorWallet(network.chainId).address;
    try {
      const client = clientFor(network);
      const [balance, fees] = await Promise.all([
        client.getBalance({ address }),
        client.estimateFeesPerGas(),
      ]);
      const threshold = settlementGas * fees.maxFeePerGas * facilitatorWalletWarnSettlements;
      const fields = {
        network: network.id,
        address,
        balance: fromBaseUnits(balance, 18),
        threshold: fromBaseUnits(threshold, 18),
      };
      if (balance < threshold && !network.devnet)
        log.warn(fields, "x402 facilitator wallet low: settlements fail once it cannot pay their gas");
      else log.info(fields, "x402 facilitator wallet");
    } catch (error) {
      log.warn({ network: network.id, address, err: error }, "x402 facilitator wallet balance unread");
    }
  }
}

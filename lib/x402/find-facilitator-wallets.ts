import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { processWide } from "../process-wide";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";

const derived = processWide("x402-facilitator-wallets", () => new Map<string, string>());

/** The facilitator wallet of `chainId` under `mnemonic` (lowercase), derived once per process. */
function derivedWallet(mnemonic: string, chainId: number): string {
  const key = `${chainId}:${mnemonic}`;
  let address = derived.get(key);
  if (!address) {
    address = sweeperKeysFromMnemonic(mnemonic).facilitatorWallet(chainId).address.toLowerCase();
    derived.set(key, address);
  }
  return address;
}

/**
 * This service's own facilitator wallet on `network` (lowercase addresses): derived from the
 * mnemonic where this process holds it (the in-process signing role), and as the signing role
 * that serves the facilitator last reported it (FacilitatorWallet, written every minute by
 * `report-facilitator-wallets`, which a web tier with only the xpub reads). Only transactions sent
 * from it cost this service gas; an external facilitator's wallet is never among them.
 */
export async function findFacilitatorWallets(database: Db, network: NetworkConfig): Promise<string[]> {
  const mnemonic = config().hdMnemonic;
  const reported = await database.facilitatorWallet.findUnique({
    where: { network: network.id },
    select: { address: true },
  });
  const wallets = new Set<string>();
  if (mnemonic) wallets.add(derivedWallet(mnemonic, evmChainId(network)));
  if (reported) wallets.add(reported.address.toLowerCase());
  return [...wallets];
}

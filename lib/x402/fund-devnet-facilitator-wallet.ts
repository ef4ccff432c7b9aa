import { type Address, createWalletClient, http, type PublicClient, parseEther } from "viem";
import { devnetFunder } from "../chains/devnet-account";
import type { NetworkConfig } from "../chains/networks";
import { log } from "../log";

/** What an empty devnet facilitator wallet is given: coin for the gas of its settlements. */
export const devnetFacilitatorWalletCoin = "100";

/**
 * On a network flagged `devnet` only: gives a facilitator wallet that holds no coin the devnet's
 * test coin from Hardhat's funded account, so x402 works on the zero-setup start and in tests
 * without a step. Anywhere else the operator funds it (docs/operations.md, "x402"). Returns
 * whether it funded the wallet.
 */
export async function fundDevnetFacilitatorWallet(
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
): Promise<boolean> {
  if (!network.devnet || (await client.getBalance({ address })) > 0n) return false;
  // The node holds the funder's key and assigns its nonces, as for the refund wallets
  // (lib/refunds/fund-devnet-refund-wallet.ts).
  const funder = createWalletClient({ account: devnetFunder.address, transport: http(network.rpcUrl) });
  const hash = await funder.sendTransaction({
    to: address,
    value: parseEther(devnetFacilitatorWalletCoin),
    chain: null,
  });
  await client.waitForTransactionReceipt({ hash });
  log.info({ network: network.id, address }, "devnet x402 facilitator wallet funded with test coin");
  return true;
}

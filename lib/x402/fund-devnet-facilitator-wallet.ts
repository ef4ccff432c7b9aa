import type { Address, PublicClient } from "viem";
import { fundDevnetWallet } from "../chains/fund-devnet-wallet";
import type { NetworkConfig } from "../chains/networks";

/** What an empty devnet facilitator wallet is given: coin for the gas of its settlements. */
export const devnetFacilitatorWalletCoin = "100";

/**
 * On a network flagged `devnet` only: gives a facilitator wallet that holds no coin the devnet's
 * test coin from Hardhat's funded account, so x402 works on the zero-setup start and in tests
 * without a step. Anywhere else the operator funds it (docs/operations.md, "x402"). Returns
 * whether it funded the wallet.
 */
export function fundDevnetFacilitatorWallet(
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
): Promise<boolean> {
  return fundDevnetWallet(
    network,
    client,
    address,
    { coin: devnetFacilitatorWalletCoin },
    "x402 facilitator",
  );
}

import type { Address, PublicClient } from "viem";
import { fundDevnetWallet } from "../chains/fund-devnet-wallet";
import type { NetworkConfig } from "../chains/networks";

/** What an empty devnet refund wallet is given: coin for fees, and of each test token. */
export const devnetRefundWalletFunds = { coin: "100", token: "10000" } as const;

/**
 * On a network flagged `devnet` only: gives a refund wallet that holds no coin the devnet's test
 * funds from Hardhat's funded account, so a merchant signed up on the zero-setup start can refund
 * at once. Anywhere else the merchant funds it (docs/operations.md, "Refund wallet"). Returns
 * whether it funded the wallet.
 */
export function fundDevnetRefundWallet(
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
): Promise<boolean> {
  return fundDevnetWallet(network, client, address, devnetRefundWalletFunds, "refund");
}

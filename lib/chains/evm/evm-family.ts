import { BaseError, type PublicClient } from "viem";
import type { ChainFamily } from "../chain-family";
import { evmChainId } from "../networks";
import { evmDepositAddresses } from "./derive-deposit-address";
import { estimateX402SettlementFee } from "./estimate-x402-settlement-fee";
import { evmAddresses } from "./evm-addresses";
import { clientFor } from "./evm-client";
import { evmPaymentUri } from "./evm-payment-uri";
import { payFromEvmTestWallet } from "./pay-from-test-wallet";
import { evmTransferReader } from "./read-evm-transfers";

/** Ethereum and its kin (Base, Polygon, Arbitrum, the Hardhat devnet), spoken through viem. */
export const evmFamily: ChainFamily<PublicClient> = {
  id: "evm",
  addresses: evmAddresses,
  // An address per invoice: a transfer names its invoice by where it goes.
  paymentReceivers: (_network, keys, indexes) =>
    evmDepositAddresses(keys, indexes).map((address) => ({ address, reference: null })),
  paymentUri: (network, request) => evmPaymentUri(network.chainId, request),
  completeNetwork: (network) => network,
  payFromTestWallet: payFromEvmTestWallet,
  positionName: "block",
  sends: true,
  caip2: (network) => `eip155:${evmChainId(network)}`,
  nativeCoin: (network) => network.tokens.find((token) => !token.address),
  x402SettlementFee: estimateX402SettlementFee,
  client: clientFor,
  transferReader: evmTransferReader,
  isRpcError: (error) => error instanceof BaseError,
};

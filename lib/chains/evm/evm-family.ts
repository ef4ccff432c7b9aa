import { BaseError, type PublicClient } from "viem";
import type { ChainFamily } from "../chain-family";
import { evmDepositAddresses } from "./derive-deposit-address";
import { evmAddresses } from "./evm-addresses";
import { clientFor } from "./evm-client";
import { evmTransferReader } from "./read-evm-transfers";

/** Ethereum and its kin (Base, Polygon, Arbitrum, the Hardhat devnet), spoken through viem. */
export const evmFamily: ChainFamily<PublicClient> = {
  id: "evm",
  addresses: evmAddresses,
  depositAddresses: evmDepositAddresses,
  caip2: (network) => `eip155:${network.chainId}`,
  client: clientFor,
  transferReader: evmTransferReader,
  isRpcError: (error) => error instanceof BaseError,
};

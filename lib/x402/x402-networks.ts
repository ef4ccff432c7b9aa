import type { Network } from "@x402/core/types";
import type { Address } from "viem";
import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import { config } from "../config";

/** A token x402 payers can pay with: an EIP-3009 ERC-20 on a configured network. */
export type X402Asset = {
  /** The configured network's id ("base", "devnet"). */
  networkId: string;
  /** Its CAIP-2 id, x402's `network` field (ChainFamily.caip2). */
  network: Network;
  /** EVM's chain id; absent on a family whose agents pay by transaction (ChainFamily.x402Transactions). */
  chainId?: number;
  symbol: string;
  /** The token contract, x402's `asset` field. */
  asset: Address;
  decimals: number;
  /** The token's EIP-712 domain, x402's `extra` of the `exact` scheme on EVM; absent where agents pay by transaction. */
  eip712?: { name: string; version: string };
};

/**
 * The tokens agents pay by a transaction our facilitator co-signs (Solana's USDC): the USD-pegged
 * tokens with an address of a family with `x402Transactions`.
 */
export function x402TransactionAssets(networks: NetworkConfig[] = config().networks): X402Asset[] {
  return networks.flatMap((network) =>
    chainFamily(network).x402Transactions
      ? network.tokens.flatMap((token) =>
          token.address && token.symbol === "USDC"
            ? [
                {
                  networkId: network.id,
                  network: chainFamily(network).caip2(network) as Network,
                  symbol: token.symbol,
                  asset: token.address as Address,
                  decimals: token.decimals,
                },
              ]
            : [],
        )
      : [],
  );
}

/**
 * Every token of the configured networks that implements EIP-3009 (its `eip3009` domain set, as
 * the presets' USDC and the devnet's test USDC have): what x402's `exact` scheme can pay with.
 */
export function x402Networks(networks: NetworkConfig[] = config().networks): X402Asset[] {
  return networks.flatMap((network) =>
    network.tokens.flatMap((token) =>
      token.address && token.eip3009
        ? [
            {
              networkId: network.id,
              network: chainFamily(network).caip2(network) as Network,
              chainId: evmChainId(network),
              symbol: token.symbol,
              asset: token.address as Address,
              decimals: token.decimals,
              eip712: token.eip3009,
            },
          ]
        : [],
    ),
  );
}

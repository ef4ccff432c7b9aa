import type { PaymentRequirements } from "@x402/core/types";
import type { NetworkConfig, TokenConfig } from "../chains/networks";
import { config } from "../config";
import { signX402Quote, type X402Quote } from "./x402-quote-token";

/** How long the agent's authorization may stay valid (the client signs validBefore = now + this). */
export const x402MaxTimeoutSeconds = 300;

export type X402Asset = {
  network: NetworkConfig;
  token: TokenConfig & { address: string; eip3009: { name: string; version: string } };
};

/** The configured tokens x402's `exact` scheme can move: ERC-20s with EIP-3009 (USDC). */
export function x402Assets(): X402Asset[] {
  return config().networks.flatMap((network) =>
    network.tokens.flatMap((token) =>
      token.address && token.eip3009
        ? [{ network, token: { ...token, address: token.address, eip3009: token.eip3009 } }]
        : [],
    ),
  );
}

/** The x402 asset a quote names, if it is still configured. */
export function findX402Asset(networkId: string, symbol: string): X402Asset | undefined {
  return x402Assets().find(({ network, token }) => network.id === networkId && token.symbol === symbol);
}

/** CAIP-2 id of an EVM network, as x402 names networks. */
export const caip2 = (network: NetworkConfig) => `eip155:${network.chainId}` as const;

/**
 * The payment option for a quote: x402's `exact` scheme on EVM, with the token's EIP-712 domain
 * (name, version) the signature needs, and the signed quote, which the client sends back.
 */
export function x402Requirements(quote: X402Quote, { network, token }: X402Asset): PaymentRequirements {
  return {
    scheme: "exact",
    network: caip2(network),
    asset: token.address,
    amount: quote.amount,
    payTo: quote.payTo,
    maxTimeoutSeconds: x402MaxTimeoutSeconds,
    extra: { name: token.eip3009.name, version: token.eip3009.version, quote: signX402Quote(quote) },
  };
}

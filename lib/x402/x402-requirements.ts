import type { PaymentRequirements } from "@x402/core/types";
import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import { config } from "../config";
import { type X402Asset, x402Networks } from "./x402-networks";
import { signX402Quote, type X402Quote } from "./x402-quote-token";

/** How long the agent's authorization may stay valid (the client signs validBefore = now + this). */
export const x402MaxTimeoutSeconds = 300;

/** An x402 asset with the network and token configuration that price and invoice it. */
export type X402Payable = { network: NetworkConfig; token: TokenConfig; x402: X402Asset };

/** The configured tokens x402's `exact` scheme can move (lib/x402/x402-networks.ts). */
export function x402Payables(): X402Payable[] {
  const { networks } = config();
  return x402Networks(networks).flatMap((x402) => {
    const network = networks.find((candidate) => candidate.id === x402.networkId);
    const token = network && findToken(network, x402.symbol);
    return network && token ? [{ network, token, x402 }] : [];
  });
}

/** The x402 asset a quote names, if it is still configured. */
export function findX402Payable(networkId: string, symbol: string): X402Payable | undefined {
  return x402Payables().find(({ x402 }) => x402.networkId === networkId && x402.symbol === symbol);
}

/**
 * The payment option for a quote: x402's `exact` scheme on EVM, with the token's EIP-712 domain
 * (name, version) the signature needs, and the signed quote, which the client sends back.
 */
export function x402Requirements(quote: X402Quote, { x402 }: X402Payable): PaymentRequirements {
  return {
    scheme: "exact",
    network: x402.network,
    asset: x402.asset,
    amount: quote.amount,
    payTo: quote.payTo,
    maxTimeoutSeconds: x402MaxTimeoutSeconds,
    extra: { name: x402.eip712.name, version: x402.eip712.version, quote: signX402Quote(quote) },
  };
}

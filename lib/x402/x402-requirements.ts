import type { PaymentRequirements } from "@x402/core/types";
import { chainFamily } from "../chains/chain-families";
import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import { config } from "../config";
import { type X402Asset, x402Networks, x402TransactionAssets } from "./x402-networks";
import { signX402Quote, type X402Quote } from "./x402-quote-token";

/** How long the agent's authorization may stay valid (the client signs validBefore = now + this). */
export const x402MaxTimeoutSeconds = 300;

/** An x402 asset with the network and token configuration that price and invoice it. */
export type X402Payable = { network: NetworkConfig; token: TokenConfig; x402: X402Asset };

/** The configured tokens x402's `exact` scheme can move (lib/x402/x402-networks.ts). */
export function x402Payables(): X402Payable[] {
  const { networks } = config();
  const assets = [...x402Networks(networks), ...x402TransactionAssets(cosignedNetworks(networks))];
  return assets.flatMap((x402) => {
    const network = networks.find((candidate) => candidate.id === x402.networkId);
    const token = network && findToken(network, x402.symbol);
    return network && token ? [{ network, token, x402 }] : [];
  });
}

/**
 * The networks whose agents' transactions a facilitator of ours co-signs: with a fee payer known
 * (derived here, or configured for a web tier without keys), where this process's built-in
 * facilitator pays fees or the signing role's serves over HTTP (SERVICE_X402_FACILITATOR_URL).
 */
function cosignedNetworks(networks: NetworkConfig[]): NetworkConfig[] {
  if (!builtInFeePayer() && !config().x402.facilitatorUrl) return [];
  return networks.filter((network) => network.feePayer);
}

/**
 * The service mnemonic, when this process's built-in facilitator may pay fees with it: it then
 * co-signs agents' transactions here; else the signing role's facilitator does, over HTTP
 * (lib/x402/settle-x402-transaction.ts).
 */
export function builtInFeePayer(): string | undefined {
  const settings = config();
  return settings.sweeper.inProcess && !settings.x402.facilitatorUrl ? settings.hdMnemonic : undefined;
}

/** The x402 asset a quote names, if it is still configured. */
export function findX402Payable(networkId: string, symbol: string): X402Payable | undefined {
  return x402Payables().find(({ x402 }) => x402.networkId === networkId && x402.symbol === symbol);
}

/**
 * What the `exact` scheme's `extra` carries besides the quote: on EVM the token's EIP-712 domain
 * (name, version) the signature needs; where the agent signs a transaction, our fee payer and the
 * memo that ties it to the quote's invoice (ChainFamily.x402Transactions).
 */
function schemeExtra(quote: X402Quote, { network, x402 }: X402Payable): Record<string, string> {
  const scheme = chainFamily(network).x402Transactions;
  if (scheme && quote.reference) return scheme.extra(network, quote.reference);
  return { name: x402.eip712?.name ?? "", version: x402.eip712?.version ?? "" };
}

/** The payment option for a quote: x402's `exact` scheme, and the signed quote, which the client sends back. */
export function x402Requirements(quote: X402Quote, asset: X402Payable): PaymentRequirements {
  const { x402 } = asset;
  return {
    scheme: "exact",
    network: x402.network,
    asset: x402.asset,
    amount: quote.amount,
    payTo: quote.payTo,
    maxTimeoutSeconds: x402MaxTimeoutSeconds,
    extra: { ...schemeExtra(quote, asset), quote: signX402Quote(quote) },
  };
}

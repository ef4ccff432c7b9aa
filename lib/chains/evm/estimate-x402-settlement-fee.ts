import type { NetworkConfig } from "../networks";
import { clientFor } from "./evm-client";

/** Gas of one EIP-3009 transferWithAuthorization, an upper estimate (a fresh payee, signature check). */
export const x402SettlementGas = 100_000n;

/**
 * What one x402 settlement (an EIP-3009 transfer our facilitator wallet sends) costs now, in wei:
 * its gas at the fee per gas the facilitator would offer. Throws when the node cannot answer.
 */
export async function estimateX402SettlementFee(network: NetworkConfig): Promise<bigint> {
  const fees = await clientFor(network).estimateFeesPerGas();
  return x402SettlementGas * fees.maxFeePerGas;
}

import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SupportedResponse } from "@x402/core/types";
import { isEIP3009Payload } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { NetworkConfig } from "../chains/networks";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";
import { createFacilitatorSigner } from "./create-facilitator-signer";
import { caip2Network, x402Networks } from "./x402-networks";

/**
 * The signing role's x402 facilitator: x402's own facilitator with its EVM `exact` scheme, one
 * registration per configured network with an EIP-3009 token, each signing with that chain's
 * facilitator wallet (lib/sweeps/sweeper-keys.ts). It takes only what it was set up for: v2, the
 * `exact` scheme, an EIP-3009 authorization, for one of the configured EIP-3009 tokens. Its gas
 * pays for nothing else (another token, Permit2, a wallet deployment).
 */
export function createBuiltInFacilitator(options: {
  mnemonic: string;
  networks: NetworkConfig[];
}): FacilitatorClient {
  const keys = sweeperKeysFromMnemonic(options.mnemonic);
  const assets = x402Networks(options.networks);
  const facilitator = new x402Facilitator();
  const chains = new Set<number>();
  for (const network of options.networks) {
    if (chains.has(network.chainId) || !assets.some((asset) => asset.networkId === network.id)) continue;
    chains.add(network.chainId);
    const signer = createFacilitatorSigner(network, keys.facilitatorWallet(network.chainId));
    facilitator.register(caip2Network(network.chainId), new ExactEvmScheme(signer));
  }

  /** Why this facilitator will not take the payment, in x402's error codes; undefined when it will. */
  function refusal(payload: PaymentPayload, requirements: PaymentRequirements): string | undefined {
    if (payload.x402Version !== 2) return "invalid_x402_version";
    if (requirements.scheme !== "exact" || payload.accepted.scheme !== "exact") return "unsupported_scheme";
    const accepted = assets.some(
      (asset) =>
        asset.network === requirements.network &&
        asset.asset.toLowerCase() === String(requirements.asset).toLowerCase(),
    );
    if (!accepted) return "invalid_payment_requirements";
    const inner = payload.payload as object | null;
    if (typeof inner !== "object" || inner === null || !isEIP3009Payload(inner as never))
      return "invalid_payload";
    return undefined;
  }

  return {
    verify: async (payload, requirements) => {
      const reason = refusal(payload, requirements);
      if (reason) return { isValid: false, invalidReason: reason };
      return facilitator.verify(payload, requirements);
    },
    settle: async (payload, requirements) => {
      const reason = refusal(payload, requirements);
      if (reason)
        return { success: false, errorReason: reason, transaction: "", network: requirements.network };
      return facilitator.settle(payload, requirements);
    },
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

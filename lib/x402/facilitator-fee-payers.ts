import type { SupportedResponse } from "@x402/core/types";
import { config } from "../config";
import { log } from "../log";
import { processWide } from "../process-wide";
import { x402FacilitatorClient } from "./facilitator-client";

/** How long the facilitator's GET /supported is trusted before it is asked again. */
const freshMs = 60_000;

/**
 * The fee payer each network's payments by transaction name in a facilitator's GET /supported
 * (`extra.feePayer` of its `exact` kinds), by CAIP-2 network. Pure.
 */
export function feePayersOf(supported: Pick<SupportedResponse, "kinds">): Map<string, string> {
  const named = supported.kinds.flatMap((kind) => {
    const feePayer = (kind.extra as { feePayer?: unknown } | undefined)?.feePayer;
    return kind.scheme === "exact" && typeof feePayer === "string" && feePayer
      ? [[kind.network, feePayer]]
      : [];
  });
  return new Map(named as [string, string][]);
}

/**
 * Whether the facilitator over HTTP (SERVICE_X402_FACILITATOR_URL) co-signs payments by
 * transaction on `caip2` with our configured `feePayer`: the sweeper's names each network's fee
 * payer in GET /supported, an external facilitator names its own or none, and then an agent's
 * transaction naming ours could never be co-signed, so the network is not offered. The web tier
 * cannot tell the two apart from the configuration alone (facilitator-client.ts), so it asks;
 * the answer is kept a minute, and a facilitator that cannot answer co-signs nothing meanwhile.
 */
export async function facilitatorCosigns(
  caip2: string,
  feePayer: string,
  now = Date.now(),
): Promise<boolean> {
  const cache = processWide("x402-facilitator-fee-payers", () => ({
    at: Number.NEGATIVE_INFINITY,
    feePayers: new Map<string, string>(),
  }));
  if (now - cache.at >= freshMs) {
    cache.at = now;
    const client = config().x402.facilitatorUrl ? x402FacilitatorClient() : undefined;
    cache.feePayers = client
      ? await client.getSupported().then(feePayersOf, (error) => {
          log.warn(
            { err: error },
            "x402 facilitator's supported kinds could not be read; Solana x402 is not offered",
          );
          return new Map<string, string>();
        })
      : new Map();
  }
  return cache.feePayers.get(caip2) === feePayer;
}

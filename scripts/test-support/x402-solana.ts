// x402 on the local Solana chain for tests: the chain and the x402 routes, and payments the local
// test buyer signs with @x402/svm's official client.
import { createKeyPairSignerFromBytes, getBase58Encoder } from "@solana/kit";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { localSolanaBuyer, walletSecret } from "../../lib/chains/solana/local-solana-accounts";
import { startTestLocalSolana, type TestLocalSolana } from "./test-local-solana";
import { type X402App, x402ChainTestBed } from "./x402-app";

/** The local Solana chain and the x402 routes for a test file's tests: started before them, stopped after. */
export function x402SolanaTestBed(): { solana: TestLocalSolana; app: X402App } {
  const bed = x402ChainTestBed(() => startTestLocalSolana());
  return {
    get solana() {
      return bed.chain;
    },
    get app() {
      return bed.app;
    },
  };
}

/** The 402's Solana option at `url` (a fresh quote), or undefined when it offers none. */
export async function solanaX402Option(url: string): Promise<PaymentRequirements | undefined> {
  const response = await fetch(url);
  const header = response.headers.get("PAYMENT-REQUIRED");
  if (response.status !== 402 || !header) return undefined;
  return decodePaymentRequiredHeader(header).accepts.find((option) => option.network.startsWith("solana:"));
}

/** The local test buyer's payment of `requirements` with the official client (what @x402/fetch sends). */
export async function solanaX402Payment(
  solana: TestLocalSolana,
  requirements: PaymentRequirements,
): Promise<PaymentPayload> {
  const buyer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(walletSecret(localSolanaBuyer)));
  const scheme = new ExactSvmScheme(buyer, { rpcUrl: solana.url });
  const { payload } = await scheme.createPaymentPayload(2, requirements);
  return { x402Version: 2, accepted: requirements, payload } as PaymentPayload;
}

// An agent paying over x402 the way docs/agents.md shows it: the official client (@x402/fetch
// with @x402/evm's `exact` scheme) signing with a devnet key. It also keeps every PAYMENT-SIGNATURE
// it sent, so a test can replay one as an attacker or a confused agent would.
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The devnet's CAIP-2 id (Hardhat's chain 31337). */
export const devnetCaip2 = "eip155:31337";

/** A request without payment: the 402 and its decoded PAYMENT-REQUIRED (null when absent). */
export async function probeX402(url: string) {
  const response = await fetch(url);
  const header = response.headers.get("PAYMENT-REQUIRED");
  const paymentRequired: PaymentRequired | null = header ? decodePaymentRequiredHeader(header) : null;
  return { response, paymentRequired };
}

/**
 * A paying fetch for `privateKey`, allowed to spend the devnet's test USDC at `usdc` (the client
 * refuses tokens it does not recognise until told; docs/agents.md).
 */
export function x402Buyer(privateKey: Hex, usdc: string) {
  const account = privateKeyToAccount(privateKey);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls({ allowedAssets: [{ network: devnetCaip2, asset: usdc }] });
  const signatures: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const signature = new Request(input, init).headers.get("PAYMENT-SIGNATURE");
    if (signature) signatures.push(signature);
    return fetch(input, init);
  };
  return { address: account.address, pay: wrapFetchWithPayment(recording, client), signatures };
}

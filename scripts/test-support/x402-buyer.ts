// An agent paying over x402 the way docs/agents.md shows it: the official client (@x402/fetch
// with @x402/evm's `exact` scheme) signing with a devnet key. It also keeps every PAYMENT-SIGNATURE
// it sent, so a test can replay one as an attacker or a confused agent would.
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Hex, type LocalAccount, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { testUsdcEip3009 } from "../../lib/chains/devnet";

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
 * The official client signing as `account`, allowed to spend the devnet's test USDC at `usdc` (the
 * client refuses tokens it does not recognise until told, as an operator would; docs/agents.md).
 */
export function devnetX402Client(account: LocalAccount, usdc: string): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls({ allowedAssets: [{ network: devnetCaip2, asset: usdc }] });
  return client;
}

/** The devnet's `exact` requirements: `amount` of the test USDC at `usdc`, paid to `payTo`. */
export function devnetExactRequirements(usdc: string, amount: string, payTo: string): PaymentRequirements {
  return {
    scheme: "exact",
    network: devnetCaip2,
    asset: usdc,
    amount: parseUnits(amount, 6).toString(),
    payTo,
    maxTimeoutSeconds: 300,
    extra: { ...testUsdcEip3009 },
  };
}

/** What the official client signs as `account` for `accepted`, offered by a resource at `resource`. */
export function signDevnetPayment(
  account: LocalAccount,
  accepted: PaymentRequirements,
  resource: PaymentRequired["resource"] = { url: "http://merchant.test/data" },
) {
  return devnetX402Client(account, accepted.asset).createPaymentPayload({
    x402Version: 2,
    resource,
    accepts: [accepted],
  });
}

/** A paying fetch for `privateKey`, allowed to spend the devnet's test USDC at `usdc`. */
export function x402Buyer(privateKey: Hex, usdc: string) {
  const account = privateKeyToAccount(privateKey);
  const client = devnetX402Client(account, usdc);
  const signatures: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const signature = new Request(input, init).headers.get("PAYMENT-SIGNATURE");
    if (signature) signatures.push(signature);
    return fetch(input, init);
  };
  return { address: account.address, pay: wrapFetchWithPayment(recording, client), signatures };
}

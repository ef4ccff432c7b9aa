import { expect } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { POST as startPaymentRoute } from "@/app/api/public/payments/route";
import type { NetworkConfig } from "@/lib/chains/networks";
import type { SolanaKeyPair } from "@/lib/chains/solana/solana-keys";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { callRoute } from "./call-route";
import { createTestOrganization } from "./fixtures";
import type { TestLocalSolana } from "./test-local-solana";

export type SolanaPaymentRequest = {
  id: string;
  status: string;
  depositAddress: string;
  tokenAddress: string;
  reference: string;
  paymentUri: string;
  amountDue: string;
  remaining: string;
};

/** Test USDC's base units (6 decimals). */
export const usdcUnits = (amount: number) => BigInt(Math.round(amount * 1_000_000));

/** A merchant's $amount session, started by the buyer on solana-local in USDC (the public route). */
export async function startSolanaInvoice(
  amount: string,
  merchant?: Awaited<ReturnType<typeof createTestOrganization>>,
): Promise<SolanaPaymentRequest> {
  merchant ??= await createTestOrganization();
  const session = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `solana-${Math.random()}` },
    body: { amount, currency: "USD" },
  });
  expect(session.status, session.text).toBe(200);
  const started = await callRoute(startPaymentRoute, "/api/public/payments", {
    body: { checkoutSessionId: (session.json as { id: string }).id, network: "solana-local", token: "USDC" },
  });
  expect(started.status, started.text).toBe(201);
  return started.json as SolanaPaymentRequest;
}

/** A watcher pass over the local chain as configured (its receiving wallet completed from the mnemonic). */
export const scanLocalSolana = (solana: TestLocalSolana) =>
  scanNetwork(
    db(),
    config().networks.find((network) => network.id === solana.network.id) as NetworkConfig,
    solana.rpc,
  );

/**
 * A merchant's $amount Solana invoice paid in full as a Solana Pay wallet pays it (by `payer`, the
 * local buyer by default) and confirmed by a watcher pass.
 */
export async function paidSolanaInvoice(
  solana: TestLocalSolana,
  amount: number,
  merchant: Awaited<ReturnType<typeof createTestOrganization>>,
  payer?: SolanaKeyPair,
) {
  const request = await startSolanaInvoice(String(amount), merchant);
  const signature = await solana.pay({
    recipient: request.depositAddress,
    units: usdcUnits(amount),
    references: [request.reference],
    payer,
  });
  await scanLocalSolana(solana);
  const row = await db().invoice.findUniqueOrThrow({ where: { id: request.id } });
  expect(row.status).toBe("CONFIRMED");
  return { ...request, signature };
}

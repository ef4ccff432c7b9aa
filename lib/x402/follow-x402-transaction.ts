import type { NetworkConfig } from "../chains/networks";
import type { X402CosignedTransaction, X402TransactionScheme } from "../chains/x402-transaction-scheme";
import { log } from "../log";

/** How long one settler follows its transaction before leaving it pending (503 `settlement_pending`). */
const followForMs = 60_000;
const followEveryMs = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends and follows a recorded co-signed transaction until the chain decides it or `followForMs`
 * passes. It was recorded (with its id) before anything was sent: a takeover sends the same
 * bytes, so it lands at most once however many settlers send it.
 */
export async function followX402Transaction(
  scheme: X402TransactionScheme,
  network: NetworkConfig,
  signed: X402CosignedTransaction,
  settlementId: string,
) {
  const until = Date.now() + followForMs;
  for (;;) {
    const progress = await scheme.follow(network, signed).catch((error) => {
      log.warn({ err: error, settlementId }, "x402 transaction not followed");
      return "pending" as const;
    });
    if (progress !== "pending" || Date.now() > until) return progress;
    await sleep(followEveryMs);
  }
}

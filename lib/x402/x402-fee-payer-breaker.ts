import { config } from "../config";
import type { Tx } from "../db/client";
import { ServiceError } from "../errors";

/** The sliding window over which a network's fee-payer losses are counted. */
export const x402FeePayerLossWindowMs = 60 * 60_000;

/** What record-x402-transaction-outcome.ts writes on a transaction that failed on chain, at our fee payer's cost. */
const onChainFailure = "invalid_exact_svm_transaction_failed";

/**
 * The networks whose fee payer lost SERVICE_X402_MAX_FEE_PAYER_LOSSES_PER_HOUR fees or more in the
 * last hour (x402 transactions that failed on chain), with when enough of those losses leave the
 * window for it to be offered again. A payer's cooldown (x402-payer-cooldown.ts) stops one key,
 * but a key costs an attacker one transaction fee while each failed landing costs our fee payer
 * far more: across keys, the network itself pauses. Deliberately not scoped to an organization:
 * the fee payer is the service's, and the attacker chooses which merchant's resource to pay.
 */
export async function pausedX402Networks(database: Tx, now: Date): Promise<Map<string, Date>> {
  const max = config().x402.maxFeePayerLossesPerHour;
  const losses = await database.x402Settlement.findMany({
    where: {
      status: "FAILED",
      errorReason: onChainFailure,
      updatedAt: { gt: new Date(now.getTime() - x402FeePayerLossWindowMs) },
    },
    select: { network: true, updatedAt: true },
    orderBy: { updatedAt: "asc" },
  });
  // A loop, not Map.groupBy: that needs Node.js 21, and package.json's engines still allow 20.19.
  const byNetwork = new Map<string, typeof losses>();
  for (const loss of losses) {
    const rows = byNetwork.get(loss.network) ?? [];
    rows.push(loss);
    byNetwork.set(loss.network, rows);
  }
  const paused = new Map<string, Date>();
  for (const [network, rows] of byNetwork) {
    // Below the threshold again once all but max - 1 of them have left the window.
    if (rows.length >= max)
      paused.set(network, new Date(rows[rows.length - max].updatedAt.getTime() + x402FeePayerLossWindowMs));
  }
  return paused;
}

/** 503 `x402_network_paused` with Retry-After until the network's losses leave the window. */
export function x402NetworkPaused(until: Date | undefined, now: Date) {
  const seconds = until ? Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)) : 60;
  return new ServiceError(
    503,
    "api_error",
    "x402_network_paused",
    "x402 is paused on this network: its settlements failed on chain too often in the last hour. Try again later or pay on the hosted page.",
    undefined,
    { "Retry-After": String(seconds) },
  );
}

/** A payment on a paused network is refused (503) before anything is recorded or sent. */
export async function refusePausedX402Network(tx: Tx, network: string, now: Date) {
  const paused = await pausedX402Networks(tx, now);
  if (paused.has(network)) throw x402NetworkPaused(paused.get(network), now);
}

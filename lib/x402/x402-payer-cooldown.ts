import type { Tx } from "../db/client";
import { paymentRefused } from "./x402-payment-errors";

/**
 * How long a payer whose x402 transaction failed on chain is refused. Each such failure cost our
 * fee payer a fee for nothing (the payer's balance drained between our simulation and landing, a
 * state that differed between commitment levels): on purpose, it could repeat it forever.
 */
export const x402PayerCooldownMs = 10 * 60_000;

/**
 * Starts (or restarts) the payer's cooldown, in the transaction that records its settlement
 * FAILED: a payment of the payer's recorded after that sees one or the other.
 */
export async function startX402PayerCooldown(tx: Tx, network: string, payer: string, now: Date) {
  const until = new Date(now.getTime() + x402PayerCooldownMs);
  await tx.x402PayerCooldown.upsert({
    where: { network_payer: { network, payer } },
    create: { network, payer, until },
    update: { until },
  });
}

/** A payer in its cooldown is refused (402 `payer_cooldown`) before anything is recorded. */
export async function refuseCoolingX402Payer(tx: Tx, network: string, payer: string, now: Date) {
  const cooling = await tx.x402PayerCooldown.findUnique({ where: { network_payer: { network, payer } } });
  if (cooling && cooling.until > now)
    throw paymentRefused(
      "payer_cooldown",
      `A payment of this payer's failed on chain, at our fee payer's cost: its payments are refused until ${cooling.until.toISOString()}.`,
    );
}

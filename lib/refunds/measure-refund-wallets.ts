import type { Db } from "../db/client";
import { Money } from "../money/decimal";

export type RefundWalletMeasure = {
  network: string;
  /** Organizations whose refund wallet holds less than its pending refunds need. */
  low: number;
  /** What pending refunds need from all refund wallets together, per token. */
  queued: Record<string, string>;
};

/**
 * The refund wallets per network for metrics, as last reported: aggregates only, so the series
 * stay bounded however many organizations there are (each owner sees its own on Settlement).
 */
export async function measureRefundWallets(database: Db): Promise<RefundWalletMeasure[]> {
  const rows = await database.refundWallet.findMany({ select: { network: true, queued: true, low: true } });
  const byNetwork = new Map<string, { low: number; queued: Map<string, Money> }>();
  for (const row of rows) {
    const measure = byNetwork.get(row.network) ?? { low: 0, queued: new Map() };
    byNetwork.set(row.network, measure);
    if (row.low) measure.low += 1;
    for (const [token, amount] of Object.entries((row.queued ?? {}) as Record<string, string>))
      measure.queued.set(token, (measure.queued.get(token) ?? new Money(0)).plus(amount));
  }
  return [...byNetwork].map(([network, measure]) => ({
    network,
    low: measure.low,
    queued: Object.fromEntries([...measure.queued].map(([token, amount]) => [token, amount.toFixed()])),
  }));
}

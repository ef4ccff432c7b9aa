import type { Db } from "../db/client";
import { log } from "../log";
import { attemptDelivery, type LoadedDelivery, loadDeliveries } from "./attempt-delivery";
import { claimDueDeliveries } from "./claim-due-deliveries";

/**
 * One pass of the delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED, so instances
 * share the work without doubling it) and attempts them with bounded concurrency. A worker that
 * dies leaves claims that lapse, and those deliveries are attempted again: at least once.
 */
export async function deliverDueWebhooks(
  database: Db,
  options: { now?: Date; limit?: number; concurrency?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const claimed = await claimDueDeliveries(database, now, { limit: options.limit });
  // Most passes claim nothing (every instance polls every 200 ms): they end with the claim, not
  // with the ORM's three reads of an empty id list.
  if (claimed.length === 0) return 0;
  const queue = await loadDeliveries(database, claimed);
  const worker = async () => {
    // Once the signal aborts (shutdown), attempts under way finish and nothing new starts.
    while (queue.length > 0 && !options.signal?.aborted) {
      const delivery = queue.shift() as LoadedDelivery;
      try {
        await attemptDelivery(database, delivery, now);
      } catch (error) {
        log.error({ deliveryId: delivery.id, err: error }, "webhook attempt could not be recorded");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 32, queue.length) }, worker));
  // Claims never attempted go back at once, so another instance need not wait for them to lapse.
  if (queue.length > 0) {
    await database.webhookDelivery.updateMany({
      where: { id: { in: queue.map((delivery) => delivery.id) } },
      data: { lockedUntil: null },
    });
  }
  return claimed.length;
}

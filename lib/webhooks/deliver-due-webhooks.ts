import type { Db } from "../db/client";
import { log } from "../log";
import { attemptDelivery, loadDeliveries } from "./attempt-delivery";
import { claimDueDeliveries } from "./claim-due-deliveries";

/**
 * One pass of the delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED, so instances
 * share the work without doubling it) and attempts them with bounded concurrency. A worker that
 * dies leaves claims that lapse, and those deliveries are attempted again: at least once.
 */
export async function deliverDueWebhooks(
  database: Db,
  options: { now?: Date; limit?: number; concurrency?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const claimed = await claimDueDeliveries(database, now, { limit: options.limit });
  const queue = await loadDeliveries(database, claimed);
  const worker = async () => {
    for (let delivery = queue.shift(); delivery; delivery = queue.shift()) {
      try {
        await attemptDelivery(database, delivery, now);
      } catch (error) {
        log.error({ deliveryId: delivery.id, err: error }, "webhook attempt could not be recorded");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 32, queue.length) }, worker));
  return claimed.length;
}

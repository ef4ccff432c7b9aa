import type { Db } from "../db/client";
import { log } from "../log";
import { attemptDelivery, type LoadedDelivery, loadDeliveries } from "./attempt-delivery";

/** How long a worker's claim lasts: well past one attempt's timeout. */
export const claimMs = 2 * 60 * 1000;

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
  const claimed = await database.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery" SET "lockedUntil" = ${new Date(now.getTime() + claimMs)}
    WHERE "id" IN (
      SELECT d."id" FROM "WebhookDelivery" d
      JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."status" IN ('PENDING', 'COOLDOWN') AND d."nextAttemptAt" <= ${now} AND e."enabled"
        AND (d."lockedUntil" IS NULL OR d."lockedUntil" < ${now})
      ORDER BY d."nextAttemptAt"
      LIMIT ${options.limit ?? 200}
      FOR UPDATE OF d SKIP LOCKED)
    RETURNING "id"`;
  const queue = await loadDeliveries(
    database,
    claimed.map((row) => row.id),
  );
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

import type { Db } from "../db/client";

export type DeliveryQueue = {
  /** Deliveries whose next attempt is due now and that no worker holds. */
  due: number;
  /** How long the longest-waiting due delivery has waited; 0 when none is due. */
  oldestDueSeconds: number;
  /** Claimed by a worker right now. */
  inFlight: number;
  /** Open deliveries (PENDING, COOLDOWN) per status. */
  byStatus: Record<string, number>;
};

/** The webhook delivery backlog, across organizations (an operator's view). */
export async function measureDeliveryQueue(database: Db, now = new Date()): Promise<DeliveryQueue> {
  const [[queue], groups] = await Promise.all([
    database.$queryRaw<{ due: bigint; oldest: Date | null; in_flight: bigint }[]>`
      SELECT
        count(*) FILTER (WHERE d."nextAttemptAt" <= ${now} AND (d."lockedUntil" IS NULL OR d."lockedUntil" < ${now})) AS due,
        min(d."nextAttemptAt") FILTER (WHERE d."nextAttemptAt" <= ${now} AND (d."lockedUntil" IS NULL OR d."lockedUntil" < ${now})) AS oldest,
        count(*) FILTER (WHERE d."lockedUntil" >= ${now}) AS in_flight
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."status" IN ('PENDING', 'COOLDOWN') AND e."enabled"`,
    // Only the open states: delivered and failed rows only grow (their rates are counters).
    database.webhookDelivery.groupBy({
      by: ["status"],
      where: { status: { in: ["PENDING", "COOLDOWN"] } },
      _count: { _all: true },
    }),
  ]);
  return {
    due: Number(queue.due),
    oldestDueSeconds: queue.oldest ? Math.max(0, (now.getTime() - queue.oldest.getTime()) / 1000) : 0,
    inFlight: Number(queue.in_flight),
    byStatus: Object.fromEntries(groups.map((group) => [group.status, group._count._all])),
  };
}

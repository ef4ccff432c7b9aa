import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";

/** How long a worker's claim lasts: well past one attempt's timeout. */
export const claimMs = 2 * 60 * 1000;

/**
 * Claims deliveries that are due (pending or cooled down, next attempt reached, endpoint enabled)
 * and held by no other worker (unclaimed, or the claim lapsed), oldest due first. FOR UPDATE SKIP
 * LOCKED lets instances share the work without doubling it. With `deliveryId`, only that one.
 */
export async function claimDueDeliveries(
  database: Db,
  now: Date,
  options: { deliveryId?: string; limit?: number } = {},
): Promise<string[]> {
  const onlyOne =
    options.deliveryId === undefined ? Prisma.empty : Prisma.sql`AND d."id" = ${options.deliveryId}`;
  const claimed = await database.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery" SET "lockedUntil" = ${new Date(now.getTime() + claimMs)}
    WHERE "id" IN (
      SELECT d."id" FROM "WebhookDelivery" d
      JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."status" IN ('PENDING', 'COOLDOWN') AND d."nextAttemptAt" <= ${now} AND e."enabled"
        AND (d."lockedUntil" IS NULL OR d."lockedUntil" < ${now}) ${onlyOne}
      ORDER BY d."nextAttemptAt"
      LIMIT ${options.limit ?? 200}
      FOR UPDATE OF d SKIP LOCKED)
    RETURNING "id"`;
  return claimed.map((row) => row.id);
}

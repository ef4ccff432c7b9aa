import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { Paging } from "../validation/fields";

const withAttempts = {
  attempts: { orderBy: { attemptedAt: "asc" } },
  event: { select: { type: true } },
} satisfies Prisma.WebhookDeliveryInclude;

/** A page of deliveries (newest first) with their attempts, in two queries whatever the page size. */
export async function listDeliveries(
  database: Db,
  organizationId: string,
  filter: { endpointId?: string; eventId?: string },
  paging: Paging,
) {
  const where = { organizationId, ...filter };
  const [total, deliveries] = await Promise.all([
    database.webhookDelivery.count({ where }),
    database.webhookDelivery.findMany({
      where,
      include: withAttempts,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (paging.page - 1) * paging.rows,
      take: paging.rows,
    }),
  ]);
  return { deliveries, total };
}

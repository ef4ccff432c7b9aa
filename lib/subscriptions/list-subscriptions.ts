import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { ListSubscriptionsQuery } from "./subscription-schemas";

/** A page of the organization's subscriptions, newest first, filtered by status and customer. */
export async function listSubscriptions(database: Db, organizationId: string, query: ListSubscriptionsQuery) {
  const where: Prisma.SubscriptionWhereInput = {
    organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.customer
      ? {
          OR: [
            { customerEmail: { equals: query.customer, mode: "insensitive" } },
            { clientReferenceId: query.customer },
          ],
        }
      : {}),
  };
  const [total, subscriptions] = await Promise.all([
    database.subscription.count({ where }),
    database.subscription.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.rows,
      take: query.rows,
    }),
  ]);
  return { subscriptions, total };
}

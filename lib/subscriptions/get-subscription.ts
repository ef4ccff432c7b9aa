import type { Db } from "../db/client";
import { notFound } from "../errors";

/** The organization's subscription with its invoices, newest period first; another's is unknown. */
export async function getSubscription(database: Db, organizationId: string, id: string) {
  const subscription = await database.subscription.findFirst({
    where: { id, organizationId },
    include: { invoices: { orderBy: { periodIndex: "desc" } } },
  });
  if (!subscription) throw notFound("subscription");
  return subscription;
}

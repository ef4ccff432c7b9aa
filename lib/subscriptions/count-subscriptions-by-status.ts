import type { Db } from "../db/client";

/** Subscriptions of every organization, counted per status (an operator's view, not a merchant's). */
export async function countSubscriptionsByStatus(database: Db): Promise<Record<string, number>> {
  const groups = await database.subscription.groupBy({ by: ["status"], _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
}

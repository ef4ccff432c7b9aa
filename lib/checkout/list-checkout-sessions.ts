import { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { sessionStatuses } from "../session-state/session-state";
import { pagingQuery } from "../validation/fields";

/** The dashboard's session list filters: status, and a search by id or merchant order id. */
export const sessionListQuery = pagingQuery.extend({
  status: z.enum(sessionStatuses).optional(),
  q: z.string().trim().max(255).optional(),
});
export type SessionListQuery = z.output<typeof sessionListQuery>;

/** A page of the organization's checkout sessions, newest first, each with its invoice's status. */
export async function listCheckoutSessions(database: Db, organizationId: string, query: SessionListQuery) {
  const where: Prisma.CheckoutSessionWhereInput = {
    organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.q ? { OR: [{ id: query.q }, { merchantOrderId: query.q }, { invoice: { id: query.q } }] } : {}),
  };
  const [total, sessions] = await Promise.all([
    database.checkoutSession.count({ where }),
    database.checkoutSession.findMany({
      where,
      include: { invoice: { select: { id: true, status: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.rows,
      take: query.rows,
    }),
  ]);
  return { sessions, total };
}

import type { Db } from "../db/client";
import type { Prisma, RefundStatus } from "../generated/prisma/client";
import type { ListRefundsQuery } from "./refund-schemas";

/** A page of the organization's refunds, newest first, filtered by invoice and status. */
export async function listRefunds(database: Db, organizationId: string, query: ListRefundsQuery) {
  const where: Prisma.RefundWhereInput = {
    organizationId,
    ...(query.invoiceId ? { invoiceId: query.invoiceId } : {}),
    ...(query.status ? { status: query.status.toUpperCase() as RefundStatus } : {}),
  };
  const [total, refunds] = await Promise.all([
    database.refund.count({ where }),
    database.refund.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.rows,
      take: query.rows,
    }),
  ]);
  return { refunds, total };
}

import type { Db } from "../db/client";
import type { Paging } from "../validation/fields";

/** A page of the organization's invoices (newest first) with their payments: two queries per page. */
export async function listTransactions(database: Db, organizationId: string, paging: Paging) {
  const [total, invoices] = await Promise.all([
    database.invoice.count({ where: { organizationId } }),
    database.invoice.findMany({
      where: { organizationId },
      include: { payments: { orderBy: { createdAt: "asc" } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (paging.page - 1) * paging.rows,
      take: paging.rows,
    }),
  ]);
  return { invoices, total };
}

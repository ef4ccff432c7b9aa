import { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { pagingQuery } from "../validation/fields";
import { invoiceStatuses } from "./invoice-state";

/** The dashboard's invoice list filters: status, network, and a search by invoice, session or order id. */
export const invoiceListQuery = pagingQuery.extend({
  status: z.enum(invoiceStatuses).optional(),
  network: z.string().max(32).optional(),
  q: z.string().trim().max(255).optional(),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuery>;

/** A page of the organization's invoices, newest first, with their session's order reference. */
export async function listInvoices(database: Db, organizationId: string, query: InvoiceListQuery) {
  const where: Prisma.InvoiceWhereInput = {
    organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.network ? { network: query.network } : {}),
    ...(query.q
      ? {
          OR: [
            { id: query.q },
            { checkoutSessionId: query.q },
            { checkoutSession: { merchantOrderId: query.q } },
            { depositAddress: { equals: query.q, mode: "insensitive" } },
          ],
        }
      : {}),
  };
  const [total, invoices] = await Promise.all([
    database.invoice.count({ where }),
    database.invoice.findMany({
      where,
      include: { checkoutSession: { select: { merchantOrderId: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.rows,
      take: query.rows,
    }),
  ]);
  return { invoices, total };
}

import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";

/**
 * An invoice with everything that happened to it: its session, the transfers seen on chain with
 * their confirmations, the events written and each event's deliveries to the merchant's
 * endpoints. A fixed number of queries, whatever the number of payments, events and deliveries.
 */
export async function getInvoiceTimeline(database: Db, organizationId: string, invoiceId: string) {
  if (!hasIdPrefix("invoice", invoiceId)) throw notFound("invoice");
  const invoice = await database.invoice.findFirst({
    where: { id: invoiceId, organizationId },
    include: {
      checkoutSession: true,
      payments: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
  });
  if (!invoice) throw notFound("invoice");
  const events = await database.event.findMany({
    where: { organizationId, invoiceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: {
      deliveries: {
        orderBy: { createdAt: "asc" },
        include: { endpoint: { select: { id: true, name: true, url: true } } },
      },
    },
  });
  return { invoice, events };
}

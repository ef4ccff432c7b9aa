import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import { updateInvoiceFromPayments } from "./update-invoice-from-payments";

/** The deadline job: invoices past their deadline without the full amount become overdue (once). */
export async function markOverdueInvoices(database: Db, now = new Date()): Promise<number> {
  const due = await database.invoice.findMany({
    where: { status: { in: ["AWAITING_PAYMENT", "PARTIALLY_PAID"] }, deadline: { lte: now } },
    select: { id: true },
    take: 500,
  });
  for (const { id } of due)
    await transactWithEvents(database, (tx) => updateInvoiceFromPayments(tx, id, now));
  return due.length;
}

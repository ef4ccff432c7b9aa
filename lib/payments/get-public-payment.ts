import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";

/** An invoice by id, for the buyer's page. */
export async function getPublicPayment(database: Db, id: string) {
  const invoice = hasIdPrefix("invoice", id)
    ? await database.invoice.findUnique({
        where: { id },
        include: { payments: { orderBy: { createdAt: "asc" } } },
      })
    : null;
  if (!invoice) throw notFound("payment");
  return invoice;
}

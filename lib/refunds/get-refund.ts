import type { Db } from "../db/client";
import { notFound } from "../errors";

/** One of the organization's refunds; another organization's is unknown. */
export async function getRefund(database: Db, organizationId: string, id: string) {
  const refund = await database.refund.findFirst({ where: { id, organizationId } });
  if (!refund) throw notFound("refund");
  return refund;
}

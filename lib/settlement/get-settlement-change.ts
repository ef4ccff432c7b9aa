import type { Db } from "../db/client";
import { notFound } from "../errors";

/** One of the organization's settlement changes, with the name of the owner who decided it. */
export async function getSettlementChange(database: Db, organizationId: string, id: string) {
  const change = await database.settlementChange.findFirst({ where: { id, organizationId } });
  if (!change) throw notFound("settlement change", "id");
  const decidedBy = change.decidedByUserId
    ? await database.user.findUnique({ where: { id: change.decidedByUserId }, select: { email: true } })
    : null;
  return { ...change, decidedByEmail: decidedBy?.email ?? null };
}

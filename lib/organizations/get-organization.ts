import type { Db } from "../db/client";

/** The organization with its settlement wallets. */
export function getOrganization(database: Db, organizationId: string) {
  return database.organization.findUniqueOrThrow({
    where: { id: organizationId },
    include: { settlementWallets: { orderBy: { network: "asc" } } },
  });
}

import type { Db } from "../db/client";

/** What the organization serializer reads: the settlement wallets and the logo's id. */
export const organizationSettingsInclude = {
  settlementWallets: { orderBy: { network: "asc" } },
  brandLogo: { select: { id: true } },
} as const;

/** The organization with its settlement wallets and logo id. */
export function getOrganization(database: Db, organizationId: string) {
  return database.organization.findUniqueOrThrow({
    where: { id: organizationId },
    include: organizationSettingsInclude,
  });
}

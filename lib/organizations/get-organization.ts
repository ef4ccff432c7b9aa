import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";

/** What the organization serializer reads: the settlement wallets, their open changes and the logo's id. */
export const organizationSettingsInclude = {
  settlementWallets: { orderBy: { network: "asc" } },
  settlementChanges: {
    where: { status: { in: ["PROPOSED", "SCHEDULED"] } },
    orderBy: [{ network: "asc" }, { createdAt: "asc" }],
  } satisfies Prisma.Organization$settlementChangesArgs,
  brandLogo: { select: { id: true } },
} as const;

/** The organization with its settlement wallets and logo id. */
export function getOrganization(database: Db, organizationId: string) {
  return database.organization.findUniqueOrThrow({
    where: { id: organizationId },
    include: organizationSettingsInclude,
  });
}

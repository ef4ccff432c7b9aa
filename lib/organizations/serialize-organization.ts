import type { Organization, SettlementWallet } from "../generated/prisma/client";

/** The public shape of an organization and its settings. */
export function serializeOrganization(
  organization: Organization & { settlementWallets: SettlementWallet[] },
) {
  return {
    id: organization.id,
    object: "organization" as const,
    name: organization.name,
    webhookUrl: organization.webhookUrl,
    settlementWallets: organization.settlementWallets.map((wallet) => ({
      network: wallet.network,
      address: wallet.address,
    })),
    createdAt: organization.createdAt.toISOString(),
  };
}

import { z } from "zod";
import type { Organization, SettlementWallet } from "../generated/prisma/client";
import { isoTimestamp } from "../openapi/common-schemas";

export const organizationObject = z
  .object({
    id: z.string(),
    object: z.literal("organization"),
    name: z.string(),
    webhookUrl: z.string().nullable(),
    settlementWallets: z.array(z.object({ network: z.string(), address: z.string() })),
    apiVersion: z.string().meta({
      description: "The API version requests are answered in unless they name one in X-Service-Version",
      example: "2026-11-22",
    }),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Organization" });

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
    apiVersion: organization.apiVersion,
    createdAt: organization.createdAt.toISOString(),
  };
}

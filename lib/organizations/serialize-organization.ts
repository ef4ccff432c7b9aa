import { z } from "zod";
import { config } from "../config";
import type { Organization, SettlementWallet } from "../generated/prisma/client";
import { isoTimestamp } from "../openapi/common-schemas";

/** Where a stored logo is served, on our own origin. */
export function logoPath(logoId: string): string {
  return `/api/public/logos/${logoId}`;
}

export const brandingObject = z
  .object({
    displayName: z.string().nullable().meta({ description: "Shown to buyers instead of the name" }),
    color: z.string().nullable().meta({ description: "#rrggbb accent of the hosted page" }),
    logoUrl: z.string().nullable(),
  })
  .meta({ id: "Branding" });

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
    subscriptionGraceDays: z.number().int().meta({
      description: "Days a PAST_DUE subscription waits for its renewal payment before it is cancelled",
    }),
    branding: brandingObject,
    createdAt: isoTimestamp,
  })
  .meta({ id: "Organization" });

/** The public shape of an organization and its settings. */
export function serializeOrganization(
  organization: Organization & { settlementWallets: SettlementWallet[]; brandLogo: { id: string } | null },
): z.output<typeof organizationObject> {
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
    subscriptionGraceDays: organization.subscriptionGraceDays,
    branding: {
      displayName: organization.brandDisplayName,
      color: organization.brandColor,
      logoUrl: organization.brandLogo ? `${config().baseUrl}${logoPath(organization.brandLogo.id)}` : null,
    },
    createdAt: organization.createdAt.toISOString(),
  };
}

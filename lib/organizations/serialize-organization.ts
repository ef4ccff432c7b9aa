import { z } from "zod";
import { config } from "../config";
import type { Organization, SettlementChange, SettlementWallet } from "../generated/prisma/client";
import { formatAmount } from "../money/decimal";
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

export const pendingSettlementWallet = z
  .object({
    id: z.string().meta({ example: "stc_…" }),
    network: z.string(),
    address: z.string().nullable().meta({ description: "null: the network's wallet is removed" }),
    status: z.enum(["proposed", "scheduled"]).meta({
      description:
        "proposed: an owner confirms or rejects it in the dashboard; scheduled: takes effect at effectiveAt unless an owner cancels it",
    }),
    proposedBy: z.object({
      kind: z.enum(["owner", "api_key", "agent", "oauth"]),
      name: z.string().meta({ description: "The owner's email, or the key's, agent's or app's name" }),
    }),
    proposedAt: isoTimestamp,
    effectiveAt: isoTimestamp.nullable().meta({ description: "null while proposed" }),
  })
  .meta({ id: "PendingSettlementWallet" });

export const organizationObject = z
  .object({
    id: z.string(),
    object: z.literal("organization"),
    name: z.string(),
    webhookUrl: z.string().nullable(),
    settlementWallets: z
      .array(z.object({ network: z.string(), address: z.string() }))
      .meta({ description: "The wallets in force: where sweeps go now" }),
    pendingSettlementWallets: z
      .array(pendingSettlementWallet)
      .meta({ description: "Changes of the settlement wallets that wait for an owner or for their time" }),
    apiVersion: z.string().meta({
      description: "The API version requests are answered in unless they name one in X-Service-Version",
      example: "2026-11-26",
    }),
    subscriptionGraceDays: z.number().int().meta({
      description: "Days a PAST_DUE subscription waits for its renewal payment before it is cancelled",
    }),
    refundAgentDailyCapUsd: z.string().meta({
      description: "What agent credentials and OAuth tokens may refund to payers per UTC day, in USD",
      example: "100.00",
    }),
    autoRefundOverpayments: z
      .boolean()
      .meta({ description: "The overpaid part of a confirmed invoice goes back to its payer automatically" }),
    branding: brandingObject,
    createdAt: isoTimestamp,
  })
  .meta({ id: "Organization" });

/** The public shape of an organization and its settings. */
export function serializeOrganization(
  organization: Organization & {
    settlementWallets: SettlementWallet[];
    settlementChanges: SettlementChange[];
    brandLogo: { id: string } | null;
  },
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
    pendingSettlementWallets: organization.settlementChanges.flatMap((change) =>
      change.status === "PROPOSED" || change.status === "SCHEDULED"
        ? [
            {
              id: change.id,
              network: change.network,
              address: change.address,
              status: change.status === "PROPOSED" ? ("proposed" as const) : ("scheduled" as const),
              proposedBy: {
                kind: change.proposedByKind as "owner" | "api_key" | "agent" | "oauth",
                name: change.proposedByName,
              },
              proposedAt: change.createdAt.toISOString(),
              effectiveAt: change.status === "SCHEDULED" ? (change.effectiveAt?.toISOString() ?? null) : null,
            },
          ]
        : [],
    ),
    apiVersion: organization.apiVersion,
    subscriptionGraceDays: organization.subscriptionGraceDays,
    refundAgentDailyCapUsd: formatAmount(organization.refundAgentDailyCapUsd, 2),
    autoRefundOverpayments: organization.autoRefundOverpayments,
    branding: {
      displayName: organization.brandDisplayName,
      color: organization.brandColor,
      logoUrl: organization.brandLogo ? `${config().baseUrl}${logoPath(organization.brandLogo.id)}` : null,
    },
    createdAt: organization.createdAt.toISOString(),
  };
}

import type { merchantDetailsObject, organizationObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { config } from "../config";
import type { Organization, SettlementChange, SettlementWallet } from "../generated/prisma/client";
import { formatAmount } from "../money/decimal";

/** What of an organization a buyer's page shows: its name and brand. */
export const publicBrandSelect = {
  name: true,
  brandDisplayName: true,
  brandColor: true,
  brandLogo: { select: { id: true } },
} as const;

/** Where a stored logo is served, on our own origin. */
export function logoPath(logoId: string): string {
  return `/api/public/logos/${logoId}`;
}

/** The merchant as its receipts and the payments report name it. */
export function merchantDetailsOf(
  organization: Pick<Organization, "legalName" | "legalAddress" | "taxId" | "supportEmail">,
): z.output<typeof merchantDetailsObject> {
  return {
    legalName: organization.legalName,
    address: organization.legalAddress,
    taxId: organization.taxId,
    supportEmail: organization.supportEmail,
  };
}

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
    monthlyReportEmail: organization.monthlyReportEmail,
    monthlyReportTo: organization.monthlyReportTo,
    branding: {
      displayName: organization.brandDisplayName,
      color: organization.brandColor,
      logoUrl: organization.brandLogo ? `${config().baseUrl}${logoPath(organization.brandLogo.id)}` : null,
    },
    merchantDetails: merchantDetailsOf(organization),
    receiptEmails: organization.receiptEmails,
    createdAt: organization.createdAt.toISOString(),
  };
}

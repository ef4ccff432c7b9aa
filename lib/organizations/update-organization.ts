import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { AlongsideWork, Db } from "../db/client";
import { newId } from "../ids";
import { configureMonthlyReport } from "../reports/configure-monthly-report";
import { upsertDefaultWebhookEndpoint } from "../webhooks/upsert-default-webhook-endpoint";
import { getOrganization } from "./get-organization";
import type { UpdateOrganizationInput } from "./organization-schemas";

/**
 * Applies settings changes (the monthly report's among them) in one transaction and returns the
 * organization with its wallets. The settlement wallets are not among them: they change through
 * lib/settlement, which checks new ones before calling this and passes `transact`, so that the
 * settings are written in the settlement change's transaction and a refused change changes nothing.
 */
export async function updateOrganization(
  database: Db,
  organizationId: string,
  input: Omit<UpdateOrganizationInput, "settlementWallets">,
  transact: (work: AlongsideWork) => Promise<unknown> = (work) => database.$transaction(work),
) {
  // Loud, not silently dropped: a caller holding a parsed wallet list must go through lib/settlement.
  if ("settlementWallets" in input && input.settlementWallets !== undefined)
    throw new Error("settlement wallets change through lib/settlement/update-organization-and-wallets.ts");
  await transact(async (tx) => {
    await tx.organization.update({
      where: { id: organizationId },
      data: {
        name: input.name,
        webhookUrl: input.webhookUrl,
        apiVersion: input.apiVersion,
        subscriptionGraceDays: input.subscriptionGraceDays,
        refundAgentDailyCapUsd: input.refundAgentDailyCapUsd,
        autoRefundOverpayments: input.autoRefundOverpayments,
        brandDisplayName: input.brandDisplayName,
        brandColor: input.brandColor,
        legalName: input.legalName,
        legalAddress: input.legalAddress,
        taxId: input.taxId,
        supportEmail: input.supportEmail,
        receiptEmails: input.receiptEmails,
      },
    });
    if (input.logo !== undefined) {
      await tx.organizationLogo.deleteMany({ where: { organizationId } });
      // A new id per upload: the logo's address changes with it, so it can be cached for good.
      if (input.logo)
        await tx.organizationLogo.create({
          data: { id: newId("organizationLogo"), organizationId, ...input.logo },
        });
    }
    if (input.webhookUrl !== undefined)
      await upsertDefaultWebhookEndpoint(tx, organizationId, input.webhookUrl);
    // In the same transaction: a recipient who is not an owner (400) leaves every setting as it was.
    const { monthlyReportEmail, monthlyReportTo } = input;
    if (monthlyReportEmail !== undefined || monthlyReportTo !== undefined)
      await configureMonthlyReport(tx, organizationId, { monthlyReportEmail, monthlyReportTo });
  });
  // Verified credentials are cached with their organization's pinned version.
  if (input.apiVersion !== undefined) await announceCredentialChange();
  return getOrganization(database, organizationId);
}

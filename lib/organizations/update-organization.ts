import { config } from "../config";
import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { AlongsideWork, Db, Tx } from "../db/client";
import { newId } from "../ids";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { configureMonthlyReport } from "../reports/configure-monthly-report";
import { upsertDefaultWebhookEndpoint } from "../webhooks/upsert-default-webhook-endpoint";
import { emailOwners } from "./email-owners";
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
  // The owners' email about it, recorded in the transaction that changes the receipts' details.
  const emailIds: string[] = [];
  await transact(async (tx) => {
    // The row's lock, held to the end: two updates at once take turns, so each announcement states
    // the value it replaced, not one the other update replaced already.
    const [before] = await tx.$queryRaw<Details[]>`
      SELECT "legalName", "legalAddress", "taxId", "supportEmail" FROM "Organization"
      WHERE "id" = ${organizationId} FOR UPDATE`;
    if (!before) throw new Error(`organization ${organizationId} not found`);
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
    emailIds.push(...(await announceDetailsChange(tx, organizationId, before)));
  });
  void sendOutboundEmailsNow(database, emailIds, new Date());
  // Verified credentials are cached with their organization's pinned version.
  if (input.apiVersion !== undefined) await announceCredentialChange();
  return getOrganization(database, organizationId);
}

// What receipts say of the merchant: a change tells every owner, so one nobody meant (a support
// email pointing buyers elsewhere) shows.
const announcedDetails = { legalName: true, legalAddress: true, taxId: true, supportEmail: true } as const;
const detailLabels = {
  legalName: "Legal name",
  legalAddress: "Address",
  taxId: "Tax ID",
  supportEmail: "Support email",
} as const;
type Details = Record<keyof typeof announcedDetails, string | null>;

/** Emails every owner what changed of the details buyers' receipts show, if anything did. */
async function announceDetailsChange(tx: Tx, organizationId: string, before: Details) {
  const after = await tx.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { ...announcedDetails, name: true },
  });
  const changed = (Object.keys(detailLabels) as (keyof Details)[]).filter(
    (field) => before[field] !== after[field],
  );
  if (changed.length === 0) return [];
  const shown = (value: string | null) => (value === null ? "(none)" : value.replace(/\n/g, ", "));
  return emailOwners(
    tx,
    organizationId,
    {
      aboutId: organizationId,
      subject: `The details on ${after.name}'s receipts changed`,
      text: [
        `What buyers' receipts from ${after.name} on ${config().serviceName} say of you changed:`,
        "",
        ...changed.map((field) => `${detailLabels[field]}: ${shown(before[field])} → ${shown(after[field])}`),
        "",
        `If you did not expect this, correct them and review who has access:\n\n${config().baseUrl}/dashboard/settings`,
      ].join("\n"),
    },
    new Date(),
  );
}

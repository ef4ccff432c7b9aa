import type { Db } from "../db/client";
import { newId } from "../ids";
import {
  requestSettlementChange,
  type SettlementChangeRequest,
} from "../settlement/request-settlement-change";
import { upsertDefaultWebhookEndpoint } from "../webhooks/upsert-default-webhook-endpoint";
import { getOrganization } from "./get-organization";
import type { UpdateOrganizationInput } from "./organization-schemas";

/**
 * Applies settings changes in one transaction and returns the organization with its wallets. A new
 * settlement wallet list is not written here: it becomes settlement changes, proposed or decided
 * as `settlement` says (lib/settlement/request-settlement-change.ts).
 */
export async function updateOrganization(
  database: Db,
  organizationId: string,
  input: UpdateOrganizationInput,
  settlement?: Omit<SettlementChangeRequest, "wallets">,
) {
  await database.$transaction(async (tx) => {
    await tx.organization.update({
      where: { id: organizationId },
      data: {
        name: input.name,
        webhookUrl: input.webhookUrl,
        apiVersion: input.apiVersion,
        subscriptionGraceDays: input.subscriptionGraceDays,
        brandDisplayName: input.brandDisplayName,
        brandColor: input.brandColor,
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
  });
  if (input.settlementWallets) {
    if (!settlement) throw new Error("a settlement wallet list needs who asks for it");
    await requestSettlementChange(database, organizationId, {
      ...settlement,
      wallets: input.settlementWallets,
    });
  }
  return getOrganization(database, organizationId);
}

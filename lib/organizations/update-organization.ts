import type { Db } from "../db/client";
import { newId } from "../ids";
import { upsertDefaultWebhookEndpoint } from "../webhooks/upsert-default-webhook-endpoint";
import type { UpdateOrganizationInput } from "./organization-schemas";

/** Applies settings changes in one transaction and returns the organization with its wallets. */
export async function updateOrganization(
  database: Db,
  organizationId: string,
  input: UpdateOrganizationInput,
) {
  return database.$transaction(async (tx) => {
    await tx.organization.update({
      where: { id: organizationId },
      data: { name: input.name, webhookUrl: input.webhookUrl, apiVersion: input.apiVersion },
    });
    if (input.webhookUrl !== undefined)
      await upsertDefaultWebhookEndpoint(tx, organizationId, input.webhookUrl);
    if (input.settlementWallets) {
      await tx.settlementWallet.deleteMany({ where: { organizationId } });
      await tx.settlementWallet.createMany({
        data: input.settlementWallets.map((wallet) => ({
          id: newId("settlementWallet"),
          organizationId,
          ...wallet,
        })),
      });
    }
    return tx.organization.findUniqueOrThrow({
      where: { id: organizationId },
      include: { settlementWallets: { orderBy: { network: "asc" } } },
    });
  });
}

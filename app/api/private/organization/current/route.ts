import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { assertMayChangeMerchantDetails } from "@/lib/organizations/assert-may-change-merchant-details";
import { getOrganization } from "@/lib/organizations/get-organization";
import { updateOrganizationSchema } from "@/lib/organizations/organization-schemas";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";
import { assertMayConfigureRefunds } from "@/lib/refunds/assert-may-configure-refunds";
import { assertMayScheduleReports } from "@/lib/reports/assert-may-schedule-reports";
import { settlementRequester } from "@/lib/settlement/settlement-requester";
import { updateOrganizationAndWallets } from "@/lib/settlement/update-organization-and-wallets";

export const GET = apiKeyRoute("organization.read", async ({ organizationId }) => ({
  body: serializeOrganization(await getOrganization(db(), organizationId)),
}));

export const PUT = apiKeyRoute("organization.update", async ({ request, organizationId, caller }) => {
  const input = await readJson(request, updateOrganizationSchema);
  assertMayConfigureRefunds(caller, input);
  assertMayScheduleReports(caller, input);
  assertMayChangeMerchantDetails(caller, input);
  const organization = await updateOrganizationAndWallets(db(), organizationId, input, () =>
    settlementRequester(caller),
  );
  return { body: serializeOrganization(organization) };
});

import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { getOrganization } from "@/lib/organizations/get-organization";
import { updateOrganizationSchema } from "@/lib/organizations/organization-schemas";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";
import { updateOrganization } from "@/lib/organizations/update-organization";

export const GET = apiKeyRoute("organization.read", async ({ organizationId }) => ({
  body: serializeOrganization(await getOrganization(db(), organizationId)),
}));

export const PUT = apiKeyRoute("organization.update", async ({ request, organizationId }) => ({
  body: serializeOrganization(
    await updateOrganization(db(), organizationId, await readJson(request, updateOrganizationSchema)),
  ),
}));

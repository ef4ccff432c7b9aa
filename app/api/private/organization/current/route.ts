import { apiKeyRoute } from "@/lib/http/route";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";

export const GET = apiKeyRoute(async ({ organization }) => ({ body: serializeOrganization(organization) }));

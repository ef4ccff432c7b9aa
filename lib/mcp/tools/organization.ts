import { toolResult } from "crypto-checkout-agent/catalog";
import { getOrganization } from "../../organizations/get-organization";
import { updateOrganizationSchema } from "../../organizations/organization-schemas";
import { serializeOrganization } from "../../organizations/serialize-organization";
import { updateOrganization } from "../../organizations/update-organization";
import { parseOrThrow } from "../../validation/validation-error";
import type { ToolHandlers } from "./tool-context";

export const organizationTools: ToolHandlers<"service_organization_"> = {
  service_organization_get: async (_input, { db, caller }) =>
    toolResult(serializeOrganization(await getOrganization(db, caller.organizationId))),

  service_organization_update: async (input, { db, caller }) =>
    toolResult(
      serializeOrganization(
        await updateOrganization(db, caller.organizationId, parseOrThrow(updateOrganizationSchema, input)),
      ),
    ),
};

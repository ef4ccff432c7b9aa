import { toolResult } from "crypto-checkout-agent/catalog";
import { invalidRequest } from "../../errors";
import { getOrganization } from "../../organizations/get-organization";
import type { ToolHandlers } from "./tool-context";

export const authTools: ToolHandlers<"service_auth_" | "service_agent_"> = {
  service_auth_status: async (_input, { db, caller }) => {
    const organization = await getOrganization(db, caller.organizationId);
    return toolResult({
      object: "auth_status",
      organization: { id: organization.id, name: organization.name },
      credential: caller.credential,
      access: caller.access,
    });
  },

  service_agent_register: async () => {
    throw invalidRequest(
      "already_connected",
      "This connection is already signed in to an account, so there is nothing to register. service_agent_register is for new users without an account (through the local agent kit: `npx crypto-checkout-agent auth:agent-register`).",
    );
  },
};

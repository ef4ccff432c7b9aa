"use server";

import { revokeAgentCredentialSchema } from "@/lib/agent-access/agent-access-schemas";
import { revokeAgentCredential } from "@/lib/agent-access/revoke-agent-credential";
import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";

export const revokeAgentCredentialAction = memberAction(
  "agents.revoke",
  revokeAgentCredentialSchema,
  async (member, input) => {
    const credential = await revokeAgentCredential(db(), {
      organizationId: member.organization.id,
      ...input,
    });
    return { id: credential.id };
  },
);

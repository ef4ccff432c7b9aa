import type { z } from "zod";
import type { AgentCredential, Organization } from "../generated/prisma/client";
import type { agentCredentialObject } from "./agent-access-schemas";

/** The answer that hands an agent its credential: the only place the secret ever appears. */
export function serializeIssuedAgentCredential(input: {
  credential: AgentCredential;
  secret: string;
  organization: Pick<Organization, "id" | "name">;
}): z.output<typeof agentCredentialObject> {
  return {
    object: "agent_credential",
    status: "approved",
    credential: input.secret,
    credentialId: input.credential.id,
    agentName: input.credential.agentName,
    access: input.credential.access === "READ" ? "read" : "write",
    organization: { id: input.organization.id, name: input.organization.name },
  };
}

import type { z } from "zod";
import type { AgentRegistration } from "../generated/prisma/client";
import type { agentRegistrationObject } from "./agent-access-schemas";

/** How often an agent should poll its signup while the owner finds the email. */
const registrationPollIntervalSeconds = 5;

/** A pending signup; the check-in token and pairing code only in the answer to the first call. */
export function serializePendingRegistration(
  registration: AgentRegistration,
  started?: { checkinToken: string; pairingCode: string },
): z.output<typeof agentRegistrationObject> {
  return {
    object: "agent_registration",
    status: "pending_confirmation",
    ...(started ? { checkinToken: started.checkinToken, pairingCode: started.pairingCode } : {}),
    expiresAt: registration.expiresAt.toISOString(),
    pollIntervalSeconds: registrationPollIntervalSeconds,
  };
}

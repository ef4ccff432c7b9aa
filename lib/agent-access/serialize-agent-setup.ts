import type { z } from "zod";
import { config } from "../config";
import type { AgentSetup } from "../generated/prisma/client";
import type {
  agentSetupForApprovalObject,
  pendingCheckinObject,
  startedAgentSetupObject,
} from "./agent-access-schemas";

/** How often an agent should poll status and check-in while the owner decides. */
export const setupPollIntervalSeconds = 2;

export function serializeStartedAgentSetup(started: {
  agentName: string;
  access: "read" | "write";
  userCode: string;
  setupToken: string;
  checkinToken: string;
  expiresAt: Date;
}): z.output<typeof startedAgentSetupObject> {
  return {
    object: "agent_setup",
    status: "pending",
    agentName: started.agentName,
    access: started.access,
    userCode: started.userCode,
    // A fixed page where the owner types the code: a link cannot carry someone else's code to
    // them (remote phishing, RFC 8628 section 5.4).
    loginUrl: `${config().baseUrl}/agent/setup`,
    setupToken: started.setupToken,
    checkinToken: started.checkinToken,
    expiresAt: started.expiresAt.toISOString(),
    pollIntervalSeconds: setupPollIntervalSeconds,
  };
}

export function serializePendingCheckin(): z.output<typeof pendingCheckinObject> {
  return { object: "agent_setup", status: "pending", pollIntervalSeconds: setupPollIntervalSeconds };
}

/** What the approval page shows about a setup once the owner typed its code. */
export function serializeAgentSetupForApproval(
  setup: AgentSetup,
): z.output<typeof agentSetupForApprovalObject> {
  return {
    object: "agent_setup",
    status: "pending",
    agentName: setup.agentName,
    access: setup.access === "READ" ? "read" : "write",
    clientAddress: setup.clientAddress ?? "unknown",
    startedAt: setup.createdAt.toISOString(),
    expiresAt: setup.expiresAt.toISOString(),
  };
}

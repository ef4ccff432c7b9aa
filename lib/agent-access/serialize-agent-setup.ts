import type { z } from "zod";
import { config } from "../config";
import type { pendingCheckinObject, startedAgentSetupObject } from "./agent-access-schemas";

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
    loginUrl: `${config().baseUrl}/agent/setup?code=${started.userCode}`,
    setupToken: started.setupToken,
    checkinToken: started.checkinToken,
    expiresAt: started.expiresAt.toISOString(),
    pollIntervalSeconds: setupPollIntervalSeconds,
  };
}

export function serializePendingCheckin(): z.output<typeof pendingCheckinObject> {
  return { object: "agent_setup", status: "pending", pollIntervalSeconds: setupPollIntervalSeconds };
}

import { z } from "zod";
import { agentCredentialResult } from "./arguments";
import { create, read, tool, update } from "./contract";

// The connection's own tools: who it acts for, and how an agent gets a credential. No REST
// operation answers what they do; each says why.

export const authStatusTool = tool({
  name: "service_auth_status",
  title: "Connection status",
  description:
    "Shows who this connection acts for: the organization, the kind of credential and whether it may change things (read or write). Call it first to prove the connection works; if it fails with an authentication error, connect again (remote: sign in through the client; local: `crypto-checkout setup`).",
  inputSchema: z.strictObject({}),
  outputSchema: z.object({
    object: z.literal("auth_status"),
    organization: z.object({ id: z.string(), name: z.string() }),
    credential: z.object({ kind: z.enum(["api_key", "agent", "oauth"]), id: z.string() }),
    access: z.enum(["read", "write"]),
  }),
  annotations: read,
  access: "read",
  scope: "remote-and-local",
  row: "organization.read",
  withoutTwin: "the connection's own identity, which no REST operation answers",
});

export const agentRegisterTool = tool({
  name: "service_agent_register",
  title: "Register a new account",
  description:
    "Creates a new merchant account for a user who has none, from their email: we mail them a confirmation link and return a pairingCode: show it to the user, who types it on the page the link opens. Calling again with the returned checkinToken after they confirmed returns an agent credential once. Only for new users; for an existing account use browser setup (`crypto-checkout setup` or signing in through the MCP client). Sends an email.",
  inputSchema: z.strictObject({
    email: z.string().max(254).describe("The user's email address; they must open the link we send"),
    projectName: z.string().max(255).describe("Name of the new organization (the user's shop or project)"),
    agentName: z.string().max(64).describe("Name of this agent, shown in the dashboard"),
    integrationIntent: z.literal("accept_payments"),
    ref: z.string().max(64).optional(),
    checkinToken: z
      .string()
      .max(256)
      .optional()
      .describe("cc_rct_… from the first call; send it with the same arguments to poll"),
  }),
  outputSchema: agentCredentialResult.extend({
    checkinToken: z.string().optional(),
    pairingCode: z.string().optional(),
  }),
  annotations: { ...create, openWorldHint: true },
  access: "write",
  scope: "remote-and-local",
  row: "agents.register",
  withoutTwin: "one result for REST's two answers (the credential, or still waiting)",
});

export const agentSetupTool = tool({
  name: "service_agent_setup",
  title: "Connect this agent to an account",
  description:
    "Starts browser setup for a user who has an account: returns a login URL (a fixed page) and a code; show both to the user, who signs in there, types the code and approves. Then call service_agent_checkin until it reports approved; the credential is saved locally and never shown.",
  inputSchema: z.strictObject({
    agentName: z.string().min(1).max(64).describe("Name of this agent, shown in the dashboard"),
    access: z
      .enum(["read", "write"])
      .optional()
      .describe("Default read; ask for write only when the user wants the agent to make changes"),
  }),
  outputSchema: z.object({
    object: z.literal("agent_setup"),
    status: z.string(),
    agentName: z.string(),
    access: z.enum(["read", "write"]),
    userCode: z.string(),
    loginUrl: z.string(),
    expiresAt: z.string(),
    pollIntervalSeconds: z.number(),
  }),
  annotations: { ...create, openWorldHint: true },
  access: "read",
  scope: "local-only",
  withoutTwin: "local only: the kit's own setup",
});

export const agentCheckinTool = tool({
  name: "service_agent_checkin",
  title: "Finish connecting this agent",
  description:
    "Checks whether the user approved the pending setup; once approved it stores the credential locally (not shown) and reports the organization. While pending, wait pollIntervalSeconds and call again.",
  inputSchema: z.strictObject({}),
  outputSchema: agentCredentialResult,
  annotations: { ...update, openWorldHint: true },
  access: "read",
  scope: "local-only",
  withoutTwin: "local only: the kit stores the credential and never shows it",
});

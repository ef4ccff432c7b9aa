import { isoTimestamp } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { recipientEmailField, text } from "../validation/fields";

// Request bodies of the agent access endpoints, and the objects they answer with.

const accessField = z.enum(["read", "write"], { error: "must be read or write" });

export const startAgentSetupSchema = z.strictObject({
  agentName: text(64),
  // Least privilege: an agent asks for write only when told to.
  access: accessField.default("read"),
});

export const authorizeAgentSetupSchema = z.strictObject({
  userCode: z.string({ error: "must be the code shown by the agent" }).max(20),
  organizationId: z.string({ error: "must be an organization id" }).max(64),
  decision: z.enum(["approve", "deny"], { error: "must be approve or deny" }),
});

export const lookUpAgentSetupSchema = z.strictObject({
  userCode: z.string({ error: "must be the code shown by the agent" }).max(20),
});

export const revokeAgentCredentialSchema = z.strictObject({ agentCredentialId: z.string().max(64) });

export const registerAgentSchema = z.strictObject({
  email: recipientEmailField,
  projectName: text(100),
  agentName: text(64),
  integrationIntent: z.literal("accept_payments", { error: "must be accept_payments" }),
  ref: text(100).optional(),
  checkinToken: z.string({ error: "must be the check-in token of the first call" }).max(100).optional(),
});

export type RegisterAgentInput = z.output<typeof registerAgentSchema>;

export const agentSetupObject = z
  .object({
    object: z.literal("agent_setup"),
    status: z.enum(["pending", "approved", "denied", "expired"]),
    agentName: z.string(),
    expiresAt: isoTimestamp,
  })
  .meta({ id: "AgentSetup" });

export const startedAgentSetupObject = agentSetupObject
  .extend({
    status: z.literal("pending"),
    access: accessField,
    userCode: z.string().meta({ example: "BCDF-GHJK" }),
    loginUrl: z.string().meta({
      description: "The fixed approval page: the owner signs in there and types the userCode",
    }),
    setupToken: z.string().meta({ description: "For the status endpoint (`cc_ast_…`)" }),
    checkinToken: z.string().meta({ description: "For the check-in endpoint, once (`cc_act_…`)" }),
    pollIntervalSeconds: z.number().int(),
  })
  .meta({ id: "StartedAgentSetup" });

export const agentSetupForApprovalObject = agentSetupObject
  .extend({
    status: z.literal("pending"),
    access: accessField,
    clientAddress: z.string().meta({ description: "The address the agent started the setup from" }),
    startedAt: isoTimestamp,
  })
  .meta({ id: "AgentSetupForApproval" });

export const pendingCheckinObject = z.object({
  object: z.literal("agent_setup"),
  status: z.literal("pending"),
  pollIntervalSeconds: z.number().int(),
});

export const agentCredentialObject = z
  .object({
    object: z.literal("agent_credential"),
    status: z.literal("approved"),
    credential: z.string().meta({ description: "`sk_agent_…`: shown this once, stored only as a hash" }),
    credentialId: z.string(),
    agentName: z.string(),
    access: accessField,
    organization: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: "AgentCredential" });

export const agentRegistrationObject = z
  .object({
    object: z.literal("agent_registration"),
    status: z.literal("pending_confirmation"),
    checkinToken: z
      .string()
      .optional()
      .meta({ description: "`cc_rct_…`, on the first call only: send it with the same arguments to poll" }),
    pairingCode: z.string().optional().meta({
      description: "On the first call only: show it to the user, who types it on the confirmation page",
      example: "BCDF-GHJK",
    }),
    expiresAt: isoTimestamp,
    pollIntervalSeconds: z.number().int(),
  })
  .meta({ id: "AgentRegistration" });

export const authorizeAgentSetupResult = z.object({ status: z.enum(["approved", "denied"]) });

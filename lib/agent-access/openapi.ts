import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import {
  agentCredentialObject,
  agentRegistrationObject,
  agentSetupForApprovalObject,
  agentSetupObject,
  authorizeAgentSetupResult,
  authorizeAgentSetupSchema,
  lookUpAgentSetupSchema,
  pendingCheckinObject,
  registerAgentSchema,
  startAgentSetupSchema,
  startedAgentSetupObject,
} from "./agent-access-schemas";

const tags = ["Agent access"];

export const agentAccessOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/agent/setup/start",
    operationId: "startAgentSetup",
    summary: "Start browser setup: a login URL for the owner, tokens for the agent",
    description:
      "No credential. Open `loginUrl`, approve, then check in with `checkinToken` within 10 minutes.",
    tags,
    auth: ["none"],
    body: startAgentSetupSchema,
    responses: {
      201: { description: "Pending setup", schema: startedAgentSetupObject },
      ...errorResponses(400, 413, 415, 429),
    },
  },
  {
    method: "get",
    path: "/api/agent/setup/status",
    operationId: "getAgentSetupStatus",
    summary: "Status of a browser setup (`Authorization: Bearer cc_ast_…`)",
    tags,
    auth: ["agentToken"],
    responses: { 200: { description: "Status", schema: agentSetupObject }, ...errorResponses(401, 429) },
  },
  {
    method: "post",
    path: "/api/private/agent/setup/lookup",
    operationId: "lookUpAgentSetup",
    summary: "What a typed setup code asks for (the approval page; session cookie, same origin, owners only)",
    description: "Wrong codes count against the signed-in user: after a few, 429.",
    tags,
    auth: ["session"],
    body: lookUpAgentSetupSchema,
    responses: {
      200: { description: "The pending setup", schema: privateEnvelope(agentSetupForApprovalObject) },
      ...errorResponses(400, 401, 403, 404, 409, 410, 429),
    },
  },
  {
    method: "post",
    path: "/api/private/agent/setup/authorize",
    operationId: "authorizeAgentSetup",
    summary: "Approve or deny a setup (the approval page; session cookie, same origin, owners only)",
    tags,
    auth: ["session"],
    body: authorizeAgentSetupSchema,
    responses: {
      200: { description: "Decided", schema: privateEnvelope(authorizeAgentSetupResult) },
      ...errorResponses(400, 401, 403, 404, 409, 410, 429),
    },
  },
  {
    method: "post",
    path: "/api/agent/setup/checkin",
    operationId: "checkInAgentSetup",
    summary: "Collect the agent credential once approved (`Authorization: Bearer cc_act_…`)",
    description: "202 while pending; the credential exactly once; 403 denied; 410 expired or already used.",
    tags,
    auth: ["agentToken"],
    responses: {
      200: { description: "The credential, shown this once", schema: agentCredentialObject },
      202: { description: "Not approved yet: poll again", schema: pendingCheckinObject },
      ...errorResponses(401, 403, 410, 429),
    },
  },
  {
    method: "post",
    path: "/api/auth/agent/register",
    operationId: "registerAgent",
    summary: "Agent signup for a new email: confirmation email, then the credential once",
    description:
      "First call without `checkinToken`: mails a confirmation link. Repeat with the same arguments and the token: 202 until the owner confirms, then the credential once. Existing accounts get 409 `account_exists` (use browser setup or OAuth).",
    tags,
    auth: ["none"],
    body: registerAgentSchema,
    responses: {
      200: { description: "The credential, shown this once", schema: agentCredentialObject },
      202: { description: "Waiting for the owner to confirm", schema: agentRegistrationObject },
      ...errorResponses(400, 401, 409, 410, 413, 415, 429),
    },
  },
];

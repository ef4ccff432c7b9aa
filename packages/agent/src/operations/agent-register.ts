import type { Kit } from "../context";
import { callApi } from "../http/api-client";
import { type CredentialIssued, storeCredential } from "./agent-setup";

export type RegisterInput = {
  email: string;
  projectName: string;
  agentName: string;
  integrationIntent: "accept_payments";
  ref?: string;
};

type RegistrationPending = {
  object: "agent_registration";
  status: "pending_confirmation";
  checkinToken?: string;
  pairingCode?: string;
  expiresAt?: string;
  pollIntervalSeconds?: number;
};

function sameArguments(a: RegisterInput, b: RegisterInput) {
  return (
    a.email === b.email &&
    a.projectName === b.projectName &&
    a.agentName === b.agentName &&
    a.integrationIntent === b.integrationIntent &&
    (a.ref ?? undefined) === (b.ref ?? undefined)
  );
}

/**
 * Agent signup for a new user (C2): the first call mails a confirmation link and returns a pairing
 * code the user types on the page it opens (so the email alone confirms nothing), keeping the
 * check-in token; the same call again, once confirmed, stores the credential.
 */
export async function registerAgent(kit: Kit, input: RegisterInput) {
  const pending = (await kit.readConfig()).pendingRegistration;
  const resume =
    pending &&
    pending.apiBaseUrl === kit.settings.apiBaseUrl &&
    sameArguments(pending as RegisterInput, input)
      ? pending
      : undefined;
  const { status, body } = await callApi<RegistrationPending | CredentialIssued>(
    kit.settings.apiBaseUrl,
    "POST",
    "/auth/agent/register",
    { body: { ...input, ...(resume ? { checkinToken: resume.checkinToken } : {}) } },
  );
  if (body.object === "agent_credential") {
    const summary = await storeCredential(kit, body, kit.settings.apiBaseUrl);
    await kit.updateConfig((config) => {
      delete config.pendingRegistration;
    });
    return summary;
  }
  if (body.checkinToken) {
    const checkinToken = body.checkinToken;
    await kit.updateConfig((config) => {
      config.pendingRegistration = {
        ...input,
        checkinToken,
        ...(body.pairingCode ? { pairingCode: body.pairingCode } : {}),
        expiresAt: body.expiresAt ?? "",
        apiBaseUrl: kit.settings.apiBaseUrl,
      };
    });
  }
  const pairingCode = body.pairingCode ?? resume?.pairingCode;
  return {
    object: body.object,
    status: body.status,
    httpStatus: status,
    email: input.email,
    pairingCode,
    expiresAt: body.expiresAt ?? resume?.expiresAt,
    next: `Open the confirmation link mailed to ${input.email}, type the pairing code ${pairingCode} there, then run the same command again to receive the credential.`,
  };
}

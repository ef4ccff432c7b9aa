import { approvalPageUrl } from "../config/base-url";
import { configPath } from "../config/config-file";
import type { Kit } from "../context";
import { callApi } from "../http/api-client";
import { checkFailed, usageError } from "../http/errors";

type SetupStarted = {
  object: "agent_setup";
  status: "pending";
  agentName: string;
  access: "read" | "write";
  userCode: string;
  loginUrl: string;
  setupToken: string;
  checkinToken: string;
  expiresAt: string;
  pollIntervalSeconds: number;
};

export type CredentialIssued = {
  object: "agent_credential";
  status: "approved";
  credential: string;
  credentialId: string;
  agentName: string;
  access: "read" | "write";
  organization: { id: string; name: string };
};

/**
 * Keeps an issued credential in config.json and returns what may be shown of it: everything
 * but the secret itself.
 */
export async function storeCredential(kit: Kit, issued: CredentialIssued, apiBaseUrl: string) {
  const { credential, ...summary } = issued;
  await kit.updateConfig((config) => {
    config.credential = {
      token: credential,
      credentialId: issued.credentialId,
      agentName: issued.agentName,
      access: issued.access,
      organization: issued.organization,
      apiBaseUrl,
    };
  });
  return { ...summary, storedIn: configPath(kit.settings.configHome) };
}

/**
 * Starts browser setup (C2) and keeps its one-time tokens in config.json, never on screen. The
 * login URL shown is the approval page built from the configured base URL, not the service's. Asks
 * for read access unless told otherwise (least privilege).
 */
export async function startAgentSetup(kit: Kit, input: { agentName: string; access?: "read" | "write" }) {
  const loginUrl = approvalPageUrl(kit.settings.apiBaseUrl);
  const { body } = await callApi<SetupStarted>(kit.settings.apiBaseUrl, "POST", "/agent/setup/start", {
    body: { agentName: input.agentName, access: input.access ?? "read" },
  });
  await kit.updateConfig((config) => {
    config.pendingSetups[body.agentName] = {
      setupToken: body.setupToken,
      checkinToken: body.checkinToken,
      userCode: body.userCode,
      loginUrl,
      access: body.access,
      expiresAt: body.expiresAt,
      apiBaseUrl: kit.settings.apiBaseUrl,
    };
  });
  return {
    object: body.object,
    status: body.status,
    agentName: body.agentName,
    access: body.access,
    userCode: body.userCode,
    loginUrl,
    expiresAt: body.expiresAt,
    pollIntervalSeconds: body.pollIntervalSeconds,
    next: `Open ${loginUrl}, sign in, type the code ${body.userCode} and approve, then run: crypto-checkout checkin --agent ${JSON.stringify(body.agentName)}`,
  };
}

type CheckinAnswer =
  | CredentialIssued
  | { object: "agent_setup"; status: "pending"; pollIntervalSeconds: number };

/**
 * Redeems the check-in token of a pending setup (the named agent's, else the latest one) once:
 * stores the credential when the user approved, else reports that it is still pending.
 */
export async function checkinAgent(kit: Kit, agentName?: string) {
  const pendingSetups = (await kit.readConfig()).pendingSetups;
  const name = agentName ?? Object.keys(pendingSetups).at(-1);
  const pending = name === undefined ? undefined : pendingSetups[name];
  if (!name || !pending) {
    throw usageError(
      "no_pending_setup",
      `No setup is pending${agentName ? ` for agent ${JSON.stringify(agentName)}` : ""}: start one with crypto-checkout setup --agent <name>.`,
      "agent",
    );
  }
  const { body } = await callApi<CheckinAnswer>(pending.apiBaseUrl, "POST", "/agent/setup/checkin", {
    token: pending.checkinToken,
  });
  if (body.object !== "agent_credential") {
    return { ...body, agentName: name, loginUrl: pending.loginUrl, userCode: pending.userCode };
  }
  const summary = await storeCredential(kit, body, pending.apiBaseUrl);
  await kit.updateConfig((config) => {
    delete config.pendingSetups[name];
  });
  return summary;
}

/** Checks in until approved, waiting the interval the service asks for, at most `timeoutSeconds`. */
export async function waitForCheckin(kit: Kit, agentName: string, timeoutSeconds: number) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const answer = await checkinAgent(kit, agentName);
    if (answer.object === "agent_credential") return answer;
    const waitMs = Math.max(1, answer.pollIntervalSeconds) * 1000;
    if (Date.now() + waitMs > deadline) {
      throw checkFailed(
        "setup_pending",
        `The setup is not approved yet: open ${answer.loginUrl}, type the code ${answer.userCode} and approve, then run checkin again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

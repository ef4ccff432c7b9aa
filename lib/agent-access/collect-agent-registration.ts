import type { Db } from "../db/client";
import { gone, invalidRequest, unauthenticated } from "../errors";
import type { RegisterAgentInput } from "./agent-access-schemas";
import { agentTokenHash } from "./agent-access-tokens";
import { announceAgentCredential } from "./announce-agent-credential";
import { issueAgentCredentialOnce } from "./issue-agent-credential-once";
import { collectOutcome } from "./registration-state";

const completed = () =>
  gone(
    "registration_completed",
    "This signup is complete and its credential was handed out. Connect again through browser setup (`crypto-checkout setup`).",
  );

/**
 * The agent polls its signup with the same arguments and its check-in token: pending until the
 * owner opens the link, then the credential, exactly once (see issueAgentCredentialOnce).
 */
export async function collectAgentRegistration(database: Db, input: RegisterAgentInput) {
  const hash = agentTokenHash("registrationCheckin", input.checkinToken);
  const registration =
    hash &&
    (await database.agentRegistration.findUnique({
      where: { checkinTokenHash: hash },
      include: { organization: true },
    }));
  if (!registration) {
    throw unauthenticated(
      "invalid_checkin_token",
      "The check-in token is not valid. Start the signup without one.",
    );
  }
  const same =
    registration.email === input.email &&
    registration.projectName === input.projectName &&
    registration.agentName === input.agentName &&
    registration.ref === (input.ref ?? null);
  if (!same) {
    throw invalidRequest(
      "registration_mismatch",
      "Send the same email, project name, agent name and ref as the first call, with its check-in token.",
    );
  }

  switch (collectOutcome(registration.status, registration.expiresAt <= new Date())) {
    case "pending":
      return { status: "pending" as const, registration };
    case "completed":
      throw completed();
    case "expired":
      throw gone(
        "registration_expired",
        "This signup expired. Sign in at the dashboard, then connect the agent with browser setup (`crypto-checkout setup`).",
      );
  }
  const { organization, organizationId, userId } = registration;
  if (!organization || !organizationId || !userId) throw completed();
  const issued = await issueAgentCredentialOnce(database, {
    claim: (tx) =>
      tx.agentRegistration.updateMany({
        where: { id: registration.id, status: "CONFIRMED", expiresAt: { gt: new Date() } },
        data: { status: "COMPLETED" },
      }),
    link: (tx, credentialId) =>
      tx.agentRegistration.update({ where: { id: registration.id }, data: { credentialId } }),
    credential: {
      organizationId,
      agentName: registration.agentName,
      access: "write",
      createdByUserId: userId,
    },
    used: completed,
  });
  await announceAgentCredential(database, {
    organizationId,
    agentName: registration.agentName,
    access: "write",
    clientAddress: registration.clientAddress,
  });
  return { status: "issued" as const, ...issued, organization };
}

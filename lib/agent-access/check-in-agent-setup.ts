import type { Db } from "../db/client";
import { forbidden, gone, unauthenticated } from "../errors";
import { agentTokenHash } from "./agent-access-tokens";
import { announceAgentCredential } from "./announce-agent-credential";
import { issueAgentCredentialOnce } from "./issue-agent-credential-once";
import { checkinOutcome } from "./setup-state";

const used = () => gone("checkin_token_used", "This check-in token was already used. Start a new setup.");

/**
 * The agent collects its credential, once: of concurrent check-ins exactly one gets it (see
 * issueAgentCredentialOnce), the others are told the token was used.
 */
export async function checkInAgentSetup(database: Db, checkinToken: string | null) {
  const hash = agentTokenHash("checkin", checkinToken);
  const setup =
    hash &&
    (await database.agentSetup.findUnique({
      where: { checkinTokenHash: hash },
      include: { organization: true },
    }));
  if (!setup)
    throw unauthenticated("invalid_checkin_token", "The check-in token is not valid. Start a new setup.");

  switch (checkinOutcome(setup.status, setup.expiresAt <= new Date())) {
    case "pending":
      return { status: "pending" as const };
    case "denied":
      throw forbidden("setup_denied", "The setup was denied in the browser.");
    case "expired":
      throw gone(
        "setup_expired",
        "The setup expired before it was approved and collected. Start a new setup.",
      );
    case "used":
      throw used();
  }
  const { organization, organizationId, decidedByUserId } = setup;
  if (!organization || !organizationId || !decidedByUserId) throw used();
  // A credential ends with its approver's authority (lib/organizations/remove-member.ts): one
  // approved by an owner who has left since is never handed out.
  const approver = await database.membership.findUnique({
    where: { organizationId_userId: { organizationId, userId: decidedByUserId } },
  });
  if (approver?.role !== "OWNER")
    throw forbidden(
      "approver_removed",
      "The owner who approved this setup is no longer an owner. Start a new setup.",
    );
  const access = setup.access === "READ" ? "read" : "write";
  const issued = await issueAgentCredentialOnce(database, {
    claim: (tx) =>
      tx.agentSetup.updateMany({
        where: { id: setup.id, status: "APPROVED", expiresAt: { gt: new Date() } },
        data: { status: "COMPLETED" },
      }),
    link: (tx, credentialId) => tx.agentSetup.update({ where: { id: setup.id }, data: { credentialId } }),
    credential: {
      organizationId,
      agentName: setup.agentName,
      access,
      createdByUserId: decidedByUserId,
    },
    used,
  });
  await announceAgentCredential(database, {
    organizationId,
    agentName: setup.agentName,
    access,
    clientAddress: setup.clientAddress,
  });
  return { status: "issued" as const, ...issued, organization };
}

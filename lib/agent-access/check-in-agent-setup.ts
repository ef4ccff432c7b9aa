import type { Db } from "../db/client";
import { forbidden, gone, unauthenticated } from "../errors";
import { agentTokenHash } from "./agent-access-tokens";
import { createAgentCredential } from "./create-agent-credential";
import { checkinOutcome } from "./setup-state";

const used = () => gone("checkin_token_used", "This check-in token was already used. Start a new setup.");

/**
 * The agent collects its credential. The approved setup is marked completed by a conditional
 * update in the transaction that creates the credential: of two concurrent check-ins exactly one
 * updates the row and gets the secret, the other finds it completed.
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
  return database.$transaction(async (tx) => {
    const { count } = await tx.agentSetup.updateMany({
      where: { id: setup.id, status: "APPROVED", expiresAt: { gt: new Date() } },
      data: { status: "COMPLETED" },
    });
    if (count !== 1) throw used();
    const issued = await createAgentCredential(tx, {
      organizationId,
      agentName: setup.agentName,
      access: setup.access === "READ" ? "read" : "write",
      createdByUserId: decidedByUserId,
    });
    await tx.agentSetup.update({ where: { id: setup.id }, data: { credentialId: issued.credential.id } });
    return { status: "issued" as const, ...issued, organization };
  });
}

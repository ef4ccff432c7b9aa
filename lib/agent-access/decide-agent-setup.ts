import type { Db } from "../db/client";
import { forbidden, gone, notFound, ServiceError } from "../errors";
import { listMemberships } from "../organizations/list-memberships";
import { findAgentSetupByCode } from "./find-agent-setup-by-code";

/**
 * An owner approves (for one of their organizations) or denies a pending setup. Creating an agent
 * credential is creating a key to the organization, so it is owner-only like API keys; an
 * organization the user is not a member of looks unknown.
 */
export async function decideAgentSetup(
  database: Db,
  input: { userId: string; userCode: string; organizationId: string; decision: "approve" | "deny" },
) {
  const membership = (await listMemberships(database, input.userId)).find(
    (candidate) => candidate.organization.id === input.organizationId,
  );
  if (!membership) throw notFound("organization", "organizationId");
  if (membership.role !== "OWNER") {
    throw forbidden("owner_only", "Only an owner of the organization can connect agents to it.");
  }
  const found = await findAgentSetupByCode(database, input.userCode);
  if (!found) throw notFound("agent setup", "userCode");
  if (found.outcome === "expired")
    throw gone("setup_expired", "This setup has expired. Start it again from the agent.");
  const approve = input.decision === "approve";
  // Only a pending, unexpired setup changes, so a double click or a race decides once.
  const { count } = await database.agentSetup.updateMany({
    where: { id: found.setup.id, status: "PENDING", expiresAt: { gt: new Date() } },
    data: {
      status: approve ? "APPROVED" : "DENIED",
      organizationId: approve ? input.organizationId : null,
      decidedByUserId: input.userId,
      decidedAt: new Date(),
    },
  });
  if (count !== 1) {
    throw new ServiceError(
      409,
      "invalid_request_error",
      "setup_already_decided",
      "This setup was already approved or denied.",
    );
  }
  return { status: approve ? ("approved" as const) : ("denied" as const) };
}

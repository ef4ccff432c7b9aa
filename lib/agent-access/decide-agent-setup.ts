import { assertSignedInRecently, authorize } from "../authority/authorize";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { listMemberships } from "../organizations/list-memberships";
import { findDecidableAgentSetup, setupAlreadyDecided } from "./find-decidable-agent-setup";

/**
 * An owner approves (for one of their organizations) or denies a pending setup. Creating an agent
 * credential is creating a key to the organization, so it is owner-only like API keys; an
 * organization the user is not a member of looks unknown.
 */
export async function decideAgentSetup(
  database: Db,
  input: {
    userId: string;
    /** When the deciding session signed in: approving needs a recent sign-in, denying does not. */
    signedInAt: Date | null;
    userCode: string;
    organizationId: string;
    decision: "approve" | "deny";
  },
) {
  const membership = (await listMemberships(database, input.userId)).find(
    (candidate) => candidate.organization.id === input.organizationId,
  );
  if (!membership) throw notFound("organization", "organizationId");
  authorize({ kind: membership.role === "OWNER" ? "owner" : "member" }, "agents.approve");
  if (input.decision === "approve") assertSignedInRecently("agents.approve", input.signedInAt);
  const setup = await findDecidableAgentSetup(database, input);
  const approve = input.decision === "approve";
  // Only a pending, unexpired setup changes, so a double click or a race decides once.
  const { count } = await database.agentSetup.updateMany({
    where: { id: setup.id, status: "PENDING", expiresAt: { gt: new Date() } },
    data: {
      status: approve ? "APPROVED" : "DENIED",
      organizationId: approve ? input.organizationId : null,
      decidedByUserId: input.userId,
      decidedAt: new Date(),
    },
  });
  if (count !== 1) throw setupAlreadyDecided();
  return { status: approve ? ("approved" as const) : ("denied" as const) };
}

import { authorize } from "../authority/authorize";
import type { Db } from "../db/client";
import { listMemberships } from "../organizations/list-memberships";
import { findDecidableAgentSetup } from "./find-decidable-agent-setup";

/**
 * What the approval page shows once an owner typed the code: who asks (agent name, the address
 * that started the setup, when) and for what access. Only owners approve, so only they look.
 */
export async function lookUpAgentSetup(database: Db, input: { userId: string; userCode: string }) {
  const memberships = await listMemberships(database, input.userId);
  const ownsOne = memberships.some((membership) => membership.role === "OWNER");
  authorize({ kind: ownsOne ? "owner" : "member" }, "agents.approve");
  return findDecidableAgentSetup(database, input);
}

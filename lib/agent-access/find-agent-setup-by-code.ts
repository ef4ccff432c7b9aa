import type { Db } from "../db/client";
import { userCodeHash } from "./agent-access-tokens";
import { decisionOutcome } from "./setup-state";

/** The setup a typed code points to, with whether it can still be decided, or null. */
export async function findAgentSetupByCode(database: Db, userCode: string | null | undefined) {
  const hash = userCodeHash(userCode);
  const setup = hash && (await database.agentSetup.findUnique({ where: { userCodeHash: hash } }));
  if (!setup) return null;
  return { setup, outcome: decisionOutcome(setup.status, setup.expiresAt <= new Date()) };
}

import type { Db } from "../db/client";
import { newId } from "../ids";
import { newAgentToken, newUserCode, userCodeHash } from "./agent-access-tokens";

/** Setup and check-in tokens live 10 minutes (docs/agents.md, "Browser setup"). */
export const setupLifetimeMs = 10 * 60_000;

/**
 * Starts a browser setup: a pending row holding only hashes, and the three things the agent
 * needs, returned this once: the code the owner types on the approval page, a status token, a check-in token.
 */
export async function startAgentSetup(
  database: Db,
  input: { agentName: string; access: "read" | "write"; clientAddress: string },
) {
  const setupToken = newAgentToken("setup");
  const checkinToken = newAgentToken("checkin");
  const expiresAt = new Date(Date.now() + setupLifetimeMs);
  // A code is unique among stored setups; a clash (rare: 20^8 codes) just draws another.
  for (;;) {
    const userCode = newUserCode();
    const id = newId("agentSetup");
    const { count } = await database.agentSetup.createMany({
      data: {
        id,
        agentName: input.agentName,
        access: input.access === "read" ? "READ" : "WRITE",
        userCodeHash: userCodeHash(userCode) as string,
        setupTokenHash: setupToken.hash,
        checkinTokenHash: checkinToken.hash,
        clientAddress: input.clientAddress,
        expiresAt,
      },
      skipDuplicates: true,
    });
    if (count === 1) {
      return {
        agentName: input.agentName,
        access: input.access,
        userCode,
        setupToken: setupToken.token,
        checkinToken: checkinToken.token,
        expiresAt,
      };
    }
  }
}

import type { z } from "zod";
import type { Db } from "../db/client";
import { unauthenticated } from "../errors";
import type { agentSetupObject } from "./agent-access-schemas";
import { agentTokenHash } from "./agent-access-tokens";
import { setupView } from "./setup-state";

/** The status an agent polls with its setup token. */
export async function getAgentSetupStatus(
  database: Db,
  setupToken: string | null,
): Promise<z.output<typeof agentSetupObject>> {
  const hash = agentTokenHash("setup", setupToken);
  const setup = hash && (await database.agentSetup.findUnique({ where: { setupTokenHash: hash } }));
  if (!setup) {
    throw unauthenticated("invalid_setup_token", "The setup token is not valid. Start a new setup.");
  }
  return {
    object: "agent_setup",
    status: setupView(setup.status, setup.expiresAt <= new Date()),
    agentName: setup.agentName,
    expiresAt: setup.expiresAt.toISOString(),
  };
}

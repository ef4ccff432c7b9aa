import type { Db } from "../db/client";
import { gone, notFound, ServiceError } from "../errors";
import { limitFailures } from "../rate-limit/rate-limit";
import { userCodeHash } from "./agent-access-tokens";
import { decisionOutcome } from "./setup-state";

/**
 * The pending setup a code typed by a signed-in user points to. An unknown code is a 404 that
 * counts against that user (a few wrong tries, then 429); an expired or decided one says so.
 */
export function findDecidableAgentSetup(database: Db, input: { userCode: string; userId: string }) {
  return limitFailures("wrongCode", `setup:${input.userId}`, 404, async () => {
    const hash = userCodeHash(input.userCode);
    const setup = hash && (await database.agentSetup.findUnique({ where: { userCodeHash: hash } }));
    if (!setup) throw notFound("agent setup", "userCode");
    switch (decisionOutcome(setup.status, setup.expiresAt <= new Date())) {
      case "expired":
        throw gone("setup_expired", "This setup has expired. Start it again from the agent.");
      case "already_decided":
        throw setupAlreadyDecided();
      case "decide":
        return setup;
    }
  });
}

export const setupAlreadyDecided = () =>
  new ServiceError(
    409,
    "invalid_request_error",
    "setup_already_decided",
    "This setup was already approved or denied.",
  );

import type { Db } from "../db/client";

// A setup lives 10 minutes; for a day after that its tokens still get "expired" rather than
// "unknown", which tells an agent that polled too late what happened. Then the row goes, so
// setups started from the public endpoint cannot pile up. Credentials it issued stay.
const expiredSetupRetentionMs = 24 * 60 * 60 * 1000;

/** Forgets browser setups that expired more than a day ago (a periodic task); returns how many. */
export async function purgeAgentSetups(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.agentSetup.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - expiredSetupRetentionMs) } },
  });
  return count;
}

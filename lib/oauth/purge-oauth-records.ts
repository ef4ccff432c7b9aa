import type { Db } from "../db/client";
import { refreshReplayWindowSeconds } from "./oauth-settings";

const day = 24 * 60 * 60 * 1000;
// Revoked grants stay a while so "Connected apps" history and reuse logs can be matched up.
const revokedGrantRetentionMs = 30 * day;
// Registered clients nobody authorized are forgotten, so open registration cannot pile up rows.
const unusedClientRetentionMs = 90 * day;

/** Forgets what can no longer be used (a periodic task); returns how many rows went. */
export async function purgeOAuthRecords(database: Db, now = new Date()): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  // The sealed copy of a rotation's answer is only for the retry window; afterwards it goes.
  const sealed = await database.oAuthToken.updateMany({
    where: { replaySealed: { not: null }, rotatedAt: { lt: before(refreshReplayWindowSeconds * 1000) } },
    data: { replaySealed: null },
  });
  const tokens = await database.oAuthToken.deleteMany({ where: { expiresAt: { lt: before(day) } } });
  const grants = await database.oAuthGrant.deleteMany({
    where: {
      OR: [
        { codeUsedAt: null, codeExpiresAt: { lt: before(day) } },
        { revokedAt: { lt: before(revokedGrantRetentionMs) } },
      ],
    },
  });
  const clients = await database.oAuthClient.deleteMany({
    where: { grants: { none: {} }, createdAt: { lt: before(unusedClientRetentionMs) } },
  });
  return sealed.count + tokens.count + grants.count + clients.count;
}

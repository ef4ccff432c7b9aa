import { sendEmail } from "../auth/send-email";
import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";

/** How long a sender's claim on an announcement lasts: well past one email's send. */
const claimMs = 2 * 60 * 1000;
/** Retries back off from a minute to an hour between attempts. */
const firstRetryMs = 60 * 1000;
const lastRetryMs = 60 * 60 * 1000;
/** Past this age an unsent announcement is given up (the dashboard lists the change either way). */
export const announcementGiveUpMs = 72 * 60 * 60 * 1000;

/**
 * Sends the settlement-change announcements that are due (not sent, next attempt reached, held by
 * no other sender), oldest first: at once after the transaction that wrote them commits (`ids`),
 * and by the deliver-settlement-announcements task for whatever a crash or a mail outage left
 * unsent. Each is claimed (FOR UPDATE SKIP LOCKED) before it is sent, so instances share the work
 * without sending one twice; a failure is logged as an alert and retried with backoff.
 */
export async function deliverSettlementAnnouncements(
  database: Db,
  options: { ids?: string[]; now?: Date } = {},
): Promise<number> {
  if (options.ids?.length === 0) return 0;
  const now = options.now ?? new Date();
  const onlyThese =
    options.ids === undefined ? Prisma.empty : Prisma.sql`AND "id" IN (${Prisma.join(options.ids)})`;
  const claimed = await database.$queryRaw<
    {
      id: string;
      organizationId: string;
      settlementChangeId: string;
      to: string;
      subject: string;
      text: string;
      attempts: number;
    }[]
  >`
    UPDATE "SettlementAnnouncement" SET "lockedUntil" = ${new Date(now.getTime() + claimMs)}
    WHERE "id" IN (
      SELECT "id" FROM "SettlementAnnouncement"
      WHERE "sentAt" IS NULL AND "nextAttemptAt" <= ${now}
        AND "createdAt" > ${new Date(now.getTime() - announcementGiveUpMs)}
        AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now}) ${onlyThese}
      ORDER BY "nextAttemptAt"
      LIMIT 100
      FOR UPDATE SKIP LOCKED)
    RETURNING "id", "organizationId", "settlementChangeId", "to", "subject", "text", "attempts"`;
  let sent = 0;
  for (const announcement of claimed) {
    const attempts = announcement.attempts + 1;
    try {
      await sendEmail(database, {
        to: announcement.to,
        subject: announcement.subject,
        text: announcement.text,
      });
      await database.settlementAnnouncement.update({
        where: { id: announcement.id },
        data: { sentAt: new Date(), attempts, lockedUntil: null },
      });
      sent++;
    } catch (error) {
      const retryInMs = Math.min(firstRetryMs * 2 ** (attempts - 1), lastRetryMs);
      log.error(
        {
          err: error,
          organizationId: announcement.organizationId,
          settlementChangeId: announcement.settlementChangeId,
          attempts,
          alert: true,
        },
        "a settlement change could not be announced to an owner; retrying",
      );
      await database.settlementAnnouncement.update({
        where: { id: announcement.id },
        data: { attempts, nextAttemptAt: new Date(now.getTime() + retryInMs), lockedUntil: null },
      });
    }
  }
  return sent;
}

/**
 * Right after the transaction that wrote them commits: sends these announcements now. The change
 * stands whatever happens here; anything not sent (the database gone for a moment) is left to the
 * task.
 */
export async function sendAnnouncementsNow(database: Db, ids: string[], now: Date) {
  try {
    await deliverSettlementAnnouncements(database, { ids, now });
  } catch (error) {
    log.error({ err: error, alert: true }, "settlement change announcements left to the retry task");
  }
}

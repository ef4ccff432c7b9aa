import { sendEmail } from "../auth/send-email";
import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";

/** How long a sender's claim on an email lasts: well past one email's send. */
const claimMs = 2 * 60 * 1000;
/** Retries back off from a minute to an hour between attempts. */
const firstRetryMs = 60 * 1000;
const lastRetryMs = 60 * 60 * 1000;
/** Past this age an unsent email is given up (what it reports is on the dashboard or its page either way). */
export const outboundEmailGiveUpMs = 72 * 60 * 60 * 1000;

/**
 * Sends the outbox's emails that are due (not sent, next attempt reached, held by no other
 * sender), oldest first: at once after the transaction that wrote them commits (`ids`), and by
 * the deliver-outbound-emails task for whatever a crash or a mail outage left unsent. Each is
 * claimed (FOR UPDATE SKIP LOCKED) before it is sent, so instances share the work without sending
 * one twice; a failure is logged as an alert and retried with backoff. Returns how many were sent.
 */
export async function deliverOutboundEmails(
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
      kind: string;
      aboutId: string;
      to: string;
      subject: string;
      text: string;
      html: string | null;
      attempts: number;
    }[]
  >`
    UPDATE "OutboundEmail" SET "lockedUntil" = ${new Date(now.getTime() + claimMs)}
    WHERE "id" IN (
      SELECT "id" FROM "OutboundEmail"
      WHERE "sentAt" IS NULL AND "nextAttemptAt" <= ${now}
        AND "createdAt" > ${new Date(now.getTime() - outboundEmailGiveUpMs)}
        AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now}) ${onlyThese}
      ORDER BY "nextAttemptAt"
      LIMIT 100
      FOR UPDATE SKIP LOCKED)
    RETURNING "id", "organizationId", "kind", "aboutId", "to", "subject", "text", "html", "attempts"`;
  let sent = 0;
  for (const email of claimed) {
    const attempts = email.attempts + 1;
    try {
      await sendEmail(database, {
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html === null ? {} : { html: email.html }),
      });
      await database.outboundEmail.update({
        where: { id: email.id },
        data: { sentAt: new Date(), attempts, lockedUntil: null },
      });
      sent++;
    } catch (error) {
      const retryInMs = Math.min(firstRetryMs * 2 ** (attempts - 1), lastRetryMs);
      log.error(
        {
          err: error,
          organizationId: email.organizationId,
          kind: email.kind,
          aboutId: email.aboutId,
          attempts,
          alert: true,
        },
        "an outbox email could not be sent; retrying",
      );
      await database.outboundEmail.update({
        where: { id: email.id },
        data: { attempts, nextAttemptAt: new Date(now.getTime() + retryInMs), lockedUntil: null },
      });
    }
  }
  return sent;
}

/**
 * Right after the transaction that wrote them commits: sends these emails now. What they report
 * stands whatever happens here; anything not sent (the database gone for a moment) is left to the
 * task.
 */
export async function sendOutboundEmailsNow(database: Db, ids: string[], now: Date) {
  try {
    await deliverOutboundEmails(database, { ids, now });
  } catch (error) {
    log.error({ err: error, alert: true }, "outbox emails left to the retry task");
  }
}

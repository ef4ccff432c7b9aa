import { randomUUID } from "node:crypto";
import { type EmailAttachment, sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";

/**
 * How long a sender's claim on one email lasts, renewed just before that email is composed and
 * sent: past the longest one SMTP send may take (SMTP_TIMEOUT_MS, at most 5 minutes:
 * lib/auth/send-email.ts), so no other sender takes an email while it is being sent.
 */
export const outboundEmailHoldMs = 15 * 60 * 1000;
/**
 * A send is given up this long before its hold ends (a slow composer can eat into the hold), as
 * instances' clocks differ a little: the next sender takes the email only after this one has
 * stopped sending it.
 */
const holdMarginMs = 60 * 1000;
/** Claimed a few at a time, so none waits long behind the others' sends while held. */
const claimBatch = 5;
/** Retries back off from a minute to an hour between attempts. */
const firstRetryMs = 60 * 1000;
const lastRetryMs = 60 * 60 * 1000;
/** Past this age an unsent email is given up (what it reports is on the dashboard or its page either way). */
export const outboundEmailGiveUpMs = 72 * 60 * 60 * 1000;

/**
 * What a kind of email carries that its row does not hold (a month's CSV can be megabytes), built
 * at send time by the domain that wrote the row: passed in, as the outbox knows no domain.
 */
export type OutboundEmailComposers = Record<
  string,
  (
    database: Db,
    email: { organizationId: string; aboutId: string; text: string },
  ) => Promise<{
    text: string;
    attachments?: EmailAttachment[];
  }>
>;

type ClaimedEmail = {
  id: string;
  organizationId: string;
  kind: string;
  aboutId: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attempts: number;
};

/**
 * Sends the outbox's emails that are due (not sent, next attempt reached, held by no other
 * sender), oldest first: at once after the transaction that wrote them commits (`ids`), and by
 * the deliver-outbound-emails task for whatever a crash or a mail outage left unsent. A few at a
 * time are claimed (FOR UPDATE SKIP LOCKED) under a random token; just before each send the claim
 * is renewed, and an email whose claim was lost (its hold ran out and another sender took it) is
 * left to that sender, so instances share the work without sending one twice. A failure is logged
 * as an alert and retried with backoff. Returns how many were sent.
 */
export async function deliverOutboundEmails(
  database: Db,
  options: { ids?: string[]; now?: Date; composers?: OutboundEmailComposers } = {},
): Promise<number> {
  if (options.ids?.length === 0) return 0;
  const now = options.now ?? new Date();
  // `now` moves on with the wall clock, so a claim renewed after slow sends still lasts its hold.
  const startedAt = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - startedAt));
  const claimToken = randomUUID();
  const onlyThese =
    options.ids === undefined ? Prisma.empty : Prisma.sql`AND "id" IN (${Prisma.join(options.ids)})`;
  let sent = 0;
  for (;;) {
    const claimedAt = clock();
    const claimed = await database.$queryRaw<ClaimedEmail[]>`
      UPDATE "OutboundEmail"
      SET "lockedUntil" = ${new Date(claimedAt.getTime() + outboundEmailHoldMs)}, "claimToken" = ${claimToken}
      WHERE "id" IN (
        SELECT "id" FROM "OutboundEmail"
        WHERE "sentAt" IS NULL AND "nextAttemptAt" <= ${claimedAt}
          AND "createdAt" > ${new Date(claimedAt.getTime() - outboundEmailGiveUpMs)}
          AND ("lockedUntil" IS NULL OR "lockedUntil" < ${claimedAt}) ${onlyThese}
        ORDER BY "nextAttemptAt"
        LIMIT ${claimBatch}
        FOR UPDATE SKIP LOCKED)
      RETURNING "id", "organizationId", "kind", "aboutId", "to", "subject", "text", "html", "attempts"`;
    if (claimed.length === 0) return sent;
    for (const email of claimed) {
      if (await sendClaimedEmail(database, email, claimToken, clock, options.composers ?? {})) sent++;
    }
  }
}

/** Sends one claimed email if this sender still holds it; true when it was sent. */
async function sendClaimedEmail(
  database: Db,
  email: ClaimedEmail,
  claimToken: string,
  clock: () => Date,
  composers: OutboundEmailComposers,
): Promise<boolean> {
  const held = { id: email.id, claimToken, sentAt: null };
  const heldUntil = clock().getTime() + outboundEmailHoldMs;
  const renewed = await database.outboundEmail.updateMany({
    where: held,
    data: { lockedUntil: new Date(heldUntil) },
  });
  if (renewed.count !== 1) return false;
  const attempts = email.attempts + 1;
  const about = { organizationId: email.organizationId, kind: email.kind, aboutId: email.aboutId, attempts };
  try {
    const compose = composers[email.kind];
    const content = compose ? await compose(database, email) : { text: email.text };
    await sendEmail(
      database,
      {
        to: email.to,
        subject: email.subject,
        ...content,
        ...(email.html === null ? {} : { html: email.html }),
        // One Message-ID per outbox row: a relay that took the message but whose reply came past
        // the limit gets it again on the retry (SMTP delivers at least once), and the receiving
        // side can tell the copy for what it is.
        messageId: `<${email.id}@${new URL(config().baseUrl).hostname}>`,
      },
      { withinMs: heldUntil - holdMarginMs - clock().getTime() },
    );
  } catch (error) {
    const retryInMs = Math.min(firstRetryMs * 2 ** (attempts - 1), lastRetryMs);
    log.error({ err: error, ...about, alert: true }, "an outbox email could not be sent; retrying");
    await database.outboundEmail.updateMany({
      where: held,
      data: {
        attempts,
        nextAttemptAt: new Date(clock().getTime() + retryInMs),
        lockedUntil: null,
        claimToken: null,
      },
    });
    return false;
  }
  // Sent: from here a failure to record it must not be taken for a failure to send (no retry).
  const recorded = await database.outboundEmail
    .updateMany({
      where: { id: email.id, claimToken },
      data: { sentAt: new Date(), attempts, lockedUntil: null, claimToken: null },
    })
    .then(
      (result) => result.count === 1,
      (error: unknown) => {
        log.error({ err: error, ...about }, "recording an outbox email as sent failed");
        return false;
      },
    );
  if (!recorded) {
    log.error(
      { ...about, alert: true },
      "an outbox email was sent but not recorded as sent; it may be sent again",
    );
  }
  return true;
}

/**
 * Right after the transaction that wrote them commits: sends these emails now. What they report
 * stands whatever happens here; anything not sent (the database gone for a moment) is left to the
 * task.
 */
export async function sendOutboundEmailsNow(
  database: Db,
  ids: string[],
  now: Date,
  composers?: OutboundEmailComposers,
) {
  try {
    await deliverOutboundEmails(database, { ids, now, composers });
  } catch (error) {
    log.error({ err: error, alert: true }, "outbox emails left to the retry task");
  }
}

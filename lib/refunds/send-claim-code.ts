import { z } from "zod";
import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, notFound, rateLimited } from "../errors";
import { formatDecimal } from "../money/decimal";
import { recipientEmailField } from "../validation/fields";
import {
  claimCodeLifetimeMs,
  claimCodeResendAfterMs,
  claimCodesLocked,
  newClaimCode,
  storeClaimCode,
} from "./claim-code";
import { claimLocked, closedClaim } from "./claim-refund";
import { expireRefundClaim } from "./expire-refund-claim";
import { findRefundByClaimToken } from "./find-refund-by-claim-token";
import { lockClaimLink } from "./lock-claim-link";
import { maskEmail } from "./serialize-public-refund-claim";

/** The claim page's "email me a code" form: the link's token. */
export const sendClaimCodeSchema = z.strictObject({ token: z.string().max(200) });

/**
 * Emails the buyer a new one-time code for an open claim link whose buyer's email is known,
 * replacing any earlier code. At most one a minute per refund (429 with Retry-After), within the
 * email budgets of the recipient and the organization; whoever holds the link can make us email
 * the buyer, never read the code.
 */
export async function sendClaimCode(database: Db, token: string, now = new Date()) {
  let refund = await findRefundByClaimToken(database, token);
  if (refund.status === "REQUIRES_APPROVAL") throw notFound("refund claim", "token");
  const expired = await database.$transaction((tx) => expireRefundClaim(tx, refund, now));
  if (expired) refund = { ...refund, ...expired };
  if (refund.status !== "PENDING_CLAIM") throw closedClaim(refund);
  const email = recipientEmailField.safeParse(refund.claimEmail);
  if (!email.success) {
    throw conflict("claim_code_not_needed", "This refund needs no code: enter your address.");
  }
  const wait = (sentAt: Date | null) =>
    sentAt && now.getTime() - sentAt.getTime() < claimCodeResendAfterMs
      ? Math.ceil((claimCodeResendAfterMs - (now.getTime() - sentAt.getTime())) / 1000)
      : 0;
  if (claimCodesLocked(refund)) {
    await lockClaimLink(database, refund, now);
    throw claimLocked();
  }
  if (wait(refund.claimCodeSentAt) > 0) throw rateLimited(wait(refund.claimCodeSentAt));
  await assertEmailSendAllowed({ email: email.data, organizationId: refund.organizationId });
  const code = newClaimCode();
  // Conditional on the code sent before, so two requests at once store (and send) one code.
  const { count } = await database.refund.updateMany({
    where: {
      id: refund.id,
      status: "PENDING_CLAIM",
      claimTokenHash: refund.claimTokenHash,
      claimCodeSentAt: refund.claimCodeSentAt,
    },
    data: storeClaimCode(refund.id, code, now),
  });
  if (count === 0) throw rateLimited(Math.ceil(claimCodeResendAfterMs / 1000));
  const merchant = refund.organization.brandDisplayName ?? refund.organization.name;
  const minutes = claimCodeLifetimeMs / 60_000;
  await sendEmail(database, {
    to: email.data,
    // The code stays out of the subject: subjects are logged (lib/auth/send-email.ts) and shown in
    // notification previews.
    subject: `Your code for the refund from ${merchant}`,
    text: [
      `Your code to claim the refund of ${formatDecimal(refund.amount)} ${refund.token} from ${merchant}:`,
      "",
      code,
      "",
      `Enter it on the refund page with your address. It works once, for ${minutes} minutes.`,
      "",
      "If you did not ask for it, ignore this email: without this code nobody can claim your refund.",
      "",
      config().serviceName,
    ].join("\n"),
  });
  return { sentTo: maskEmail(email.data), expiresAt: new Date(now.getTime() + claimCodeLifetimeMs) };
}

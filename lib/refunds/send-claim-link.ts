import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal } from "../money/decimal";
import { recipientEmailField } from "../validation/fields";
import { claimUrlFor } from "./claim-token";

/**
 * Emails the buyer the claim link of an open claim refund, after it has committed. An invalid
 * address or a spent email budget skips the email (logged): the merchant has the same link in the
 * refund object and can pass it on or re-send it later.
 */
export async function sendClaimLink(database: Db, refund: Refund) {
  const address = recipientEmailField.safeParse(refund.claimEmail);
  if (refund.status !== "PENDING_CLAIM" || !refund.claimExpiresAt || !address.success) return;
  try {
    await assertEmailSendAllowed({ email: address.data, organizationId: refund.organizationId });
    const organization = await database.organization.findUniqueOrThrow({
      where: { id: refund.organizationId },
      select: { name: true, brandDisplayName: true },
    });
    const merchant = organization.brandDisplayName ?? organization.name;
    await sendEmail(database, {
      to: address.data,
      subject: `${merchant} is refunding ${formatDecimal(refund.amount)} ${refund.token} to you`,
      text: [
        `${merchant} is sending you a refund of ${formatDecimal(refund.amount)} ${refund.token} on ${refund.network}.`,
        ...(refund.reason ? ["", `Reason: ${refund.reason}`] : []),
        "",
        "Enter the address that should receive it here:",
        claimUrlFor(refund.id, refund.claimExpiresAt),
        "",
        `The link works once and until ${refund.claimExpiresAt.toISOString().slice(0, 10)}.`,
        "",
        config().serviceName,
      ].join("\n"),
    });
  } catch (error) {
    log.warn({ refundId: refund.id, err: error }, "refund claim email not sent");
  }
}

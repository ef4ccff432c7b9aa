import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { log } from "../log";
import { recipientEmailField } from "../validation/fields";

/**
 * Emails the buyer of a refund (the session's customer email) after the change it reports has
 * committed, within the email limits. Best effort: an invalid address or a spent budget skips the
 * email (logged), since the merchant and the claim page show the same facts.
 */
export async function emailBuyer(
  database: Db,
  refund: Refund,
  message: (merchant: string) => { subject: string; lines: string[] },
) {
  const address = recipientEmailField.safeParse(refund.claimEmail);
  if (!address.success) return;
  try {
    await assertEmailSendAllowed({ email: address.data, organizationId: refund.organizationId });
    const organization = await database.organization.findUniqueOrThrow({
      where: { id: refund.organizationId },
      select: { name: true, brandDisplayName: true },
    });
    const { subject, lines } = message(organization.brandDisplayName ?? organization.name);
    await sendEmail(database, { to: address.data, subject, text: lines.join("\n") });
  } catch (error) {
    log.warn({ refundId: refund.id, err: error }, "refund email to the buyer not sent");
  }
}

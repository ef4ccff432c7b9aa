import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { formatPrice } from "../money/decimal";
import { recipientEmailField } from "../validation/fields";
import type { RenewalNotice } from "./issue-renewal-invoices";

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Emails the customer the renewal's payment link, after the invoice has committed. An invalid
 * address or a spent email budget skips the email (logged): the merchant has the same link in
 * `invoice.created`, and a renewal is never held back by its email.
 */
export async function sendRenewalEmail(database: Db, notice: RenewalNotice) {
  const address = recipientEmailField.safeParse(notice.to);
  const { subscription } = notice;
  try {
    if (!address.success) throw new Error("invalid customer email address");
    await assertEmailSendAllowed({ email: address.data, organizationId: subscription.organizationId });
    const organization = await database.organization.findUniqueOrThrow({
      where: { id: subscription.organizationId },
      select: { name: true },
    });
    await sendEmail(database, {
      to: address.data,
      subject: `${organization.name}: your subscription renewal is due`,
      text: [
        `Your ${subscription.description ?? "subscription"} with ${organization.name} renews for the period`,
        `${day(notice.periodStart)} to ${day(notice.periodEnd)}: ${formatPrice(subscription.amount, subscription.currency)} ${subscription.currency}.`,
        "",
        `Pay within 24 hours here: ${notice.url}`,
        "",
        `${config().serviceName}`,
      ].join("\n"),
    });
  } catch (error) {
    log.warn({ subscriptionId: subscription.id, err: error }, "renewal email not sent");
  }
}

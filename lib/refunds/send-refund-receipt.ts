import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal } from "../money/decimal";
import { recipientEmailField } from "../validation/fields";

/**
 * Tells the buyer of a claim refund that it arrived (the claim page promises this when the session
 * had their email), after the success has committed. Best effort, like the claim link itself: a
 * skipped email is logged, and the claim page shows the same transaction.
 */
export async function sendRefundReceipt(database: Db, refund: Refund) {
  const address = recipientEmailField.safeParse(refund.claimEmail);
  if (refund.status !== "SUCCEEDED" || !address.success) return;
  try {
    await assertEmailSendAllowed({ email: address.data, organizationId: refund.organizationId });
    const organization = await database.organization.findUniqueOrThrow({
      where: { id: refund.organizationId },
      select: { name: true, brandDisplayName: true },
    });
    const merchant = organization.brandDisplayName ?? organization.name;
    const explorer = config().networks.find((network) => network.id === refund.network)?.explorerUrl;
    await sendEmail(database, {
      to: address.data,
      subject: `Your refund of ${formatDecimal(refund.amount)} ${refund.token} from ${merchant} was sent`,
      text: [
        `${merchant} sent you ${formatDecimal(refund.amount)} ${refund.token} on ${refund.network}, to ${refund.toAddress}.`,
        "",
        `Transaction: ${explorer ? `${explorer}/tx/${refund.txHash}` : refund.txHash}`,
        "",
        config().serviceName,
      ].join("\n"),
    });
  } catch (error) {
    log.warn({ refundId: refund.id, err: error }, "refund receipt email not sent");
  }
}

import { config } from "../config";
import type { Db } from "../db/client";
import { formatDecimal } from "../money/decimal";
import { emailOwners } from "../organizations/email-owners";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { refundPath } from "./announce-refund-proposal";

/**
 * Records that a claim link hit its caps of codes or wrong tries (lib/refunds/claim-code.ts) and,
 * the first time only, tells every owner: someone may be guessing the buyer's code, and the buyer
 * can claim nothing until an owner re-sends the link. Conditional on the link still being the one
 * in force and not yet locked, so two refusals at once send one email; the email is recorded with
 * the lock, so it is sent if and only if the lock committed.
 */
export async function lockClaimLink(
  database: Db,
  refund: {
    id: string;
    organizationId: string;
    claimTokenHash: string | null;
    amount: { toString(): string };
    token: string;
    network: string;
  },
  now: Date,
) {
  const amount = `${formatDecimal(refund.amount)} ${refund.token} on ${refund.network}`;
  const ids = await database.$transaction(async (tx) => {
    const { count } = await tx.refund.updateMany({
      where: {
        id: refund.id,
        status: "PENDING_CLAIM",
        claimTokenHash: refund.claimTokenHash,
        claimLockedAt: null,
      },
      data: { claimLockedAt: now },
    });
    if (count === 0) return [];
    return emailOwners(
      tx,
      refund.organizationId,
      {
        aboutId: refund.id,
        subject: `Refund claim link locked: ${amount}`,
        text: [
          `The claim link of a refund of ${amount} was locked after too many codes were asked for or typed wrong on it. Someone other than the buyer may hold the link and be guessing the code emailed to the buyer.`,
          "",
          "Nothing was paid. The buyer cannot claim this refund until an owner re-sends its link (the locked link then stops working), or cancels the refund:",
          "",
          `${config().baseUrl}${refundPath(refund.id)}`,
        ].join("\n"),
      },
      now,
    );
  });
  void sendOutboundEmailsNow(database, ids, now);
}

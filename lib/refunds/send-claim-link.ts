import { config } from "../config";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { claimUrlFor } from "./claim-token";
import { emailBuyer } from "./email-buyer";

/**
 * Emails the buyer the claim link of an open claim refund, after it has committed. A skipped email
 * leaves the merchant the same link in the refund object, to pass on or re-send later.
 */
export async function sendClaimLink(database: Db, refund: Refund) {
  const expiresAt = refund.claimExpiresAt;
  if (refund.status !== "PENDING_CLAIM" || !expiresAt) return;
  await emailBuyer(database, refund, (merchant) => ({
    subject: `${merchant} is refunding ${formatDecimal(refund.amount)} ${refund.token} to you`,
    lines: [
      `${merchant} is sending you a refund of ${formatDecimal(refund.amount)} ${refund.token} on ${refund.network}.`,
      ...(refund.reason ? ["", `Reason: ${refund.reason}`] : []),
      "",
      "Enter the address that should receive it here:",
      claimUrlFor(refund.id, expiresAt),
      "",
      `The link works once and until ${expiresAt.toISOString().slice(0, 10)}.`,
      "The page asks for a one-time code that we email to this address: without it, nobody who gets hold of the link can claim the refund.",
      "",
      config().serviceName,
    ],
  }));
}

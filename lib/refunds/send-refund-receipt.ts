import { config, explorerLink, networkName } from "../config";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { emailBuyer } from "./email-buyer";

/**
 * Tells the buyer of a claim refund that it was sent (the claim page promises this when the
 * session had their email), after the success has committed.
 */
export async function sendRefundReceipt(database: Db, refund: Refund) {
  if (refund.status !== "SUCCEEDED") return;
  const page = refund.txHash ? explorerLink(refund.network, "tx", refund.txHash) : null;
  await emailBuyer(database, refund, (merchant) => ({
    subject: `Your refund of ${formatDecimal(refund.amount)} ${refund.token} from ${merchant} was sent`,
    lines: [
      `${merchant} sent you ${formatDecimal(refund.amount)} ${refund.token} on ${networkName(refund.network)}, to ${refund.toAddress}.`,
      "",
      `Transaction: ${page ?? refund.txHash}`,
      "",
      config().serviceName,
    ],
  }));
}

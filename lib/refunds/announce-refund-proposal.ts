import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal, Money } from "../money/decimal";

const kindLabels: Record<string, string> = {
  api_key: "an API key",
  agent_credential: "an agent credential",
  oauth_token: "an app connected with OAuth",
  automatic: "the organization's automatic overpayment refunds",
};

/** The dashboard page where an owner confirms or rejects a refund waiting for approval. */
export function refundPath(id: string) {
  return `/dashboard/refunds/${id}`;
}

/**
 * Tells every owner of a refund a credential asked for beyond what it may decide (an agent's or
 * OAuth token's beyond its cap, any credential's to an address it names), or that the signer held
 * (an automatic overpayment refund to a contract; its pendingReason says why), with the page to
 * confirm or reject it. A failed email is logged as an error and does not undo
 * the proposal; the dashboard lists it either way.
 */
export async function announceRefundProposal(database: Db, refund: Refund) {
  if (refund.status !== "REQUIRES_APPROVAL") return;
  const organization = await database.organization.findUniqueOrThrow({
    where: { id: refund.organizationId },
    select: {
      name: true,
      refundAgentDailyCapUsd: true,
      memberships: { where: { role: "OWNER" }, select: { user: { select: { email: true } } } },
    },
  });
  const destination =
    refund.destination === "CLAIM" && refund.claimedAt
      ? `${refund.toAddress}, typed on the claim page by whoever held the link (no emailed code proved it was the buyer): make sure it is the buyer's`
      : refund.destination === "CLAIM"
        ? refund.claimEmail
          ? `a claim link sent to ${refund.claimEmail} (the session's customer email, as whoever created the checkout gave it: make sure it is the buyer's), who enters an address`
          : "a claim link (the buyer enters an address)"
        : refund.destination === "PAYER"
          ? `the payer, ${refund.toAddress}`
          : `an address the requester named, ${refund.toAddress}`;
  const link = `${config().baseUrl}${refundPath(refund.id)}`;
  const text = [
    `A refund from ${organization.name} on ${config().serviceName} waits for an owner. Nothing is sent unless an owner confirms it.`,
    "",
    `Amount: ${formatDecimal(refund.amount)} ${refund.token} on ${refund.network} (${formatDecimal(new Money(refund.amountUsd.toString()).toDecimalPlaces(6, Money.ROUND_UP))} USD)`,
    `Invoice: ${refund.invoiceId}`,
    `To: ${destination}`,
    `Reason: ${refund.reason ?? "none given"}`,
    ...(refund.pendingReason ? [`Held because: ${refund.pendingReason}`] : []),
    `Asked by: ${refund.requestedByName} (${kindLabels[refund.requestedByKind] ?? refund.requestedByKind})`,
    `Agents may refund payers up to ${formatDecimal(organization.refundAgentDailyCapUsd)} USD a day on their own; their claim links, and an address named by any credential (an API key too), always need an owner.`,
    "",
    "Confirm or reject it:",
    "",
    link,
    "",
    "If you do not recognise this request, reject it and revoke the credential that sent it.",
  ].join("\n");
  for (const { user } of organization.memberships) {
    try {
      await sendEmail(database, {
        to: user.email,
        subject: `Confirm or reject: refund of ${formatDecimal(refund.amount)} ${refund.token} for ${organization.name}`,
        text,
      });
    } catch (error) {
      log.error(
        { err: error, organizationId: refund.organizationId, refundId: refund.id, alert: true },
        "a refund proposal could not be announced to an owner",
      );
    }
  }
}

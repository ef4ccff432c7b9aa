import type { Decision } from "../authority/authorize";
import { refundDecision } from "../authority/authorize";
import type { AddressRules } from "../chains/chain-family";
import { findToken } from "../chains/networks";
import { chainFamilyOf, config, networkName, paysRefunds } from "../config";
import type { Tx } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import type { Refund, RefundDestination, RefundStatus } from "../generated/prisma/client";
import { newId } from "../ids";
import { Money } from "../money/decimal";
import { recipientEmailField } from "../validation/fields";
import { claimLinkLifetimeMs, claimTokenFor, hashClaimToken } from "./claim-token";
import { recordRefundEvent } from "./record-refund-event";
import { countedRefundStatuses } from "./refund-state";

/** Who asked for a refund, as stored on it and shown to owners. */
export type RefundRequester = {
  kind: "user" | "api_key" | "agent_credential" | "oauth_token" | "automatic";
  /** How people recognise it: the owner's email, the key's, agent's or app's name. */
  name: string;
  id?: string;
  /**
   * `propose` (agents, OAuth tokens): within the daily cap to the payer, else an owner decides.
   * Whoever asks, a named address from anyone but a person in the dashboard waits for an owner.
   */
  decision: Decision;
};

export type RefundRequest = {
  invoiceId: string;
  /** Decimal in the invoice's token; absent: all that is left to refund. */
  amount?: string;
  /** "payer", "claim" or a checksummed address. */
  destination: string;
  reason?: string;
};

/** Kinds whose refunds count against the organization's daily agent cap. */
const cappedKinds = ["agent_credential", "oauth_token"];

/** The claim fields of a claim link opened at `now`: the expiry and the derived token's hash. */
export function openClaim(refundId: string, now: Date) {
  const claimExpiresAt = new Date(now.getTime() + claimLinkLifetimeMs);
  return {
    claimExpiresAt,
    claimTokenHash: hashClaimToken(claimTokenFor(refundId, claimExpiresAt)),
    // A new link starts with no code and fresh caps (lib/refunds/claim-code.ts).
    claimCodeHash: null,
    claimCodeExpiresAt: null,
    claimCodeAttempts: 0,
    claimCodesSent: 0,
    claimCodeFailures: 0,
    claimLockedAt: null,
  };
}

/** What an invoice's confirmed payments brought in, what its counted refunds give back, and the rest. */
export function refundableOf(invoice: {
  payments: { amount: { toString(): string } }[];
  refunds: { amount: { toString(): string } }[];
}) {
  const paid = invoice.payments.reduce((sum, payment) => sum.plus(payment.amount.toString()), new Money(0));
  const refunded = invoice.refunds.reduce((sum, refund) => sum.plus(refund.amount.toString()), new Money(0));
  return { paid, refunded, left: paid.minus(refunded) };
}

/**
 * The one address the invoice's confirmed payments came from, as its chain family spells it; 400
 * when it is unknown (EVM's zero address: a mint) or not one.
 */
export function payerOf(payments: { fromAddress: string | null }[], addresses: AddressRules): string {
  const senders = [
    ...new Set(
      payments.flatMap((payment) => {
        const parsed = payment.fromAddress === null ? null : addresses.parse(payment.fromAddress);
        return parsed && "address" in parsed && !addresses.isBurn(parsed.address) ? [parsed.address] : [];
      }),
    ),
  ];
  if (senders.length === 0) {
    throw invalidRequest(
      "no_payer_address",
      "The address that paid this invoice is unknown (the transfer came from the zero address, as a mint does). Refund through a claim link (destination `claim`) or to an address you name.",
      "destination",
    );
  }
  if (senders.length > 1) {
    throw invalidRequest(
      "several_payer_addresses",
      `This invoice was paid from several addresses: ${senders.join(", ")}. Send the refund to one of them by naming it as the destination.`,
      "destination",
    );
  }
  return senders[0];
}

function startOfUtcDay(now: Date) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Whether `amountUsd` more stays within what agents and OAuth tokens may refund today (UTC). */
async function withinAgentCap(tx: Tx, organizationId: string, amountUsd: Money, now: Date) {
  // Serializes agents' refunds of one organization, so two at once cannot both fit under the cap.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`refund-cap:${organizationId}`}))`;
  // One after the other: a transaction is one connection, which runs one query at a time.
  const organization = await tx.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { refundAgentDailyCapUsd: true },
  });
  const today = await tx.refund.aggregate({
    where: {
      organizationId,
      requestedByKind: { in: cappedKinds },
      status: { not: "FAILED" },
      createdAt: { gte: startOfUtcDay(now) },
    },
    _sum: { amountUsd: true },
  });
  const spent = new Money((today._sum.amountUsd ?? 0).toString());
  return spent.plus(amountUsd).lte(organization.refundAgentDailyCapUsd.toString());
}

/**
 * Opens a refund of an invoice inside the caller's transaction, with the invoice's row locked so
 * that refunds asked at the same time cannot together exceed what was paid (confirmed payments;
 * failed refunds do not count). Records `refund.created` in the same transaction.
 */
export async function insertRefund(
  tx: Tx,
  organizationId: string,
  request: RefundRequest,
  requestedBy: RefundRequester,
  now: Date,
): Promise<Refund> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Invoice" WHERE "id" = ${request.invoiceId} AND "organizationId" = ${organizationId} FOR UPDATE`;
  if (locked.length === 0) throw notFound("invoice", "invoiceId");
  const invoice = await tx.invoice.findUniqueOrThrow({
    where: { id: request.invoiceId },
    include: {
      payments: { where: { status: "CONFIRMED" } },
      refunds: { where: { status: { in: [...countedRefundStatuses] } } },
      checkoutSession: { select: { customerEmail: true } },
    },
  });
  const { paid, refunded, left } = refundableOf(invoice);
  // Payments on a network the signing role cannot send on wait where they are: nothing to send back from.
  if (!paysRefunds(config().networks.find((network) => network.id === invoice.network) ?? {})) {
    throw conflict(
      "refunds_unavailable",
      `Refunds on ${networkName(invoice.network)} are not available yet: ask the operator to return the funds.`,
    );
  }
  if (paid.lte(0)) {
    throw conflict("invoice_not_paid", "This invoice has no confirmed payment to refund yet.");
  }
  const amount = new Money(request.amount ?? left);
  const network = config().networks.find((candidate) => candidate.id === invoice.network);
  const decimals = (network && findToken(network, invoice.token)?.decimals) ?? 18;
  if (amount.decimalPlaces() > decimals) {
    throw invalidRequest(
      "parameter_invalid",
      `Invalid amount: has more than ${decimals} decimal places, the most ${invoice.token} allows.`,
      "amount",
    );
  }
  if (left.lte(0) || amount.gt(left)) {
    throw conflict(
      "refund_exceeds_payment",
      `Refunds of this invoice would exceed what was paid: ${paid.toFixed()} ${invoice.token} paid, ${refunded.toFixed()} refunded or being refunded, ${Money.max(left, 0).toFixed()} left.`,
    );
  }
  const destination: RefundDestination =
    request.destination === "payer" ? "PAYER" : request.destination === "claim" ? "CLAIM" : "ADDRESS";
  const toAddress =
    destination === "PAYER"
      ? payerOf(invoice.payments, chainFamilyOf(invoice.network).addresses)
      : destination === "ADDRESS"
        ? request.destination
        : null;
  // The invoice's locked quote: the share of its USD price this refund gives back. Rounded up at
  // 18 places, not to cents: the agents' daily cap must count a sub-cent refund as more than 0.
  const amountUsd = amount
    .mul(invoice.amountUsd.toString())
    .div(invoice.amountDue.toString())
    .toDecimalPlaces(18, Money.ROUND_UP);
  const decision = refundDecision(requestedBy.decision, {
    destination,
    byPerson: requestedBy.kind === "user",
    withinAgentCap:
      requestedBy.decision === "propose" && destination === "PAYER"
        ? await withinAgentCap(tx, organizationId, amountUsd, now)
        : false,
  });
  const status: RefundStatus =
    decision === "propose" ? "REQUIRES_APPROVAL" : destination === "CLAIM" ? "PENDING_CLAIM" : "PENDING";
  const id = newId("refund");
  const claimEmail = recipientEmailField.safeParse(invoice.checkoutSession.customerEmail);
  const refund = await tx.refund.create({
    data: {
      id,
      organizationId,
      invoiceId: invoice.id,
      checkoutSessionId: invoice.checkoutSessionId,
      network: invoice.network,
      token: invoice.token,
      amount: amount.toFixed(),
      amountUsd: amountUsd.toFixed(18),
      status,
      destination,
      toAddress,
      reason: request.reason ?? null,
      ...(status === "PENDING_CLAIM" ? openClaim(id, now) : {}),
      claimEmail: destination === "CLAIM" && claimEmail.success ? claimEmail.data : null,
      requestedByKind: requestedBy.kind,
      requestedByName: requestedBy.name,
      requestedById: requestedBy.id ?? null,
      createdAt: now,
      updatedAt: now,
    },
  });
  await recordRefundEvent(tx, refund, "refund.created");
  return refund;
}
